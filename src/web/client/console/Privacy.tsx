import { useEffect, useRef, useState } from 'react';
import { request } from '../api.js';
import type { ConsoleLeadConversationsQuery } from '../gql/graphql.js';
import { EraseLead, LeadConversations, LeadExport, ProjectRetention, UpdateRetention } from './operations.js';
import { useSession } from './session.js';

// A lead's privacy requests and the project's retention policy, for admins and the owner (the API
// refuses the others): the contact panel exports everything held about the lead as JSON
// (`leadExport`) and erases them (`deleteLead(erase: true)`) after a dialog naming what goes;
// Settings → Privacy and retention sets `retention_days`. docs/operations.md says what each removes.

type Conversations = NonNullable<ConsoleLeadConversationsQuery['requests']>;

/** Saves everything held about the lead as `lead-<id>.json` (GraphQL answers JSON; the browser saves a blob of it). */
export async function downloadLeadExport(projectId: string, leadId: string, token: string) {
  const r = await request(LeadExport, { project: projectId, id: leadId }, token);
  const url = URL.createObjectURL(new Blob([JSON.stringify(r.leadExport, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `lead-${leadId}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// What the console says once a contact is erased: their conversation is gone, so the notice is
// shown beside the inbox the console returns to, until dismissed.
let erasure: string | null = null;
const erasureChanged = 'console:erasure';
export function announceErasure(text: string | null) {
  erasure = text;
  window.dispatchEvent(new Event(erasureChanged));
}

export function ErasureNotice() {
  const [text, setText] = useState(erasure);
  useEffect(() => {
    const update = () => setText(erasure);
    window.addEventListener(erasureChanged, update);
    return () => window.removeEventListener(erasureChanged, update);
  }, []);
  if (!text) return null;
  return (
    <p role="status" className="erased-notice" data-testid="erased">
      {text}{' '}
      <button type="button" className="link" onClick={() => announceErasure(null)}>
        Dismiss
      </button>
    </p>
  );
}

/**
 * The confirmation of "Erase contact…": who, and every conversation of theirs that will be deleted
 * with its messages and files. `onErased` gets the sentence to show.
 */
export function EraseDialog({
  projectId,
  lead,
  onErased,
  onClose,
}: {
  projectId: string;
  lead: { _id: string; fullname?: string | null; email?: string | null };
  onErased: (text: string) => void;
  onClose: () => void;
}) {
  const { token } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const [conversations, setConversations] = useState<Conversations | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const who = lead.fullname || lead.email || 'this contact';

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal?.();
    return () => d?.close?.();
  }, []);
  useEffect(() => {
    request(LeadConversations, { project: projectId, lead: lead._id }, token).then((r) => setConversations(r.requests), (e: Error) => setError(e.message));
  }, [projectId, lead._id, token]);

  const count = conversations?.count ?? 0;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  async function erase() {
    setBusy(true);
    setError(null);
    try {
      await request(EraseLead, { project: projectId, id: lead._id }, token);
      onErased(`${who} was erased: the contact and ${plural(count, 'conversation')}, with their messages and files, were deleted.`);
    } catch (e) {
      setError(`Not erased: ${(e as Error).message}`);
      setBusy(false);
    }
  }

  return (
    <dialog ref={dialog} className="merge-dialog erase-dialog" aria-labelledby="erase-title" onClose={onClose} onCancel={onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void erase();
        }}
      >
        <h3 id="erase-title">Erase {who}?</h3>
        <p>This deletes for good, and cannot be undone:</p>
        <ul className="erase-list" data-testid="erase-list">
          <li>
            the contact {who}
            {lead.email && lead.email !== who ? ` (${lead.email})` : ''};
          </li>
          <li>
            {conversations ? plural(count, 'conversation') : 'their conversations'} with every message and note in them
            {conversations && conversations.requests.length > 0 && (
              <>
                :{' '}
                {conversations.requests.map((q) => `#${q.ticket_id} ${q.first_text ?? ''}`.trim()).join(', ')}
                {conversations.count > conversations.requests.length ? ` and ${conversations.count - conversations.requests.length} more` : ''}
              </>
            )}
            ;
          </li>
          <li>the files sent in those conversations or uploaded by the visitor;</li>
          <li>what the knowledge bases learned from their words, and the feedback given in their conversations.</li>
        </ul>
        <p className="hint">The audit log keeps that you erased them (and the counts), not what they said. To give them a copy first, use Export data.</p>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <p className="dialog-buttons">
          <button type="submit" className="danger-button" disabled={busy || !conversations}>
            {busy ? 'Erasing…' : `Erase ${who} and ${conversations ? plural(count, 'conversation') : 'their conversations'}`}
          </button>{' '}
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
        </p>
      </form>
    </dialog>
  );
}

/** Settings → Privacy and retention: how long closed conversations are kept. */
export function RetentionSection({ projectId }: { projectId: string }) {
  const { token } = useSession();
  const [current, setCurrent] = useState<number | null | undefined>(undefined);
  const [days, setDays] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => {
    request(ProjectRetention, { project: projectId }, token).then(
      (r) => {
        setCurrent(r.project.retention_days ?? null);
        setDays(String(r.project.retention_days ?? 0));
      },
      (e: Error) => setError(e.message),
    );
  }, [projectId, token]);

  const policy = (value: number | null | undefined) =>
    value ? `Closed conversations are deleted ${value} day${value === 1 ? '' : 's'} after they closed, with their messages and files.` : 'Closed conversations are kept forever.';

  async function save() {
    setError(null);
    setSaved(null);
    const value = days.trim() === '' ? NaN : Number(days);
    // GraphQL takes whole numbers only; the server checks the range and says what is wrong.
    if (!Number.isInteger(value)) return setError('retention_days: enter a whole number of days (0 keeps conversations forever).');
    if (Math.abs(value) > 2 ** 31 - 1) return setError('retention_days: must be at most 36500');
    try {
      const r = await request(UpdateRetention, { project: projectId, days: value }, token);
      setCurrent(r.updateProject.retention_days ?? null);
      setSaved(`Saved. ${policy(r.updateProject.retention_days)}`);
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <section aria-label="Retention policy">
      <h3>Retention policy</h3>
      <p className="hint">
        Closed conversations older than the number of days below (counted from when they closed) are deleted with their messages and the files attached to
        them, by a background job (every hour unless the server is set otherwise) that records its progress in the audit log. Open conversations are never deleted. 0 keeps
        conversations forever; at most 36500.
      </p>
      <p data-testid="retention-policy">{current === undefined ? 'Loading…' : policy(current)}</p>
      <form
        className="inline-form"
        aria-label="Retention"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          Keep closed conversations for (days) <input inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <button type="submit">Save retention</button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {saved && <p role="status">{saved}</p>}
      <h3>A contact's data</h3>
      <p className="hint">
        To give a contact everything held about them, or to erase them, open one of their conversations: the contact panel has Export data and Erase contact…
      </p>
    </section>
  );
}
