import { useEffect, useRef, useState } from 'react';
import { request } from '../api.js';
import { graphql } from '../gql/index.js';
import type { ConsoleLeadConversationsQuery } from '../gql/graphql.js';
import { LeadConversations } from './operations.js';
import { navigate, paths, type View } from './router.js';

// Merging conversations of one person from the conversation (`mergeRequests`): the agent picks the
// contact's other conversations, and their messages, tags and notes move into this one, which
// reads in time order; each of them closes with `merged_into` pointing here. A merged-away
// conversation says where it continues, with a link.

const Merge = graphql(`
  mutation ConsoleMergeRequests($project: String!, $request: String!, $from: [String!]!) {
    mergeRequests(project_id: $project, request_id: $request, from: $from) { request_id }
  }
`);

const MergedTarget = graphql(`
  query ConsoleMergedTarget($project: String!, $request: String!) {
    request(project_id: $project, request_id: $request) { request_id ticket_id first_text lead { fullname } }
  }
`);

type Candidate = NonNullable<ConsoleLeadConversationsQuery['requests']>['requests'][number];

/**
 * The dialog of "Merge…": the other conversations of the same contact that can still be merged,
 * each with a checkbox. `onMerged` gets the ticket numbers merged.
 */
export function MergeDialog({
  projectId,
  requestId,
  leadId,
  token,
  onMerged,
  onClose,
}: {
  projectId: string;
  requestId: string;
  leadId: string | null;
  token: string;
  onMerged: (tickets: string[]) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [candidates, setCandidates] = useState<Candidate[] | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal?.();
    return () => d?.close?.();
  }, []);

  useEffect(() => {
    if (!leadId) return setCandidates([]);
    request(LeadConversations, { project: projectId, lead: leadId }, token).then(
      (r) => setCandidates(r.requests.requests.filter((q) => q.request_id !== requestId && !q.merged_into)),
      (e: Error) => setError(e.message),
    );
  }, [projectId, requestId, leadId, token]);

  async function merge() {
    if (!picked.length) return setError('Pick at least one conversation to merge into this one.');
    setBusy(true);
    setError(null);
    try {
      await request(Merge, { project: projectId, request: requestId, from: picked }, token);
      onMerged((candidates ?? []).filter((c) => picked.includes(c.request_id)).map((c) => `#${c.ticket_id}`));
    } catch (e) {
      setError(`Not merged: ${(e as Error).message}`);
      setBusy(false);
    }
  }

  return (
    <dialog ref={dialog} className="merge-dialog" aria-labelledby="merge-title" onClose={onClose} onCancel={onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void merge();
        }}
      >
        <h3 id="merge-title">Merge conversations of this contact</h3>
        <p className="hint">The messages, tags and notes of the conversations you pick move into this one, in time order; they are closed and point here.</p>
        {candidates === null && !error && <p>Loading…</p>}
        {candidates?.length === 0 && <p>This contact has no other conversation to merge.</p>}
        <fieldset className="merge-candidates">
          <legend className="visually-hidden">Conversations to merge</legend>
          {candidates?.map((c) => (
            <label key={c.request_id} className="inline">
              <input
                type="checkbox"
                checked={picked.includes(c.request_id)}
                onChange={(e) => setPicked(e.target.checked ? [...picked, c.request_id] : picked.filter((id) => id !== c.request_id))}
              />
              #{c.ticket_id} {c.first_text} <span className="role">· {c.status === 1000 ? 'closed' : 'open'} · {new Date(c.createdAt).toLocaleDateString()}</span>
            </label>
          ))}
        </fieldset>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <p className="dialog-buttons">
          <button type="submit" disabled={busy || !candidates?.length}>
            {busy ? 'Merging…' : picked.length > 1 ? `Merge ${picked.length} conversations into this one` : 'Merge into this conversation'}
          </button>{' '}
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
        </p>
      </form>
    </dialog>
  );
}

/** Where a merged-away conversation continues: shown in place of the reply box. */
export function MergedNotice({ projectId, into, view, token }: { projectId: string; into: string; view: View; token: string }) {
  const [target, setTarget] = useState<{ ticket_id: string; first_text?: string | null; name?: string | null } | null>(null);
  useEffect(() => {
    request(MergedTarget, { project: projectId, request: into }, token).then(
      (r) => setTarget({ ticket_id: r.request.ticket_id, first_text: r.request.first_text, name: r.request.lead?.fullname }),
      () => {},
    );
  }, [projectId, into, token]);
  const href = paths.conversation(projectId, into, view);
  return (
    <p className="merged-notice" role="status" data-testid="merged-into">
      Merged into{' '}
      <a href={href} onClick={(e) => (e.preventDefault(), navigate(href))}>
        {target ? `#${target.ticket_id}${target.first_text ? ` ${target.first_text}` : ''}` : 'the conversation it continues in'}
      </a>
      : its messages, tags and notes are there now.
    </p>
  );
}
