import { useCallback, useEffect, useState } from 'react';
import { request } from '../api.js';
import { graphql } from '../gql/index.js';
import type { ConsoleScheduledMessagesQuery } from '../gql/graphql.js';

// The conversation's scheduled messages: the ones still to go (editable, cancellable until the
// server sends them) and the ones not sent because the conversation closed; plus a form to
// schedule one. Read again whenever the conversation is (`version` changes).

const ScheduledList = graphql(`
  query ConsoleScheduledMessages($project: String!, $request: String!) {
    scheduledMessages(project_id: $project, request_id: $request) { _id text scheduled_at status reason }
  }
`);
const Schedule = graphql(`
  mutation ConsoleScheduleMessage($project: String!, $request: String!, $text: String!, $at: String!) {
    scheduleMessage(project_id: $project, request_id: $request, text: $text, scheduled_at: $at) { _id }
  }
`);
const EditScheduled = graphql(`
  mutation ConsoleEditScheduled($project: String!, $request: String!, $id: String!, $text: String, $at: String) {
    updateScheduledMessage(project_id: $project, request_id: $request, id: $id, text: $text, scheduled_at: $at) { _id }
  }
`);
const CancelScheduled = graphql(`
  mutation ConsoleCancelScheduled($project: String!, $request: String!, $id: String!) {
    cancelScheduledMessage(project_id: $project, request_id: $request, id: $id) { _id }
  }
`);

type Row = NonNullable<ConsoleScheduledMessagesQuery['scheduledMessages']>[number];

/** `datetime-local` wants local time without a zone; to the second, as the server sends to the second. */
function localInput(date: Date) {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function ScheduledMessages(props: { projectId: string; requestId: string; token: string; closed: boolean; version: unknown }) {
  const { projectId, requestId, token, closed, version } = props;
  const [rows, setRows] = useState<Row[]>([]);
  const [text, setText] = useState('');
  const [at, setAt] = useState(() => localInput(new Date(Date.now() + 3_600_000)));
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const target = { project: projectId, request: requestId };

  const load = useCallback(() => {
    request(ScheduledList, { project: projectId, request: requestId }, token).then((r) => setRows(r.scheduledMessages ?? []), () => {});
  }, [projectId, requestId, token]);
  useEffect(load, [load, version]);
  // A due message leaves the list when the server sends it: look again while one is pending.
  useEffect(() => {
    if (!rows.some((r) => r.status === 'scheduled')) return;
    const timer = setInterval(load, 5000);
    return () => clearInterval(timer);
  }, [rows, load]);

  async function run(work: () => Promise<unknown>) {
    setError(null);
    try {
      await work();
      load();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  const shown = rows.filter((r) => r.status === 'scheduled' || r.status === 'skipped');
  return (
    <div className="scheduled" aria-label="Scheduled messages" role="region">
      <h3>Scheduled messages</h3>
      {error && <p role="alert" className="error">{error}</p>}
      <ul data-testid="scheduled-messages">
        {shown.map((r) => (
          <li key={r._id} className={`scheduled-${r.status}`}>
            {editing && editing.id === r._id ? (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  const next = editing.text.trim();
                  setEditing(null);
                  if (next) void run(() => request(EditScheduled, { ...target, id: r._id, text: next }, token));
                }}
              >
                <input aria-label="Scheduled text" value={editing.text} onChange={(e) => setEditing({ id: r._id, text: e.target.value })} />
                <button type="submit">Save</button>
              </form>
            ) : (
              <span className="text">{r.text}</span>
            )}
            <time dateTime={r.scheduled_at}>
              {r.status === 'scheduled' ? 'Scheduled for ' : 'Not sent: the conversation was closed before '}
              {new Date(r.scheduled_at).toLocaleString()}
            </time>
            {r.status === 'scheduled' && editing?.id !== r._id && (
              <>
                <button type="button" className="link" onClick={() => setEditing({ id: r._id, text: r.text })}>
                  Edit
                </button>
                <button type="button" className="link" onClick={() => void run(() => request(CancelScheduled, { ...target, id: r._id }, token))}>
                  Cancel
                </button>
              </>
            )}
          </li>
        ))}
        {shown.length === 0 && <li className="none">None</li>}
      </ul>
      {!closed && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const value = text.trim();
            if (!value) return;
            void run(async () => {
              await request(Schedule, { ...target, text: value, at: new Date(at).toISOString() }, token);
              setText('');
            });
          }}
        >
          <label>
            Message <input value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <label>
            Send at <input type="datetime-local" step={1} value={at} onChange={(e) => setAt(e.target.value)} />
          </label>
          <button type="submit">Schedule</button>
        </form>
      )}
    </div>
  );
}
