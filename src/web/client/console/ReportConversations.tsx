import { useEffect, useState } from 'react';
import { ApiError, request } from '../api.js';
import { graphql } from '../gql/index.js';
import type { ConsoleReportConversationsQuery } from '../gql/graphql.js';
import { navigate, paths, type ConversationFilter } from './router.js';
import { useSession } from './session.js';

// The conversations behind a chart's bar (Reports.tsx links here): the `requests` list with the
// bar's filters, closed ones included, oldest first, each row opening its conversation. The
// address holds the filters, so the list can be shared or reloaded.

const ReportConversationsQuery = graphql(`
  query ConsoleReportConversations($project: String!, $status: String, $start: String, $end: String, $assignee: String, $dept: String, $tags: String, $rating: Float, $active: String, $page: Int) {
    requests(project_id: $project, status: $status, start_date: $start, end_date: $end, assignee: $assignee, dept_id: $dept, tags: $tags, rating: $rating, active_date: $active, sortField: "createdAt", direction: 1, page: $page, limit: 50) {
      count
      perPage
      requests {
        request_id ticket_id status first_text createdAt merged_into
        lead { fullname email }
        department { name }
        agents { id_user { fullName email } }
      }
    }
  }
`);

type Page = NonNullable<ConsoleReportConversationsQuery['requests']>;

/** What the list holds, in words, when the link did not say it. */
function describe(filter: ConversationFilter) {
  if (filter.label) return filter.label;
  const parts = [];
  if (filter.start_date || filter.end_date) parts.push(filter.start_date === filter.end_date ? `created on ${filter.start_date}` : `created from ${filter.start_date ?? 'the start'} to ${filter.end_date ?? 'now'}`);
  if (filter.assignee) parts.push(`of teammate ${filter.assignee}`);
  if (filter.dept_id) parts.push(`of department ${filter.dept_id}`);
  if (filter.tags) parts.push(`tagged ${filter.tags}`);
  if (filter.rating !== undefined) parts.push(`rated ${filter.rating}`);
  if (filter.active_date) parts.push(`with messages on ${filter.active_date}`);
  if (filter.status === '1000') parts.push('closed');
  return `Conversations ${parts.join(', ')}`;
}

const state = (r: Page['requests'][number]) => (r.merged_into ? 'merged' : r.status === 1000 ? 'closed' : r.status === 100 ? 'unassigned' : 'open');

export function ReportConversations({ projectId, filter, page }: { projectId: string; filter: ConversationFilter; page: number }) {
  const { token } = useSession();
  const [data, setData] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = JSON.stringify(filter);
  useEffect(() => {
    setData(null);
    setError(null);
    request(
      ReportConversationsQuery,
      {
        project: projectId,
        status: filter.status ?? 'all',
        start: filter.start_date,
        end: filter.end_date,
        assignee: filter.assignee,
        dept: filter.dept_id,
        tags: filter.tags,
        rating: filter.rating === undefined ? undefined : Number(filter.rating),
        active: filter.active_date,
        page,
      },
      token,
    ).then(
      (r) => setData(r.requests),
      (e: Error) => setError(e instanceof ApiError && e.code === 'BAD_USER_INPUT' ? `This link's filters are not valid: ${e.message}` : e.message),
    );
  }, [projectId, key, page, token]);

  const go = (href: string) => (e: React.MouseEvent) => (e.preventDefault(), navigate(href));
  const first = page * (data?.perPage ?? 50);
  return (
    <main className="manage reports">
      <p>
        <a href={paths.reports(projectId)} onClick={go(paths.reports(projectId))}>
          ← Reports
        </a>
      </p>
      <h2>{describe(filter)}</h2>
      {error && <p role="alert" className="error">{error}</p>}
      {data && (
        <p role="status">
          {data.count === 0 ? 'No conversations.' : `${data.count} conversation${data.count === 1 ? '' : 's'}${data.count > data.perPage ? `, ${first + 1}–${Math.min(first + data.perPage, data.count)} shown` : ''}.`}
        </p>
      )}
      <div className="table-scroll">
        <table className="conversations-table" aria-label="Conversations" data-testid="report-conversations">
          <thead>
            <tr>
              <th scope="col">Conversation</th>
              <th scope="col">Contact</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">Agents</th>
              <th scope="col">Department</th>
            </tr>
          </thead>
          <tbody>
            {data?.requests.map((r) => {
              const href = paths.conversation(projectId, r.request_id, r.status === 1000 ? 'closed' : 'open');
              return (
                <tr key={r.request_id}>
                  <td>
                    <a href={href} onClick={go(href)}>
                      #{r.ticket_id} {r.first_text || '(no message)'}
                    </a>
                  </td>
                  <td>{r.lead?.fullname || r.lead?.email || '—'}</td>
                  <td>
                    <time dateTime={r.createdAt}>{new Date(r.createdAt).toLocaleString()}</time>
                  </td>
                  <td>{state(r)}</td>
                  <td>{r.agents.map((a) => a.id_user?.fullName || a.id_user?.email).filter(Boolean).join(', ') || '—'}</td>
                  <td>{r.department?.name ?? '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {data && data.count > data.perPage && (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="secondary" disabled={page === 0} onClick={() => navigate(paths.reportConversations(projectId, filter, page - 1))}>
            ← Previous
          </button>
          <button type="button" className="secondary" disabled={first + data.perPage >= data.count} onClick={() => navigate(paths.reportConversations(projectId, filter, page + 1))}>
            Next →
          </button>
        </nav>
      )}
    </main>
  );
}
