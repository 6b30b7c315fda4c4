import { useEffect, useRef, useState, type FormEvent } from 'react';
import { request } from '../../api.js';
import { FilePicker, PaperclipIcon } from '../../shared/attachments.js';
import { CannedResponses, RenderCanned } from '../operations.js';
import { useSession } from '../session.js';

// The reply box: the text (Enter sends, Shift+Enter breaks the line), canned responses from the
// list or by typing "/", and a file or image to attach. The draft is the conversation's, so that a
// suggested reply can be put into it.

export function ReplyBox(props: {
  projectId: string;
  requestId: string;
  draft: string;
  setDraft: (text: string) => void;
  onSend: (text: string) => Promise<void>;
  onAttach: (file: File) => void;
  typing: { keyPressed: () => void; stopped: () => void };
}) {
  const { projectId, requestId, draft, setDraft, onSend, onAttach, typing } = props;
  const { token } = useSession();
  const [canned, setCanned] = useState<Array<{ _id: string; title: string; text?: string | null }>>([]);
  const [pick, setPick] = useState(0);
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => {
    request(CannedResponses, { project: projectId }, token).then((r) => setCanned(r.cannedResponses), () => {});
  }, [projectId, token]);

  async function send(e: FormEvent) {
    e.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setDraft('');
    typing.stopped();
    await onSend(text);
  }

  async function useCanned(id: string) {
    if (!id) return;
    const r = await request(RenderCanned, { project: projectId, id, request: requestId }, token);
    setDraft(r.renderCannedResponse.text);
    setPick(0);
    document.querySelector<HTMLTextAreaElement>('#reply-text')?.focus();
  }

  // "/" at the start of the reply box lists the canned responses whose title starts with what follows.
  const slash = draft.startsWith('/') ? draft.slice(1).toLowerCase() : null;
  const matching = slash === null ? [] : canned.filter((c) => c.title.toLowerCase().includes(slash)).slice(0, 8);

  return (
    <form className="reply" onSubmit={send}>
      <FilePicker inputRef={picker} className="visually-hidden" onFile={onAttach} />
      <label htmlFor="canned">Canned response</label>
      <select id="canned" value="" onChange={(e) => void useCanned(e.target.value)}>
        <option value="">Insert…</option>
        {canned.map((c) => (
          <option key={c._id} value={c._id}>
            {c.title}
          </option>
        ))}
      </select>
      <label htmlFor="reply-text" className="visually-hidden">
        Reply
      </label>
      <textarea
        id="reply-text"
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          if (e.target.value) typing.keyPressed();
        }}
        placeholder="Reply to the visitor…"
        rows={2}
        aria-autocomplete="list"
        aria-controls={matching.length ? 'canned-matches' : undefined}
        onKeyDown={(e) => {
          if (matching.length && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
            e.preventDefault();
            setPick((k) => (k + (e.key === 'ArrowDown' ? 1 : matching.length - 1)) % matching.length);
            return;
          }
          if (matching.length && e.key === 'Enter') {
            e.preventDefault();
            void useCanned(matching[Math.min(pick, matching.length - 1)]._id);
            return;
          }
          if (e.key === 'Escape' && slash !== null) {
            setDraft('');
            return;
          }
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
      />
      {matching.length > 0 && (
        <ul id="canned-matches" role="listbox" aria-label="Canned responses" className="canned-matches">
          {matching.map((c, k) => (
            <li key={c._id} role="option" aria-selected={k === Math.min(pick, matching.length - 1)} onMouseDown={(e) => (e.preventDefault(), void useCanned(c._id))}>
              <strong>/{c.title}</strong> {c.text}
            </li>
          ))}
        </ul>
      )}
      <span className="reply-buttons">
        <button type="button" className="secondary" aria-label="Attach a file or image" onClick={() => picker.current?.click()}>
          <PaperclipIcon />
        </button>
        <button type="submit">Send</button>
      </span>
    </form>
  );
}
