import { Fragment, useCallback, useEffect, useState } from 'react';
import { ApiError, request } from '../api.js';
import { graphql } from '../gql/index.js';
import type { ConsoleAuditQuery } from '../gql/graphql.js';
import { useProjectEvents } from './live.js';
import { FilterTargets } from './operations.js';
import { navigate, paths } from './router.js';
import { useSession } from './session.js';

// Settings → Audit log (admins and owner, as the `audit` query is): who changed what in the
// project, when and from which address, newest first; the before and after of a change open under
// its row. Filters: action, actor, date range; 25 entries a page (`auditCount` for the pages).

const AuditPage = graphql(`
  query ConsoleAudit($project: String!, $action: [String!], $actor: String, $actorKind: String, $from: String, $to: String, $page: Int, $limit: Int) {
    audit(project_id: $project, action: $action, actor: $actor, actorKind: $actorKind, from: $from, to: $to, page: $page, limit: $limit) {
      _id action target targetType address before after details createdAt
      actor { kind id name }
    }
    auditCount(project_id: $project, action: $action, actor: $actor, actorKind: $actorKind, from: $from, to: $to)
  }
`);

type Entry = NonNullable<ConsoleAuditQuery['audit']>[number];
const perPage = 25;

/** Actions a lead looks for first; the box takes any event name. */
const commonActions = [
  'project.update',
  'project_user.invite',
  'project_user.update',
  'project_user.delete',
  'api_key.create',
  'api_key.revoke',
  'subscription.create',
  'subscription.update',
  'subscription.delete',
  'department.update',
  'bot.update',
  'canned.create',
  'request.merge',
  'request.delete',
  'lead.erase',
  'lead.export',
  'report.export',
  'retention.purge',
];

const verbs: Record<string, string> = { create: 'created', update: 'changed', delete: 'deleted', invite: 'invited', revoke: 'revoked', merge: 'merged', erase: 'erased', export: 'exported', purge: 'purged', close: 'closed' };

/** "changed project_user", from `project_user.update`. */
function describe(action: string) {
  const at = action.lastIndexOf('.');
  const verb = action.slice(at + 1);
  return `${verbs[verb] ?? verb} ${action.slice(0, at).replace(/[._]/g, ' ')}`;
}

function who(actor: Entry['actor']) {
  if (actor.kind === 'account') return actor.name ?? actor.id ?? 'an account';
  if (actor.kind === 'api_key') return `API key ${actor.name ?? actor.id}`;
  if (actor.kind === 'bot') return `Bot ${actor.name ?? actor.id}`;
  return 'System (background job)';
}

