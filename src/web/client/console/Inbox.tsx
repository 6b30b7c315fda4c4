import { PriorityBadge, priorities, priorityLabel } from './priority.js';
import { SlaCountdown } from './sla.js';
import { useCallback, useEffect, useState } from 'react';
import { request } from '../api.js';
import type { ConsoleInboxCountsQuery, ConsoleInboxQuery } from '../gql/graphql.js';
import { useProjectEvents } from './live.js';
import { FilterTargets, Inbox as InboxQuery, InboxCounts, RequestEvents } from './operations.js';
import { subscribe } from '../api.js';
import { useLatestRead } from '../shared/latest-read.js';
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

/** Unread messages of a view's conversations (closed ones are not counted). */
const unreadOf = (counts: ConsoleInboxCountsQuery | null, view: View) =>
  view === 'closed' ? 0 : (counts?.[view]?.requests ?? []).reduce((sum, r) => sum + (r.unread ?? 0), 0);

/** A request event or a message changes what the views hold, their counts and their order. */
// A contact's erasure deletes their conversations without a request event of each.
const changesInbox = (name: string) => name.startsWith('request.') || name.startsWith('sla.') || name === 'message.create' || name === 'lead.erase';

/** What narrows a view, remembered per agent and project in this browser. */
interface Filters {
  assignee: string;
  dept: string;
  tags: string;
  channel: string;
  priority: string;
  order: 'last_activity' | 'waiting_since' | 'priority';
}
const noFilters: Filters = { assignee: '', dept: '', tags: '', channel: '', priority: '', order: 'last_activity' };
const filtersKey = (userId: string, projectId: string) => `support-console:filters:${userId}:${projectId}`;

function useFilters(userId: string, projectId: string) {
  const [filters, setFilters] = useState<Filters>(() => {
    try {
      return { ...noFilters, ...JSON.parse(localStorage.getItem(filtersKey(userId, projectId)) ?? '{}') };
    } catch {
      return noFilters;
    }
  });
  const change = (next: Partial<Filters>) =>
    setFilters((current) => {
      const merged = { ...current, ...next };
      localStorage.setItem(filtersKey(userId, projectId), JSON.stringify(merged));
      return merged;
    });
  return [filters, change] as const;
}

/**
 * The conversations of a view, newest activity first, and every view's count, live: any request
 * or message event of the project reads them again (the server's filters decide what each holds).
 */
