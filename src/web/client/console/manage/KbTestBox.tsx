import { useEffect, useRef, useState } from 'react';
import { request } from '../../api.js';
import { KbAnswerStream, KbFeedback } from '../../shared/kb.js';
import { useSession } from '../session.js';
import { Failure } from './forms.js';

/**
 * Asks the knowledge base a question with its preview settings (changeable here), as a bot would:
 * the answer streams in as it is written (kbAnswerStream). The agent can then confirm the content
 * that answered (its question becomes a learned phrasing) or reject it.
 */
export function KbTestBox({ projectId, namespace, settings }: { projectId: string; namespace: string; settings: { top_k: number; temperature: number; model: string } }) {
  const { token, live } = useSession();
  const [question, setQuestion] = useState('');
  const [asked, setAsked] = useState('');
  const [topK, setTopK] = useState(settings.top_k);
  const [temperature, setTemperature] = useState(settings.temperature);
  const [text, setText] = useState('');
  const [result, setResult] = useState<{ success: boolean; answer: string; id?: string | null; sources: string[]; error_message?: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [verdict, setVerdict] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);
  function ask() {
    stop.current?.();
    setBusy(true);
    setError(null);
    setText('');
    setResult(null);
    setVerdict(null);
    setAsked(question);
    stop.current = live.subscribe<{ kbAnswerStream: { delta?: string | null; done: boolean; result?: NonNullable<typeof result> | null } }>(
      { query: KbAnswerStream.toString(), variables: { project: projectId, namespace, question, topK, temperature } },
      {
        next: ({ data, errors }) => {
          if (errors?.length) return setError(errors[0].message);
          const piece = data?.kbAnswerStream;
          if (!piece) return;
          if (piece.delta) setText((t) => t + piece.delta);
          if (piece.done && piece.result) setResult(piece.result);
        },
        error: (e) => (setError(e instanceof Error ? e.message : 'the answer stopped'), setBusy(false)),
        complete: () => setBusy(false),
      },
    );
  }
  async function judge(helpful: boolean) {
    if (!result?.id) return;
    try {
      await request(KbFeedback, { project: projectId, namespace, question: asked, id: result.id, helpful }, token);
      setVerdict(helpful ? 'Saved: this question now finds this content.' : 'Noted: this content will not answer this question first again.');
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <form
      className="inline-form kb-test"
      aria-label="Ask a test question"
      onSubmit={(e) => {
        e.preventDefault();
        ask();
      }}
    >
      <label>
        Test question <input required value={question} onChange={(e) => setQuestion(e.target.value)} />
      </label>
      <label className="narrow">
        Chunks (top_k) <input type="number" min={1} max={50} value={topK} onChange={(e) => setTopK(Number(e.target.value))} />
      </label>
      <label className="narrow">
        Temperature <input type="number" min={0} max={2} step={0.1} value={temperature} onChange={(e) => setTemperature(Number(e.target.value))} />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Asking…' : 'Ask'}
      </button>
      <Failure error={error} />
      {(text || result) && (
        <div className="kb-answer" role="status" aria-label="Answer" aria-busy={busy}>
          {result && !result.success ? <p>No answer: {result.error_message ?? 'the knowledge base has nothing on this.'}</p> : <p>{result?.answer ?? text}</p>}
          {result && result.sources.length > 0 && <p className="sources">Sources: {result.sources.join(', ')}</p>}
          {result?.success && result.id && !verdict && (
            <p className="verdict">
              <button type="button" className="secondary" onClick={() => void judge(true)}>
                👍 Right answer
              </button>{' '}
              <button type="button" className="secondary" onClick={() => void judge(false)}>
                👎 Wrong answer
              </button>
            </p>
          )}
          {verdict && <p className="sources">{verdict}</p>}
        </div>
      )}
    </form>
  );
}
