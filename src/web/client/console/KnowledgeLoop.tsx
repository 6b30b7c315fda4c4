import { useCallback, useState } from 'react';
import { request } from '../api.js';
import type { ConsoleKbProposalsQuery, ConsoleKbTestsQuery } from '../gql/graphql.js';
import { AcceptKbProposal, DismissKbProposal, KbProposals, KbTests, RunKbTests, SaveKbTests, UpdateKbProposal } from './knowledge-loop-operations.js';
import { useSession } from './session.js';
import { useLoad } from './use-load.js';

// In Settings → Knowledge bases: the gap report (the questions visitors asked most that the
// knowledge base could not answer and agents did, to accept as FAQ content, edit or dismiss) and,
// in each knowledge base, its batch tests with their last run (made after every indexing).

type Proposal = NonNullable<ConsoleKbProposalsQuery['kbProposals']>[number];
type Suite = NonNullable<ConsoleKbTestsQuery['kbTests']>;

function ProposalItem({ proposal, act, projectId }: { proposal: Proposal; projectId: string; act: (run: () => Promise<unknown>) => Promise<void> }) {
  const { token } = useSession();
  const [editing, setEditing] = useState(false);
  const [question, setQuestion] = useState(proposal.question);
  const [answer, setAnswer] = useState(proposal.answer);
  const edits = editing ? { question, answer } : {};
  return (
    <li className="gap" aria-label={proposal.question}>
      <p className="gap-question">
        <strong>{proposal.question}</strong> <span className="gap-count">asked {proposal.count === 1 ? 'once' : `${proposal.count} times`}</span>
      </p>
      {proposal.examples.length > 1 && <p className="gap-examples">Also asked: {proposal.examples.filter((e) => e !== proposal.question).join(' · ')}</p>}
      {editing ? (
        <div className="inline-form gap-edit">
          <label>
            Question <input value={question} onChange={(e) => setQuestion(e.target.value)} />
          </label>
          <label>
            Answer <textarea rows={3} value={answer} onChange={(e) => setAnswer(e.target.value)} />
          </label>
        </div>
      ) : (
        <p className="gap-answer">Agents answered: {proposal.answer}</p>
      )}
      <p className="gap-actions">
        <button type="button" onClick={() => void act(() => request(AcceptKbProposal, { project: projectId, id: proposal._id, ...edits }, token))}>
          Accept as FAQ
        </button>{' '}
        {editing ? (
          <button type="button" className="secondary" onClick={() => void act(() => request(UpdateKbProposal, { project: projectId, id: proposal._id, question, answer }, token)).then(() => setEditing(false))}>
            Save edit
          </button>
        ) : (
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}{' '}
        <button type="button" className="secondary" onClick={() => void act(() => request(DismissKbProposal, { project: projectId, id: proposal._id }, token))}>
          Dismiss
        </button>
      </p>
    </li>
  );
}

/** The most asked questions the knowledge base could not answer. */
export function KbGapReport({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(useCallback(() => request(KbProposals, { project: projectId }, token), [projectId, token]));
  return (
    <section className="card" aria-label="Unanswered questions">
      <h3>Unanswered questions</h3>
      <p className="hint">Questions from closed conversations that the knowledge base could not answer and an agent did, most asked first.</p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <ul className="rows gaps" data-testid="kb-gaps">
        {data?.kbProposals?.map((p) => <ProposalItem key={p._id} proposal={p} projectId={projectId} act={act} />)}
        {data?.kbProposals?.length === 0 && <li>Nothing unanswered: the knowledge base answered every closed conversation's question.</li>}
      </ul>
    </section>
  );
}

/** One test a line: the question, then `|`, then the id or name of the content it should find. */
const asLines = (suite: Suite | null) => (suite?.tests ?? []).map((t) => `${t.question} | ${t.expected}`).join('\n');
function parseLines(text: string) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.lastIndexOf('|');
      return at < 0 ? { question: line } : { question: line.slice(0, at).trim(), expected: line.slice(at + 1).trim() };
    });
}

/** A knowledge base's batch tests and their last run (read again every 5 s: a run follows each indexing). */
export function KbBatchTests({ projectId, namespace }: { projectId: string; namespace: string }) {
  const { token } = useSession();
  const { data, error, act } = useLoad(useCallback(() => request(KbTests, { project: projectId, namespace }, token), [projectId, namespace, token]), 5000);
  const suite = data?.kbTests ?? null;
  const [text, setText] = useState<string | null>(null);
  const run = suite?.last_run;
  return (
    <div className="kb-batch" aria-label="Batch tests">
      <h4>Batch tests</h4>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {run ? (
        <div role="status" aria-label="Last test run" className="kb-run">
          <p>
            Last run ({run.trigger === 'indexing' ? 'after indexing' : 'by hand'}, {new Date(run.createdAt).toLocaleString()}): <strong>{run.passed}/{run.total} passed</strong> ({Math.round(run.pass_rate * 100)}%)
          </p>
          {run.failures.length > 0 && (
            <ul className="kb-failures">
              {run.failures.map((f, i) => (
                <li key={i}>
                  “{f.question}”: expected {f.expected}, found {f.found ? f.found.name : 'nothing'}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        <p className="hint">{suite?.tests.length ? 'Not run yet.' : 'No tests yet: one a line, the question, a |, then the name or id of the content it should find.'}</p>
      )}
      <form
        className="inline-form"
        aria-label="Save tests"
        onSubmit={(e) => {
          e.preventDefault();
          void act(() => request(SaveKbTests, { project: projectId, namespace, tests: parseLines(text ?? asLines(suite)) }, token)).then(() => setText(null));
        }}
      >
        <label>
          Tests <textarea rows={3} value={text ?? asLines(suite)} onChange={(e) => setText(e.target.value)} placeholder="How long does a refund take? | Refunds" />
        </label>
        <button type="submit">Save tests</button>
        <button type="button" className="secondary" disabled={!suite?.tests.length} onClick={() => void act(() => request(RunKbTests, { project: projectId, namespace }, token))}>
          Run tests
        </button>
      </form>
    </div>
  );
}
