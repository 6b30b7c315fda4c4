import { useCallback, useEffect, useState } from 'react';
import { request, subscribe } from '../api.js';
import type { ConsoleInboxQuery } from '../gql/graphql.js';
import { Inbox as InboxQuery, RequestEvents } from './operations.js';
import { useSession } from './session.js';

export type InboxRequest = NonNullable<ConsoleInboxQuery['requests']>['requests'][number];

const views = [
  { id: 'unserved', label: 'Unserved', status: '100' },
  { id: 'mine', label: 'Mine', status: '200' },
  { id: 'open', label: 'All open', status: undefined },
  { id: 'closed', label: 'Closed', status: '1000' },
] as const;
type View = (typeof views)[number]['id'];

const statusName = (status: number) => (status === 100 ? 'unserved' : status === 1000 ? 'closed' : status === 200 ? 'served' : `status ${status}`);

/**
 * The conversations of a view. Any request event of the project refreshes the list: the event
 * says something changed, the query says what the view holds now (the server's filters decide).
 */
export function Inbox({ projectId, selected, onSelect }: { projectId: string; selected: string | null; onSelect: (requestId: string) => void }) {
  const { token, live, userId } = useSession();
  const [view, setView] = useState<View>('unserved');
  const [requests, setRequests] = useState<InboxRequest[]>([]);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    const status = views.find((v) => v.id === view)!.status;
    request(InboxQuery, { project: projectId, status }, token).then(
      (r) => {
        setError(null);
        const list = r.requests.requests;
        setRequests(view === 'mine' ? list.filter((q) => q.participatingAgents.includes(userId)) : list);
      },
      (e: Error) => setError(e.message),
    );
  }, [projectId, view, token, userId]);

  useEffect(load, [load]);
  useEffect(() => subscribe(live, RequestEvents, { project: projectId }, (d) => d.projectRequests.seq, load, load), [live, projectId, load]);

  return (
    <nav className="inbox" aria-label="Conversations">
      <div role="tablist" aria-label="Inbox views" className="tabs">
        {views.map((v) => (
          <button key={v.id} role="tab" aria-selected={view === v.id} onClick={() => setView(v.id)} type="button">
            {v.label}
          </button>
        ))}
      </div>
      {error && <p role="alert" className="error">{error}</p>}
      <ul className="requests" data-testid="inbox">
        {requests.length === 0 && <li className="empty">No conversations here.</li>}
        {requests.map((r) => (
          <li key={r.request_id}>
            <button type="button" className="request" aria-current={selected === r.request_id} onClick={() => onSelect(r.request_id)} data-request-id={r.request_id}>
              <span className="who">{r.lead?.fullname || r.lead?.email || 'Visitor'} · #{r.ticket_id}</span>
              <span className="first">{r.first_text || '(no message yet)'}</span>
              <span className="meta">
                {statusName(r.status)}
                {r.hasBot ? ' · bot' : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
