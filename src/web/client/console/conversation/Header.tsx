import { useEffect, useState } from 'react';
import { request } from '../../api.js';
import { AssignTargets, AssignTo, Close, Reopen, RouteToDepartment, Take } from '../operations.js';
import { useSession } from '../session.js';
import { SlaCountdown } from '../sla.js';
import type { Act, Details } from './DetailsPanel.js';

// The conversation's header: back to the inbox, who and which ticket, the SLA countdown, and what
// an agent does to the whole conversation (assign or route, take, merge, close or reopen).

export function BackToInbox({ onBack }: { onBack: () => void }) {
  return (
    <button type="button" className="back link" onClick={onBack}>
      ← Inbox
    </button>
  );
}

type Targets = { departments: Array<{ _id: string; name: string; id_bot?: string | null }>; agents: Array<{ id: string; name: string }> };

export function ConversationHeader(props: {
  projectId: string;
  requestId: string;
  details: Details | null;
  closed: boolean;
  merged: boolean;
  act: Act;
  onBack: () => void;
  onMerge: () => void;
}) {
  const { projectId, requestId, details, closed, merged, act, onBack, onMerge } = props;
  const { token, userId } = useSession();
  const [targets, setTargets] = useState<Targets>({ departments: [], agents: [] });
  useEffect(() => {
    request(AssignTargets, { project: projectId }, token).then(
      (r) =>
        setTargets({
          departments: r.departments,
          agents: r.teammates
            .filter((t) => t.role !== 'guest' && t.role !== 'user' && t.id_user)
            .map((t) => ({ id: t.id_user!._id, name: t.id_user!.fullName || t.id_user!.email || t._id })),
        }),
      () => {},
    );
  }, [projectId, token]);
  const mine = details?.participatingAgents.includes(userId);
  return (
    <header className="conversation-header">
      <BackToInbox onBack={onBack} />
      <h2>
        {details?.lead?.fullname || 'Visitor'} <span className="ticket">#{details?.ticket_id}</span>
      </h2>
      {!closed && <SlaCountdown sla={details?.sla} />}
      <div className="actions">
        {!closed && (
          <select
            aria-label="Assign to"
            value=""
            onChange={(e) => {
              const [kind, id] = e.target.value.split(':');
              const agent = targets.agents.find((a) => a.id === id);
              const department = targets.departments.find((d) => d._id === id);
              if (kind === 'agent') void act(() => request(AssignTo, { project: projectId, request: requestId, participants: [id] }, token), `Assigned to ${agent?.name}`);
              if (kind === 'department') void act(() => request(RouteToDepartment, { project: projectId, request: requestId, department: id }, token), `Routed to ${department?.name}`);
            }}
          >
            <option value="">Assign to…</option>
            <optgroup label="Teammates">
              {targets.agents.map((a) => (
                <option key={a.id} value={`agent:${a.id}`}>
                  {a.name}
                </option>
              ))}
            </optgroup>
            <optgroup label="Departments">
              {targets.departments.map((d) => (
                <option key={d._id} value={`department:${d._id}`}>
                  {d.name}
                </option>
              ))}
            </optgroup>
          </select>
        )}
        {!closed && !mine && (
          <button type="button" onClick={() => act(() => request(Take, { project: projectId, request: requestId }, token), 'You took the conversation')}>
            Take
          </button>
        )}
        {details && !merged && (
          <button type="button" className="secondary" aria-haspopup="dialog" onClick={onMerge}>
            Merge…
          </button>
        )}
        {merged ? null : closed ? (
          <button type="button" onClick={() => act(() => request(Reopen, { project: projectId, request: requestId }, token), 'Reopened')}>
            Reopen
          </button>
        ) : (
          <button type="button" data-action="close" onClick={() => act(() => request(Close, { project: projectId, request: requestId }, token), 'Closed')}>
            Close
          </button>
        )}
      </div>
    </header>
  );
}
