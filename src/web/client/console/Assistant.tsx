import { useCallback, useEffect, useState } from 'react';
import { request } from '../api.js';
import type { ConsoleSuggestionsQuery, ConsoleSummaryQuery } from '../gql/graphql.js';
import { Suggestions, Summarize, Summary } from './assistant-operations.js';
import { useProjectEvents } from './live.js';
import { useLatestRead } from '../shared/latest-read.js';

// The agent's assistant in a conversation: the summary at the top, the suggested replies above the
// composer (a click, or Alt+1..3, puts one in the reply box to edit), read again when the visitor writes.

type Found = NonNullable<ConsoleSuggestionsQuery['requestSuggestions']>;
type Stored = NonNullable<ConsoleSummaryQuery['requestSummary']>;

const sourceLabel: Record<string, string> = { kb: 'Knowledge base', history: 'Past answer', canned: 'Canned', model: 'Drafted' };

/** Suggested replies, tags and triage; `refresh` changes when the visitor writes. */
export function SuggestionBar({ projectId, requestId, token, refresh, onInsert }: { projectId: string; requestId: string; token: string | null; refresh: string | undefined; onInsert: (text: string) => void }) {
  const [found, setFound] = useState<Found | null>(null);
  const begin = useLatestRead(`suggestions ${projectId} ${requestId}`);
  useEffect(() => {
    const mayShow = begin();
    request(Suggestions, { project: projectId, request: requestId }, token).then(
      (r) => mayShow() && setFound(r.requestSuggestions),
      () => mayShow() && setFound(null),
    );
  }, [projectId, requestId, token, refresh, begin]);

  useEffect(() => {
    const replies = found?.replies ?? [];
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const n = Number(e.code.replace('Digit', ''));
      if (n >= 1 && n <= replies.length) {
        e.preventDefault();
        onInsert(replies[n - 1].text);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [found, onInsert]);

  if (!found || (!found.replies.length && !found.tags.length && found.sentiment !== 'angry')) return null;
  return (
    <section className="assistant-suggestions" aria-label="Suggested replies" data-testid="suggestions">
      {found.sentiment === 'angry' && (
        <p className="assistant-flag" role="note">
          The visitor sounds upset.
        </p>
      )}
      {found.replies.length > 0 && (
        <ol className="assistant-replies">
          {found.replies.map((reply, i) => (
            <li key={`${reply.source}-${reply.ref ?? i}`}>
              <button type="button" className="assistant-reply" title={`Alt+${i + 1}: insert for editing`} onClick={() => onInsert(reply.text)}>
                <span className="assistant-source">
                  {sourceLabel[reply.source] ?? reply.source} · Alt+{i + 1}
                </span>
                <span className="assistant-text">{reply.text}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {(found.tags.length > 0 || found.language) && (
        <p className="assistant-triage">
          {found.tags.length > 0 && <>Suggested tags: {found.tags.map((t) => t.tag).join(', ')}</>}
          {found.tags.length > 0 && found.language && ' · '}
          {found.language && <>Language: {found.language}</>}
        </p>
      )}
    </section>
  );
}

/** The conversation's summary (made on a bot's hand-over, or now on request), at the top of the conversation. */
export function SummaryPanel({ projectId, requestId, recordId, token }: { projectId: string; requestId: string; recordId: string | undefined; token: string | null }) {
  const [summary, setSummary] = useState<Stored | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const begin = useLatestRead(`summary ${projectId} ${requestId}`);
  const load = useCallback(() => {
    const mayShow = begin();
    request(Summary, { project: projectId, request: requestId }, token).then(
      (r) => mayShow() && setSummary(r.requestSummary ?? null),
      () => {},
    );
  }, [projectId, requestId, token, begin]);
  useEffect(load, [load]);
  // A summary made on a hand-over arrives as a request.update of this request (its record id).
  useProjectEvents(projectId, (name, subject) => name === 'request.update' && subject === recordId, load);

  async function summarise() {
    setBusy(true);
    setError(null);
    try {
      setSummary((await request(Summarize, { project: projectId, request: requestId }, token)).summarizeRequest);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="assistant-summary" aria-label="Summary" data-testid="summary">
      {summary ? (
        <>
          <p className="assistant-summary-text">{summary.summary}</p>
          <p className="assistant-summary-meta">
            {summary.method === 'model' ? 'Written by the model' : 'Extractive'} · <time dateTime={String(summary.createdAt)}>{new Date(String(summary.createdAt)).toLocaleTimeString()}</time>
          </p>
        </>
      ) : null}
      <button type="button" className="link" disabled={busy} onClick={() => void summarise()}>
        {summary ? 'Summarise again' : 'Summarise'}
      </button>
      {error && <p role="alert" className="error">{error}</p>}
    </section>
  );
}
