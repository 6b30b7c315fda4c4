import type { Db } from '../../infra/database.js';
import type { EventConsumer } from '../../infra/event-consumers.js';
import type { EventLog, LoggedEvent } from '../../infra/event-log.js';
import type { Logger } from '../../infra/logger.js';
import { RequestStatus } from '../requests/states.js';
import { transactionWithRetry } from '../requests/request-rows.js';
import { applySla } from './apply.js';
import { evaluate, projectHours } from './clock.js';

// Keeps each request's SLA current: a consumer of the event log (infra/event-consumers.ts), so a
// request's SLA is computed once its creation, a change of department or priority, a message or
// its closing is committed, whichever node wrote it, and a process dying in between leaves the
// events to read again. Computing is from the request's present state (clock.ts), so reading an
// event twice changes nothing. A change of policies or of the project's operating hours computes
// the project's open requests again. A change of what a request shows of its SLA is an
// `sla.update` event, so that consoles and subscriptions follow it.

const requestEvents = new Set(['request.create', 'request.update', 'request.close', 'request.merge', 'message.create']);
const policyEvents = new Set(['sla_policy.create', 'sla_policy.update', 'sla_policy.delete']);
const hoursFields = ['activeOperatingHours', 'operatingHours'];
/** A change that may move every open request's deadlines: the policies, or the operating hours. */
const changesAll = (event: LoggedEvent) =>
  policyEvents.has(event.name) ||
  (event.name === 'project.update' && (!Array.isArray(event.payload.fields) || event.payload.fields.some((f) => hoursFields.includes(String(f)))));
const pageSize = 200;

export class SlaTracker implements EventConsumer {
  readonly name = 'sla';

  constructor(
    private db: Db,
    private events: EventLog,
    private logger: Logger,
  ) {}

  wants(event: LoggedEvent) {
    return requestEvents.has(event.name) || changesAll(event);
  }

  async handle(projectId: string, events: LoggedEvent[]) {
    const policies = await this.db.slaPolicy.findMany({ where: { id_project: projectId } });
    const everything = events.some(changesAll);
    // With no policy nothing is due, and no request of the project has an SLA to clear.
    if (!policies.length && !everything) return;
    const hours = await projectHours(this.db, projectId);
    const ids = new Set<string>();
    for (const event of events) {
      const requestId = event.payload.request_id;
      if (typeof requestId === 'string') ids.add(requestId);
      if (event.name === 'request.merge' && Array.isArray(event.payload.from)) for (const id of event.payload.from) ids.add(String(id));
    }
    const recompute = async (requestIds: string[]) => {
      for (const requestId of requestIds) {
        try {
          await transactionWithRetry(this.events, async (tx, emit) => {
            const request = await tx.request.findUnique({ where: { id_project_request_id: { id_project: projectId, request_id: requestId } } });
            if (!request) return;
            if (await applySla(tx, request, await evaluate(tx, request, policies, hours))) {
              await emit({ projectId, name: 'sla.update', subject: request.id, payload: { request_id: request.request_id } });
            }
          });
        } catch (error) {
          this.logger.error({ err: error, project: projectId, request: requestId }, 'SLA not computed; the timer sweep checks it again');
        }
      }
    };
    if (everything) {
      // Every open request, and every request that had an SLA (its policy may be gone).
      let after: string | undefined;
      for (;;) {
        const page = await this.db.request.findMany({
          where: { id_project: projectId, status: { not: RequestStatus.CLOSED }, ...(after ? { request_id: { gt: after } } : {}) },
          orderBy: { request_id: 'asc' },
          take: pageSize,
          select: { request_id: true },
        });
        if (!page.length) break;
        after = page[page.length - 1].request_id;
        await recompute(page.map((r) => r.request_id).filter((id) => !ids.has(id)));
      }
      const withSla = await this.db.requestSla.findMany({ where: { id_project: projectId, policyId: { not: null } }, select: { request_id: true } });
      for (const { request_id } of withSla) ids.add(request_id);
    }
    await recompute([...ids]);
  }
}
