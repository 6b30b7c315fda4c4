import { useCallback, useEffect, useState } from 'react';
import { request } from '../api.js';
import { graphql } from '../gql/index.js';
import type { ConsoleSlaPoliciesQuery, ConsoleSlaReportQuery } from '../gql/graphql.js';
import { priorities, priorityLabel } from './priority.js';
import { useSession } from './session.js';

// SLAs in the console: a live countdown to a request's next deadline (the inbox row and the
// conversation's header; red once overdue or breached), and the project's SLA policies in Settings.

export const slaTargets = ['first_response', 'next_response', 'resolution'] as const;
export const slaTargetLabel: Record<string, string> = { first_response: 'First response', next_response: 'Next response', resolution: 'Resolution' };

export interface SlaView {
  firstResponseDueAt?: string | null;
  nextResponseDueAt?: string | null;
  resolutionDueAt?: string | null;
  met: string[];
  breached: string[];
}

/** "2d 3h", "1h 05m", "4m 12s", "9s". */
export function span(ms: number) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const [d, h, m] = [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60)];
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/** The soonest deadline of a target not met yet. */
function nextDeadline(sla: SlaView | null | undefined) {
  if (!sla) return null;
  const dues: Record<string, string | null | undefined> = { first_response: sla.firstResponseDueAt, next_response: sla.nextResponseDueAt, resolution: sla.resolutionDueAt };
  return (
    slaTargets
      .filter((t) => dues[t] && !sla.met.includes(t))
      .map((t) => ({ target: t, due: new Date(dues[t]!).getTime() }))
      .sort((a, b) => a.due - b.due)[0] ?? null
  );
}

