import type { EventConsumer } from '../../infra/event-consumers.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import type { AssignmentService } from './assignment.js';

// Requests that found nobody are offered again when someone may take them: a teammate available
// again or given more capacity, or an agent freed by a request closed, deleted or handed on. A
// listener on the event log, so the offer follows every such commit even when the process that
// made it died right after: the cursor moves past the events once the offer has run. An offer
// that finds nobody changes nothing, so reading the events again is harmless.

/** A teammate's fields whose change may let them take more requests. */
const capacityFields = ['user_available', 'max_served_chat', 'status'];
/** A request's fields whose change may free one of its agents. */
const assignmentFields = ['participants', 'participatingAgents'];

const fieldsOf = (event: LoggedEvent) => {
  const fields = (event.payload as { fields?: unknown } | null)?.fields;
  return Array.isArray(fields) ? (fields as unknown[]) : [];
};

export class WaitingOffers implements EventConsumer {
  readonly name = 'waiting-offers';

  constructor(private assignments: AssignmentService) {}

  wants(event: LoggedEvent) {
    switch (event.name) {
      case 'request.close':
      case 'request.delete':
        return true;
      case 'request.update':
        return fieldsOf(event).some((field) => assignmentFields.includes(field as string));
      case 'project_user.update':
        return fieldsOf(event).some((field) => capacityFields.includes(field as string));
      default:
        return false;
    }
  }

  async handle(projectId: string) {
    // One offer covers the whole batch: it walks every waiting request of the project.
    return { settled: this.assignments.offerWaiting(projectId).then(() => undefined) };
  }
}
