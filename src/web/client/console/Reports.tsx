import { useEffect, useMemo, useRef, useState } from 'react';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { ApiError, request } from '../api.js';
import type { ConsoleReportsQuery } from '../gql/graphql.js';
import { Reports as ReportsQuery } from './operations.js';
import { navigate, paths, type ConversationFilter } from './router.js';
import { useSession } from './session.js';
import { SlaReportSection } from './sla.js';

// The project's reports, drawn by Chart.js from the analytics queries: conversations and messages
// per day, an hour-of-week heat map, waiting time, duration, satisfaction (CSAT), the share bots
// handled, first response time per agent, and SLA breaches by department, agent and week (sla.tsx).
// A date range narrows the per-day charts and the SLA breaches; every chart exports its numbers as
// CSV. A bar with conversations behind it is a link (over the bar, reachable with Tab) to the list
// of those conversations (ReportConversations.tsx); the conversations of the range download as one
// CSV row each from the streamed /analytics/conversations.csv.

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);

type Data = ConsoleReportsQuery;
const accent = '#2450d3';
const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const minutes = (ms: number | null | undefined) => (ms == null ? '—' : ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 60_000).toFixed(1)} min`);

/** Downloads rows as a CSV file (the first row names the columns). */
function exportCsv(name: string, rows: Array<Array<string | number | null>>) {
  const cell = (v: string | number | null) => (v == null ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const blob = new Blob([rows.map((r) => r.map(cell).join(',')).join('\n') + '\n'], { type: 'text/csv' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${name}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function ChartCard({ title, csv, children }: { title: string; csv: () => Array<Array<string | number | null>>; children: React.ReactNode }) {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <section className="card report" aria-label={title}>
      <header>
        <h3>{title}</h3>
        <button type="button" className="link" onClick={() => exportCsv(slug, csv())}>
          Export CSV
        </button>
      </header>
      {children}
    </section>
  );
}

/** Where a bar leads: the conversations behind it. */
export interface BarLink {
  filter: ConversationFilter;
  /** What the bar is, read out and shown on hover: "2026-11-28: 3 conversations". */
  label: string;
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}
const sameBoxes = (a: Box[], b: Box[]) => a.length === b.length && a.every((x, k) => x.left === b[k].left && x.top === b[k].top && x.width === b[k].width && x.height === b[k].height);

/**
 * A Chart.js chart on a canvas, rebuilt when its data change. With `links`, each bar that has one
 * is covered by a real link (its column of the chart area), so a click on the bar, Tab and Enter,
 * or a screen reader's list of links all open the conversations behind it.
 */
function ChartCanvas({
  projectId,
  type,
  labels,
  series,
  label,
  links,
}: {
  projectId?: string;
  type: 'bar' | 'line';
  labels: string[];
  series: Array<{ label: string; data: number[]; color?: string }>;
  label: string;
  links?: Array<BarLink | null>;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [boxes, setBoxes] = useState<Box[]>([]);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type,
      data: { labels, datasets: series.map((s) => ({ label: s.label, data: s.data, backgroundColor: s.color ?? accent, borderColor: s.color ?? accent })) },
      options: { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { display: series.length > 1 } }, scales: { y: { beginAtZero: true } } },
      plugins: [
        {
          id: 'bar-links',
          // After every drawing (a resize too): where each bar's column is, in CSS pixels.
          afterRender: (drawn) => {
            if (!links) return;
            const area = drawn.chartArea;
            const slot = area.width / Math.max(1, labels.length);
            const next = drawn.getDatasetMeta(0).data.map((bar) => {
              const { x, width } = bar.getProps(['x', 'width'], true) as { x: number; width?: number };
              const w = Math.max(width ?? 0, Math.min(slot, 24));
              return { left: Math.round(x - w / 2), top: Math.round(area.top), width: Math.round(w), height: Math.round(area.bottom - area.top) };
            });
            setBoxes((prev) => (sameBoxes(prev, next) ? prev : next));
          },
        },
      ],
    });
    return () => chart.destroy();
  }, [type, labels, series, links]);
  return (
    <>
      <div className="chart">
        <canvas ref={canvas} role="img" aria-label={label} data-testid="chart" />
        {projectId &&
          links?.map((link, k) => {
            const box = boxes[k];
            if (!link || !box) return null;
            const href = paths.reportConversations(projectId, link.filter);
            return (
              <a
                key={k}
                className="bar-link"
                href={href}
                aria-label={link.label}
                title={link.label}
                style={{ left: box.left, top: box.top, width: box.width, height: box.height }}
                onClick={(e) => (e.preventDefault(), navigate(href))}
              />
            );
          })}
      </div>
      {links?.some(Boolean) && <p className="hint">Click a bar, or Tab to it and press Enter, to list the conversations behind it.</p>}
    </>
  );
}

function HeatMap({ cells }: { cells: Data['analyticsRequestsByHourOfWeek'] }) {
  const max = Math.max(1, ...(cells ?? []).map((c) => c.count));
  const at = (weekday: number, hour: number) => cells?.find((c) => c.weekday === weekday && c.hour === hour)?.count ?? 0;
  return (
    <table className="heatmap" aria-label="Conversations by hour of the week (UTC)">
      <thead>
        <tr>
          <th />
          {Array.from({ length: 24 }, (_, h) => (
            <th key={h} scope="col">
              {h % 3 === 0 ? h : ''}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {days.map((day, d) => (
          <tr key={day}>
            <th scope="row">{day}</th>
            {Array.from({ length: 24 }, (_, h) => {
              const n = at(d, h);
              return <td key={h} title={`${day} ${h}:00 UTC: ${n}`} style={{ background: n ? `rgba(36, 80, 211, ${0.15 + 0.85 * (n / max)})` : undefined }} />;
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const inRange = (date: string, from: string, to: string) => (!from || date >= from) && (!to || date <= to);

/** YYYY-MM-DD (a chart's day) as the requests list's DD/MM/YYYY. */
export const listDate = (isoDay: string) => isoDay.split('-').reverse().join('/');
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The conversations of the range, one CSV row each, from the streamed export (the REST route: the
 * GraphQL API has no file downloads). The days are UTC, as the charts'.
 */
async function downloadConversations(projectId: string, token: string, from: string, to: string) {
  const query = new URLSearchParams();
  if (from) query.set('from', `${from}T00:00:00.000Z`);
  if (to) query.set('to', `${to}T23:59:59.999Z`);
  const res = await fetch(`/v3/${encodeURIComponent(projectId)}/analytics/conversations.csv?${query}`, { headers: { authorization: token } });
  if (res.status !== 200) {
    const body = (await res.json().catch(() => ({}))) as { message?: string; error?: string };
    throw new Error(body.message ?? body.error ?? `the export failed (${res.status})`);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `conversations-${from || 'start'}-to-${to || 'now'}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function Reports({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [from, setFrom] = useState(() => new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10));
  const [to, setTo] = useState(() => new Date().toISOString().slice(0, 10));
  useEffect(() => {
    request(ReportsQuery, { project: projectId }, token).then(setData, (e: Error) =>
      // The analytics are the admins': an agent is told so, not shown the API's refusal.
      setError(e instanceof ApiError && e.code === 'FORBIDDEN' ? "Reports are for the project's admins and owner." : e.message),
    );
  }, [projectId, token]);

  const perDay = useMemo(() => {
    const requests = (data?.analyticsRequestsByDay ?? []).filter((d) => inRange(d.date, from, to));
    const messages = (data?.analyticsMessagesByDay ?? []).filter((d) => inRange(d.date, from, to));
    const dates = [...new Set([...requests, ...messages].map((d) => d.date))].sort();
    return {
      dates,
      requests: dates.map((date) => requests.find((d) => d.date === date)?.count ?? 0),
      messages: dates.map((date) => messages.find((d) => d.date === date)?.count ?? 0),
    };
  }, [data, from, to]);

  const ratings = useMemo(() => [0, 1, 2, 3, 4, 5].map((r) => data?.analyticsSatisfactionDistribution?.find((x) => x.rating === r)?.count ?? 0), [data]);
  const agents = data?.analyticsFirstResponseByAgent ?? [];
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const exportConversations = async () => {
    setExporting(true);
    setExportError(null);
    try {
      await downloadConversations(projectId, token, from, to);
    } catch (e) {
      setExportError((e as Error).message);
    } finally {
      setExporting(false);
    }
  };

  // A bar per day: the conversations created that day (UTC). Days without any have nothing to list.
  const dayLinks = useMemo(
    () =>
      perDay.dates.map((date, k): BarLink | null =>
        perDay.requests[k] ? { filter: { start_date: listDate(date), end_date: listDate(date), label: `Conversations created on ${date}` }, label: `${date}: ${plural(perDay.requests[k], 'conversation')}` } : null,
      ),
    [perDay],
  );
  // A point per day: the conversations with at least one message that day.
  const messageLinks = useMemo(
    () =>
      perDay.dates.map((date, k): BarLink | null =>
        perDay.messages[k] ? { filter: { active_date: listDate(date), label: `Conversations with messages on ${date}` }, label: `${date}: ${plural(perDay.messages[k], 'message')}` } : null,
      ),
    [perDay],
  );
  // The analytics' 30 days, as the requests list's dates.
  const window30 = useMemo(() => {
    const today = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    return { start_date: listDate(start), end_date: listDate(today) };
  }, []);
  // A bar per rating: the conversations given it, created in the analytics' 30 days.
  const ratingLinks = useMemo(
    () =>
      ratings.map((n, r): BarLink | null =>
        n ? { filter: { ...window30, rating: String(r), label: `Conversations rated ${r}, created in the last 30 days` }, label: `Rated ${r}: ${plural(n, 'conversation')}` } : null,
      ),
    [ratings, window30],
  );
  // Waiting time: the conversations of the 30 days; duration: the closed ones among them.
  const timeLinks = useMemo(
    (): Array<BarLink | null> => [
      data?.analyticsWaitingTime?.count ? { filter: { ...window30, label: 'Conversations created in the last 30 days (their waiting times)' }, label: `Waiting time: ${plural(data.analyticsWaitingTime.count, 'conversation')}` } : null,
      data?.analyticsRequestDuration?.count
        ? { filter: { ...window30, status: '1000', label: 'Closed conversations created in the last 30 days (their durations)' }, label: `Duration: ${plural(data.analyticsRequestDuration.count, 'closed conversation')}` }
        : null,
    ],
    [data, window30],
  );
  // A bar per agent: the conversations they take part in, created in the analytics' 30 days.
  const agentLinks = useMemo(() => {
    const today = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    return agents.map((a): BarLink => {
      const name = a.fullname ?? a.id_user;
      return {
        filter: { assignee: a.id_user, start_date: listDate(start), end_date: listDate(today), label: `Conversations of ${name}, created in the last 30 days` },
        label: `${name}: ${plural(a.count, 'answered conversation')}, first response ${minutes(a.average)} on average`,
      };
    });
  }, [agents]);
  const total = data?.analyticsRequestCount?.count ?? 0;
  const byBot = data?.analyticsBotRequestCount?.count ?? 0;

  return (
    <main className="manage reports">
      <h2>Reports</h2>
      {error && <p role="alert" className="error">{error}</p>}
      <form className="inline-form" aria-label="Date range" onSubmit={(e) => e.preventDefault()}>
        <label>
          From <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="button" className="secondary" disabled={exporting} onClick={() => void exportConversations()}>
          {exporting ? 'Preparing the CSV…' : 'Download CSV (one row per conversation)'}
        </button>
      </form>
      {exportError && <p role="alert" className="error">Export failed: {exportError}</p>}
      {data && (
        <>
          <dl className="kpis">
            <div>
              <dt>Conversations</dt>
              <dd>{total}</dd>
            </div>
            <div>
              <dt>Average waiting time</dt>
              <dd>{minutes(data.analyticsWaitingTime?.average)}</dd>
            </div>
            <div>
              <dt>Average duration</dt>
              <dd>{minutes(data.analyticsRequestDuration?.average)}</dd>
            </div>
            <div>
              <dt>Satisfaction</dt>
              <dd>{data.analyticsSatisfaction?.average == null ? '—' : `${data.analyticsSatisfaction.average.toFixed(1)} / 5`}</dd>
            </div>
            <div>
              <dt>Handled by bots</dt>
              <dd>{total ? `${Math.round((byBot / total) * 100)}%` : '—'}</dd>
            </div>
          </dl>
          <ChartCard title="Conversations per day" csv={() => [['date', 'conversations'], ...perDay.dates.map((d, k) => [d, perDay.requests[k]])]}>
            <ChartCanvas projectId={projectId} type="bar" labels={perDay.dates} series={[{ label: 'Conversations', data: perDay.requests }]} label="Conversations per day" links={dayLinks} />
          </ChartCard>
          <ChartCard title="Messages per day" csv={() => [['date', 'messages'], ...perDay.dates.map((d, k) => [d, perDay.messages[k]])]}>
            <ChartCanvas projectId={projectId} type="line" labels={perDay.dates} series={[{ label: 'Messages', data: perDay.messages }]} label="Messages per day" links={messageLinks} />
          </ChartCard>
          <ChartCard
            title="Conversations by hour of the week"
            csv={() => [['weekday', 'hour', 'conversations'], ...(data.analyticsRequestsByHourOfWeek ?? []).map((c) => [days[c.weekday], c.hour, c.count])]}
          >
            <HeatMap cells={data.analyticsRequestsByHourOfWeek} />
          </ChartCard>
          <ChartCard title="Satisfaction (CSAT)" csv={() => [['rating', 'conversations'], ...ratings.map((n, r) => [r, n])]}>
            <ChartCanvas projectId={projectId} type="bar" labels={['0', '1', '2', '3', '4', '5']} series={[{ label: 'Ratings', data: ratings, color: '#d49b00' }]} label="Ratings given" links={ratingLinks} />
          </ChartCard>
          <ChartCard
            title="First response time per agent"
            csv={() => [['agent', 'conversations', 'average ms', 'median ms'], ...agents.map((a) => [a.fullname ?? a.id_user, a.count, a.average ?? null, a.median ?? null])]}
          >
            <ChartCanvas
              projectId={projectId}
              links={agentLinks}
              type="bar"
              labels={agents.map((a) => a.fullname ?? a.id_user)}
              series={[{ label: 'Average (s)', data: agents.map((a) => Math.round((a.average ?? 0) / 1000)) }]}
              label="First response time per agent, in seconds"
            />
          </ChartCard>
          <ChartCard
            title="Waiting time and duration"
            csv={() => [
              ['measure', 'average ms', 'count'],
              ['waiting time', data.analyticsWaitingTime?.average ?? null, data.analyticsWaitingTime?.count ?? 0],
              ['duration', data.analyticsRequestDuration?.average ?? null, data.analyticsRequestDuration?.count ?? 0],
            ]}
          >
            <ChartCanvas
              projectId={projectId}
              links={timeLinks}
              type="bar"
              labels={['Waiting time', 'Duration']}
              series={[{ label: 'Average (min)', data: [(data.analyticsWaitingTime?.average ?? 0) / 60_000, (data.analyticsRequestDuration?.average ?? 0) / 60_000] }]}
              label="Average waiting time and duration, in minutes"
            />
          </ChartCard>
          <SlaReportSection projectId={projectId} from={from} to={to} />
        </>
      )}
    </main>
  );
}