function useNow(ticking: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/** A chip counting down to the next deadline: red once it passed or a target was breached. */
export function SlaCountdown({ sla }: { sla: SlaView | null | undefined }) {
  const next = nextDeadline(sla);
  const now = useNow(!!next);
  if (!sla) return null;
  if (!next) {
    if (!sla.breached.length) return null;
    return (
      <span className="chip sla sla-breached" data-testid="sla" data-state="breached" title={`Breached: ${sla.breached.map((t) => slaTargetLabel[t] ?? t).join(', ')}`}>
        SLA breached
      </span>
    );
  }
  const left = next.due - now;
  const label = slaTargetLabel[next.target];
  // Overdue once under a second is left (it would read "in 0s") or the server recorded the breach
  // (this browser's clock may be behind): a red chip never says "in …".
  const overdue = left < 1000 || sla.breached.includes(next.target);
  const state = overdue || sla.breached.length ? 'breached' : left < 15 * 60_000 ? 'soon' : 'ok';
  return (
    <span className={`chip sla sla-${state}`} role="timer" data-testid="sla" data-state={state} title={`${label} due ${new Date(next.due).toLocaleString()}`}>
      {overdue ? `${label} overdue ${span(Math.max(0, -left))}` : `${label} in ${span(left)}`}
    </span>
  );
}

const Policies = graphql(`
  query ConsoleSlaPolicies($project: String!) {
    slaPolicies(project_id: $project) { _id name departments priorities first_response_seconds next_response_seconds resolution_seconds }
    departments(project_id: $project) { _id name }
  }
`);

const CreatePolicy = graphql(`
  mutation ConsoleCreateSlaPolicy($project: String!, $name: String, $departments: [String!], $priorities: [String!], $first: JSON, $next: JSON, $resolution: JSON) {
    createSlaPolicy(project_id: $project, name: $name, departments: $departments, priorities: $priorities, first_response: $first, next_response: $next, resolution: $resolution) { _id }
  }
`);

const UpdatePolicy = graphql(`
  mutation ConsoleUpdateSlaPolicy($project: String!, $id: String!, $name: String, $departments: [String!], $priorities: [String!], $first: JSON, $next: JSON, $resolution: JSON) {
    updateSlaPolicy(project_id: $project, id: $id, name: $name, departments: $departments, priorities: $priorities, first_response: $first, next_response: $next, resolution: $resolution) { _id }
  }
`);

const DeletePolicy = graphql(`
  mutation ConsoleDeleteSlaPolicy($project: String!, $id: String!) {
    deleteSlaPolicy(project_id: $project, id: $id) { _id }
  }
`);

const asText = (seconds: number | null | undefined) => {
  if (seconds == null) return '';
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join(' ');
};

interface Draft {
  id: string | null;
  name: string;
  departments: string[];
  priorities: string[];
  first: string;
  next: string;
  resolution: string;
}
const emptyDraft: Draft = { id: null, name: '', departments: [], priorities: [], first: '', next: '', resolution: '' };

/** Settings → SLA policies: the project's policies, and a form to add or change one. */
export function SlaPoliciesSection({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const [data, setData] = useState<ConsoleSlaPoliciesQuery | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const load = useCallback(() => request(Policies, { project: projectId }, token), [projectId, token]);
  const reload = useCallback(() => load().then(setData, (e: Error) => setError(e.message)), [load]);
  useEffect(() => void reload(), [reload]);
  const act = async (run: () => Promise<unknown>) => {
    setError(null);
    try {
      await run();
      await reload();
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    }
  };
  const departmentName = (id: string) => data?.departments?.find((d) => d._id === id)?.name ?? id;
  const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  const save = async () => {
    // An emptied target field removes that target from a policy being changed.
    const target = (text: string) => (text.trim() ? text.trim() : draft.id ? 'none' : undefined);
    const variables = { project: projectId, name: draft.name, departments: draft.departments, priorities: draft.priorities, first: target(draft.first), next: target(draft.next), resolution: target(draft.resolution) };
    const done = await act(() => (draft.id ? request(UpdatePolicy, { ...variables, id: draft.id }, token) : request(CreatePolicy, variables, token)));
    if (done) setDraft(emptyDraft);
  };

  return (
    <>
      <p className="hint">
        A policy applies to the requests of its departments and priorities (none chosen: all). When several apply, the most specific wins: department and
        priority, then department, then priority, then a policy for all; the oldest among equals. Times count in the project&apos;s operating hours when they are on.
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <ul className="rows" aria-label="SLA policies">
        {data?.slaPolicies?.length === 0 && <li className="empty">No SLA policy yet.</li>}
        {data?.slaPolicies?.map((p) => (
          <li key={p._id} data-testid="sla-policy">
            <span>
              <strong>{p.name}</strong> · {p.departments.length ? p.departments.map(departmentName).join(', ') : 'all departments'} ·{' '}
              {p.priorities.length ? p.priorities.map((x) => priorityLabel[x] ?? x).join(', ') : 'all priorities'} · first response{' '}
              {asText(p.first_response_seconds) || '—'} · next response {asText(p.next_response_seconds) || '—'} · resolution {asText(p.resolution_seconds) || '—'}
            </span>{' '}
            <button
              type="button"
              className="link"
              onClick={() =>
                setDraft({
                  id: p._id,
                  name: p.name,
                  departments: p.departments,
                  priorities: p.priorities,
                  first: asText(p.first_response_seconds),
                  next: asText(p.next_response_seconds),
                  resolution: asText(p.resolution_seconds),
                })
              }
            >
              Edit
            </button>{' '}
            <button type="button" className="link" onClick={() => void act(() => request(DeletePolicy, { project: projectId, id: p._id }, token))}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      <form
        className="inline-form sla-form"
        aria-label={draft.id ? 'Change SLA policy' : 'Add SLA policy'}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          Name <input required value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </label>
        <label>
          First response <input value={draft.first} placeholder="e.g. 30m" onChange={(e) => setDraft({ ...draft, first: e.target.value })} />
        </label>
        <label>
          Next response <input value={draft.next} placeholder="e.g. 2h" onChange={(e) => setDraft({ ...draft, next: e.target.value })} />
        </label>
        <label>
          Resolution <input value={draft.resolution} placeholder="e.g. 1d" onChange={(e) => setDraft({ ...draft, resolution: e.target.value })} />
        </label>
        <fieldset>
          <legend>Departments</legend>
          {data?.departments?.map((d) => (
            <label key={d._id} className="inline">
              <input type="checkbox" checked={draft.departments.includes(d._id)} onChange={() => setDraft({ ...draft, departments: toggle(draft.departments, d._id) })} /> {d.name}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Priorities</legend>
          {priorities.map((p) => (
            <label key={p} className="inline">
              <input type="checkbox" checked={draft.priorities.includes(p)} onChange={() => setDraft({ ...draft, priorities: toggle(draft.priorities, p) })} /> {priorityLabel[p]}
            </label>
          ))}
        </fieldset>
        <button type="submit">{draft.id ? 'Save policy' : 'Add SLA policy'}</button>
        {draft.id && (
          <button type="button" className="link" onClick={() => setDraft(emptyDraft)}>
            Cancel
          </button>
        )}
      </form>
    </>
  );
}

const Report = graphql(`
  query ConsoleSlaReport($project: String!, $from: String, $to: String) {
    analyticsSla(project_id: $project, from: $from, to: $to) {
      total
      byTarget { target breaches }
      byDepartment { department_id name breaches }
      byAgent { id_user fullname breaches }
      byWeek { week breaches }
    }
  }
`);

/** Reports → SLA breaches, by department, agent and week, for the dates chosen (days, inclusive). */
export function SlaReportSection({ projectId, from, to }: { projectId: string; from: string; to: string }) {
  const { token } = useSession();
  const [data, setData] = useState<ConsoleSlaReportQuery | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const range = { ...(from ? { from: `${from}T00:00:00Z` } : {}), ...(to ? { to: `${to}T23:59:59Z` } : {}) };
    request(Report, { project: projectId, ...range }, token).then(
      (r) => (setError(null), setData(r)),
      (e: Error) => setError(e.message),
    );
  }, [projectId, token, from, to]);
  const report = data?.analyticsSla;
  const table = (label: string, rows: Array<{ key: string; name: string; breaches: number }>) => (
    <table className="sla-table" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">{label.replace('SLA breaches by ', '').replace(/^./, (c) => c.toUpperCase())}</th>
          <th scope="col">Breaches</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={2}>None</td>
          </tr>
        )}
        {rows.map((r) => (
          <tr key={r.key}>
            <td>{r.name}</td>
            <td>{r.breaches}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <section className="card report" aria-label="SLA breaches">
      <header>
        <h3>SLA breaches{report ? `: ${report.total}` : ''}</h3>
      </header>
      {error && <p className="error">{error}</p>}
      {report && (
        <div className="sla-report">
          {table('SLA breaches by department', report.byDepartment.map((d) => ({ key: d.department_id ?? '-', name: d.name ?? 'No department', breaches: d.breaches })))}
          {table('SLA breaches by agent', report.byAgent.map((a) => ({ key: a.id_user ?? '-', name: a.fullname ?? 'Unassigned', breaches: a.breaches })))}
          {table('SLA breaches by week', report.byWeek.map((w) => ({ key: w.week, name: `Week of ${w.week}`, breaches: w.breaches })))}
          {table('SLA breaches by target', report.byTarget.map((t) => ({ key: t.target, name: slaTargetLabel[t.target] ?? t.target, breaches: t.breaches })))}
        </div>
      )}
    </section>
  );
}