export function Inbox({ projectId, view, selected }: { projectId: string; view: View; selected: string | null }) {
  const { token, userId, live } = useSession();
  const [requests, setRequests] = useState<InboxRequest[] | null>(null);
  const [counts, setCounts] = useState<ConsoleInboxCountsQuery | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filters, setFilter] = useFilters(userId, projectId);
  const [showFilters, setShowFilters] = useState(false);
  const [targets, setTargets] = useState<{ departments: Array<{ _id: string; name: string }>; agents: Array<{ id: string; name: string }> }>({ departments: [], agents: [] });
  useEffect(() => {
    request(FilterTargets, { project: projectId }, token).then(
      (r) =>
        setTargets({
          departments: r.departments,
          agents: r.teammates.filter((t) => t.role !== 'guest' && t.role !== 'user' && t.id_user).map((t) => ({ id: t.id_user!._id, name: t.id_user!.fullName || t.id_user!.email || t._id })),
        }),
      () => {},
    );
  }, [projectId, token]);
  const active = Object.entries(filters).filter(([k, v]) => k !== 'order' && v).length;

  const beginRead = useLatestRead(`${projectId} ${view} ${JSON.stringify(filters)}`);
  const load = useCallback(() => {
    const mayShow = beginRead();
    const filter = {
      mine: { assignee: 'me' },
      unassigned: { status: '100' },
      open: {},
      closed: { status: '1000' },
    }[view];
    const narrowed = {
      ...(filters.assignee && view !== 'mine' ? { assignee: filters.assignee } : {}),
      ...(filters.dept ? { dept: filters.dept } : {}),
      ...(filters.tags ? { tags: filters.tags } : {}),
      ...(filters.channel ? { channel: filters.channel } : {}),
      ...(filters.priority ? { priority: [filters.priority] } : {}),
    };
    // Longest waiting first: the oldest unanswered message at the top.
    const order =
      filters.order === 'waiting_since'
        ? { sortField: 'waiting_since', direction: 1 }
        : filters.order === 'priority'
          ? { sortField: 'priority', direction: -1 }
          : { sortField: 'last_activity', direction: -1 };
    request(InboxQuery, { project: projectId, ...order, ...filter, ...narrowed }, token).then(
      (r) => {
        if (!mayShow()) return;
        setError(null);
        setRequests(r.requests.requests);
      },
      (e: Error) => mayShow() && setError(e.message),
    );
    request(InboxCounts, { project: projectId }, token).then((c) => mayShow() && setCounts(c), () => {});
  }, [projectId, view, token, userId, filters, beginRead]);

  useEffect(() => {
    setRequests(null);
    load();
  }, [load]);
  useProjectEvents(projectId, changesInbox, load);
  // Read elsewhere (this tab's conversation, or another console of the same agent): unread counts change.
  useEffect(() => subscribe(live, RequestEvents, { project: projectId }, (d) => d.projectRequests.seq, (d) => d.projectRequests.name === 'request.seen' && load()), [live, projectId, load]);
  useEffect(() => {
    window.addEventListener('console:seen', load);
    return () => window.removeEventListener('console:seen', load);
  }, [load]);

  return (
    <nav className="inbox" aria-label="Conversations">
      <div role="tablist" aria-label="Inbox views" className="tabs">
        {views.map((v) => (
          <button key={v} role="tab" aria-selected={view === v} onClick={() => navigate(paths.view(projectId, v))} type="button">
            {viewLabels[v]}
            {unreadOf(counts, v) > 0 && (
              <span className="unread" aria-label={`${unreadOf(counts, v)} unread`}>
                {unreadOf(counts, v)}
              </span>
            )}
            <span className="count" aria-label={`${counts?.[v]?.count ?? 0} conversations`}>
              {counts?.[v]?.count ?? '…'}
            </span>
          </button>
        ))}
      </div>
      <div className="filters">
        <button type="button" className="link" aria-expanded={showFilters} onClick={() => setShowFilters(!showFilters)}>
          Filters{active ? ` (${active})` : ''}
        </button>
        <label className="inline">
          Order
          <select value={filters.order} onChange={(e) => setFilter({ order: e.target.value as Filters['order'] })}>
            <option value="last_activity">Latest activity</option>
            <option value="waiting_since">Longest waiting</option>
            <option value="priority">Most urgent</option>
          </select>
        </label>
      </div>
      {showFilters && (
        <form className="filter-form" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
          {view !== 'mine' && (
            <label>
              Assignee
              <select value={filters.assignee} onChange={(e) => setFilter({ assignee: e.target.value })}>
                <option value="">anyone</option>
                <option value="me">me</option>
                <option value="none">nobody</option>
                {targets.agents.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label>
            Department
            <select value={filters.dept} onChange={(e) => setFilter({ dept: e.target.value })}>
              <option value="">any</option>
              {targets.departments.map((d) => (
                <option key={d._id} value={d._id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Tag <input value={filters.tags} onChange={(e) => setFilter({ tags: e.target.value.trim() })} placeholder="any" />
          </label>
          <label>
            Channel
            <select value={filters.channel} onChange={(e) => setFilter({ channel: e.target.value })}>
              <option value="">any</option>
              {['chat21', 'email', 'form', 'whatsapp', 'telegram', 'messenger'].map((c) => (
                <option key={c} value={c}>
                  {c === 'chat21' ? 'chat' : c}
                </option>
              ))}
            </select>
          </label>
          <label>
            Priority
            <select value={filters.priority} onChange={(e) => setFilter({ priority: e.target.value })}>
              <option value="">any</option>
              {priorities.map((p) => (
                <option key={p} value={p}>
                  {priorityLabel[p]}
                </option>
              ))}
            </select>
          </label>
          {active > 0 && (
            <button type="button" className="link" onClick={() => setFilter({ assignee: '', dept: '', tags: '', channel: '', priority: '' })}>
              Clear filters
            </button>
          )}
        </form>
      )}
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
              <span className="first">
                {r.first_text || '(no message yet)'}
                {r.unread ? (
                  <span className="unread" aria-label={`${r.unread} unread`} data-testid="unread">
                    {r.unread}
                  </span>
                ) : null}
              </span>
              <span className="meta">
                <PriorityBadge priority={r.priority} />
                <SlaCountdown sla={r.sla} />
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
