import { useCallback, useEffect, useState } from 'react';
import { request } from '../api.js';
import type { ConsoleInboxCountsQuery, ConsoleInboxQuery } from '../gql/graphql.js';
import { useProjectEvents } from './live.js';
import { Inbox as InboxQuery, InboxCounts } from './operations.js';
import { navigate, paths, views, type View } from './router.js';
import { useSession } from './session.js';

export type InboxRequest = NonNullable<ConsoleInboxQuery['requests']>['requests'][number];

// The views agents know from Chatwoot: their own conversations first (where routing puts a new
// chat when they are available), then the ones nobody serves yet, all open ones and closed ones.
const viewLabels: Record<View, string> = { mine: 'Mine', unassigned: 'Unassigned', open: 'All open', closed: 'Closed' };

const statusName = (status: number) => (status === 100 ? 'unassigned' : status === 1000 ? 'closed' : status === 200 ? 'served' : `status ${status}`);

const ago = (iso: string) => {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  return new Date(iso).toLocaleDateString();
};

/** A request event or a message changes what the views hold, their counts and their order. */
const changesInbox = (name: string) => name.startsWith('request.') || name === 'message.create';

/**
 * The conversations of a view, newest activity first, and every view's count, live: any request
 * or message event of the project reads them again (the server's filters decide what each holds).
 */
export function Inbox({ projectId, view, selected }: { projectId: string; view: View; selected: string | null }) {
  const { token, userId } = useSession();
  const [requests, setRequests] = useState<InboxRequest[] | null>(null);
  const [counts, setCounts] = useState<ConsoleInboxCountsQuery | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    const filter = {
      mine: { participant: userId },
      unassigned: { status: '100' },
      open: {},
      closed: { status: '1000' },
    }[view];
    request(InboxQuery, { project: projectId, sortField: 'updatedAt', ...filter }, token).then(
      (r) => {
        setError(null);
        setRequests(r.requests.requests);
      },
      (e: Error) => setError(e.message),
    );
    request(InboxCounts, { project: projectId, me: userId }, token).then(setCounts, () => {});
  }, [projectId, view, token, userId]);

  useEffect(() => {
    setRequests(null);
    load();
  }, [load]);
  useProjectEvents(projectId, changesInbox, load);

  return (
    <nav className="inbox" aria-label="Conversations">
      <div role="tablist" aria-label="Inbox views" className="tabs">
        {views.map((v) => (
          <button key={v} role="tab" aria-selected={view === v} onClick={() => navigate(paths.view(projectId, v))} type="button">
            {viewLabels[v]}
            <span className="count" aria-label={`${counts?.[v]?.count ?? 0} conversations`}>
              {counts?.[v]?.count ?? '…'}
            </span>
          </button>
        ))}
      </div>
      {error && <p role="alert" className="error">{error}</p>}
      <ul className="requests" data-testid="inbox">
        {requests?.length === 0 && <li className="empty">No conversations here.</li>}
        {requests?.map((r) => (
          <li key={r.request_id}>
            <a
              href={paths.conversation(projectId, r.request_id, view)}
              className="request"
              aria-current={selected === r.request_id ? 'page' : undefined}
              onClick={(e) => {
                if (e.metaKey || e.ctrlKey || e.shiftKey) return;
                e.preventDefault();
                navigate(paths.conversation(projectId, r.request_id, view));
              }}
              data-request-id={r.request_id}
            >
              <span className="who">
                <span>
                  {r.lead?.fullname || r.lead?.email || 'Visitor'}
                  {r.lead?.fullname && r.lead.email ? <span className="email"> · {r.lead.email}</span> : null} · #{r.ticket_id}
                </span>
                <time dateTime={r.updatedAt}>{ago(r.updatedAt)}</time>
              </span>
              <span className="first">{r.first_text || '(no message yet)'}</span>
              <span className="meta">
                {statusName(r.status)}
                {r.hasBot ? ' · bot' : ''}
                {r.participatingAgents.includes(userId) ? ' · mine' : ''}
                {Array.isArray(r.tags) && r.tags.length > 0 && (
                  <span className="tags">
                    {(r.tags as Array<{ tag?: string }>).map((t) => (
                      <span key={t.tag} className="chip">
                        {t.tag}
                      </span>
                    ))}
                  </span>
                )}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