const show = (value: unknown) => (value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/** The before and after of a change, field by field, and what the event said. */
function Change({ entry }: { entry: Entry }) {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return (
    <div className="audit-change">
      {fields.length > 0 ? (
        <table aria-label="Before and after">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f}>
                <th scope="row">{f}</th>
                <td>{show(before[f])}</td>
                <td>{show(after[f])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="hint">No before and after recorded for this kind of change.</p>
      )}
      <pre aria-label="Event details">{JSON.stringify(entry.details, null, 2)}</pre>
    </div>
  );
}

/** A day of a date input as the instant it starts or ends, in the browser's time zone. */
const dayBound = (day: string, end: boolean) => (day ? new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`).toISOString() : undefined);

export function AuditSection({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(0);
  const [data, setData] = useState<{ entries: Entry[]; count: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [people, setPeople] = useState<Array<{ id: string; name: string }>>([]);

  useEffect(() => {
    request(FilterTargets, { project: projectId }, token).then(
      (r) =>
        setPeople(
          r.teammates
            .filter((t) => t.role !== 'guest' && t.role !== 'user' && t.id_user)
            .map((t) => ({ id: t.id_user!._id, name: t.id_user!.fullName || t.id_user!.email || t._id })),
        ),
      () => {},
    );
  }, [projectId, token]);

  const load = useCallback(() => {
    const [kind, id] = actor ? actor.split(':') : [];
    const actions = action.split(',').map((a) => a.trim()).filter(Boolean);
    request(
      AuditPage,
      {
        project: projectId,
        action: actions.length ? actions : undefined,
        actor: kind === 'id' ? id : undefined,
        actorKind: kind === 'kind' ? id : undefined,
        from: dayBound(from, false),
        to: dayBound(to, true),
        page,
        limit: perPage,
      },
      token,
    ).then(
      (r) => (setError(null), setData({ entries: r.audit, count: r.auditCount })),
      (e: Error) => setError(e instanceof ApiError && e.code === 'FORBIDDEN' ? "The audit log is for the project's admins and owner." : e.message),
    );
  }, [projectId, token, action, actor, from, to, page]);
  useEffect(load, [load]);
  // New entries appear while the tab is open (messages and presence are never audited).
  useProjectEvents(projectId, (name) => page === 0 && !name.startsWith('message.') && !name.startsWith('project_user.presence'), load);

  const filter = (set: (v: string) => void) => (v: string) => (set(v), setPage(0));
  const first = page * perPage;
  return (
    <>
      <p className="hint">Every change to the project's settings, roles, keys and webhooks, every deletion, export and merge: who made it, when and from where. Entries cannot be changed or deleted.</p>
      <form className="inline-form audit-filters" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <label>
          Action
          <input list="audit-actions" placeholder="any, or e.g. project.update" value={action} onChange={(e) => filter(setAction)(e.target.value)} />
          <datalist id="audit-actions">
            {commonActions.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </label>
        <label>
          Who
          <select value={actor} onChange={(e) => filter(setActor)(e.target.value)}>
            <option value="">anyone</option>
            {people.map((p) => (
              <option key={p.id} value={`id:${p.id}`}>
                {p.name}
              </option>
            ))}
            <option value="kind:api_key">any API key</option>
            <option value="kind:bot">any bot</option>
            <option value="kind:system">the system (background jobs)</option>
          </select>
        </label>
        <label>
          From <input type="date" value={from} onChange={(e) => filter(setFrom)(e.target.value)} />
        </label>
        <label>
          To <input type="date" value={to} onChange={(e) => filter(setTo)(e.target.value)} />
        </label>
      </form>
      {error && <p role="alert" className="error">{error}</p>}
      <div className="table-scroll">
        <table className="audit" aria-label="Audit log" data-testid="audit">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">From address</th>
              <th scope="col">
                <span className="visually-hidden">Details</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.entries.map((entry) => {
              const conversation = typeof entry.details?.request_id === 'string' && entry.targetType === 'request' ? (entry.details.request_id as string) : null;
              return (
                <Fragment key={entry._id}>
                  <tr data-action={entry.action}>
                    <td>
                      <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString()}</time>
                    </td>
                    <td>{who(entry.actor)}</td>
                    <td>
                      {describe(entry.action)} <code className="role">{entry.action}</code>
                    </td>
                    <td>
                      {entry.targetType}{' '}
                      {conversation ? (
                        <a href={paths.conversation(projectId, conversation, 'open')} onClick={(e) => (e.preventDefault(), navigate(paths.conversation(projectId, conversation, 'open')))}>
                          {conversation}
                        </a>
                      ) : (
                        <code>{entry.target}</code>
                      )}
                    </td>
                    <td>{entry.address ?? '—'}</td>
                    <td>
                      <button type="button" className="link" aria-expanded={open === entry._id} onClick={() => setOpen(open === entry._id ? null : entry._id)}>
                        {open === entry._id ? 'Hide details' : 'Details'}
                      </button>
                    </td>
                  </tr>
                  {open === entry._id && (
                    <tr className="audit-details">
                      <td colSpan={6}>
                        <Change entry={entry} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
            {data?.entries.length === 0 && (
              <tr>
                <td colSpan={6}>No entries match.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {data && data.count > 0 && (
        <nav className="pager" aria-label="Audit log pages">
          <button type="button" className="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
            ← Newer
          </button>
          <span role="status">
            {first + 1}–{Math.min(first + perPage, data.count)} of {data.count}
          </span>
          <button type="button" className="secondary" disabled={first + perPage >= data.count} onClick={() => setPage(page + 1)}>
            Older →
          </button>
        </nav>
      )}
    </>
  );
}
