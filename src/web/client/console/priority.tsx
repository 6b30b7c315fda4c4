import { request } from '../api.js';
import { graphql } from '../gql/index.js';

// A request's priority (Tiledesk's values, `hight` spelt as Tiledesk does): a badge in the inbox
// for anything but normal, and a picker in the conversation that changes it.

export const priorities = ['urgent', 'hight', 'normal', 'low'] as const;
export const priorityLabel: Record<string, string> = { urgent: 'Urgent', hight: 'High', normal: 'Normal', low: 'Low' };

const SetPriority = graphql(`
  mutation ConsoleSetPriority($project: String!, $request: String!, $priority: String!) {
    updateRequest(project_id: $project, request_id: $request, priority: $priority) { _id priority }
  }
`);

export function PriorityBadge({ priority }: { priority: string }) {
  if (priority === 'normal') return null;
  return (
    <span className={`chip priority priority-${priority}`} data-testid="priority">
      {priorityLabel[priority] ?? priority}
    </span>
  );
}

/** `act` runs the change and reads the conversation again (or shows the error). */
export function PriorityPicker(props: { projectId: string; requestId: string; priority: string; token: string; act: (run: () => Promise<unknown>) => Promise<void> }) {
  const { projectId, requestId, priority, token, act } = props;
  return (
    <label className="priority-picker">
      Priority
      <select
        aria-label="Conversation priority"
        value={priority}
        onChange={(e) => void act(() => request(SetPriority, { project: projectId, request: requestId, priority: e.target.value }, token))}
      >
        {priorities.map((p) => (
          <option key={p} value={p}>
            {priorityLabel[p]}
          </option>
        ))}
      </select>
    </label>
  );
}
