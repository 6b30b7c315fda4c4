import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, request, subscribe } from '../api.js';
import type { ConsoleConversationQuery } from '../gql/graphql.js';
import { Attachment, attachmentMessage, dropTarget, FilePicker, PaperclipIcon, receiptText, refusal, upload } from '../shared/attachments.js';
import { buttonsOf, merged, type ChatMessage } from '../shared/messages.js';
import { usePageVisible, useReceipts } from '../shared/receipts.js';
import { typingLine, useTyping } from '../shared/typing.js';
import { AddNote, AddTag, MarkSeen, RemoveTag, AssignTargets, AssignTo, CannedResponses, Close, Conversation as ConversationQuery, MessageEvents, RenderCanned, Reopen, Reply, RouteToDepartment, Take } from './operations.js';
import { useProjectEvents } from './live.js';
import { KbFeedback, kbMarkOf } from '../shared/kb.js';
import { AddKbContent, KnowledgeBases } from './manage-operations.js';
import { ContactPanel } from './Contact.js';
import { SuggestionBar, SummaryPanel } from './Assistant.js';
import { PriorityPicker } from './priority.js';
import { SlaCountdown } from './sla.js';
import { ScheduledMessages } from './ScheduledMessages.js';
import { MergeDialog, MergedNotice } from './Merge.js';
import type { View } from './router.js';
import { useSession } from './session.js';
import { useLatestRead } from '../shared/latest-read.js';

type Details = NonNullable<ConsoleConversationQuery['request']>;

/** Messages and what happened to the conversation, in the order they happened (the first opening is the first message itself). */
function withTimeline(messages: ChatMessage[], timeline: Array<{ seq: number; at: string; text: string; name?: string }>) {
  const at = (item: ChatMessage | { at: string }) => ('at' in item ? Date.parse(item.at) : Number(item.attributes?.clienttimestamp ?? Date.parse(item.createdAt)));
  const events = timeline.filter((e, k) => !(k === 0 && e.name === 'request.create'));
  return [...messages, ...events].sort((a, b) => at(a) - at(b));
}

const gone = 'This conversation no longer exists: it was deleted (its contact was erased, or the retention policy removed it).';

const statusLabel = (status: number) => (status === 100 ? 'Unassigned' : status === 200 ? 'Open, served' : status === 1000 ? 'Closed' : `Status ${status}`);

/** One conversation: its messages live, the reply box, and what an agent does to it. */
export function Conversation({ projectId, requestId, view, onBack }: { projectId: string; requestId: string; view: View; onBack: () => void }) {
  const { token, live, userId } = useSession();
  const [details, setDetails] = useState<Details | null>(null);
  const [timeline, setTimeline] = useState<Array<{ seq: number; at: string; text: string }>>([]);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [note, setNote] = useState('');
  const [tag, setTag] = useState('');
  const [canned, setCanned] = useState<Array<{ _id: string; title: string; text?: string | null }>>([]);
  const [targets, setTargets] = useState<{ departments: Array<{ _id: string; name: string; id_bot?: string | null }>; agents: Array<{ id: string; name: string }> }>({ departments: [], agents: [] });
  const [notice, setNotice] = useState<string | null>(null);
  const [pick, setPick] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const [merging, setMerging] = useState(false);
  const [merges, setMerges] = useState(0);
  const [deleted, setDeleted] = useState(false);
  const pageVisible = usePageVisible();
  const list = useRef<HTMLOListElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const { typists, keyPressed, stopped, spoke } = useTyping({ client: live, token, projectId, requestId, me: userId, enabled: true });
  useReceipts({ messages, me: userId, token, projectId, requestId, seeing: pageVisible });
  // Read up to now while the conversation is on screen: its unread count (in the inbox) clears.
  const lastFromOthers = [...messages].reverse().find((m) => m.sender !== userId)?._id;
  useEffect(() => {
    if (!pageVisible) return;
    request(MarkSeen, { project: projectId, request: requestId }, token).then(() => window.dispatchEvent(new Event('console:seen')), () => {});
  }, [projectId, requestId, token, pageVisible, lastFromOthers]);

  // A suggested reply goes into the reply box, to be edited before it is sent.
  const insertSuggestion = useCallback((text: string) => {
    setDraft(text);
    document.getElementById('reply-text')?.focus();
  }, []);

  const beginRead = useLatestRead(`${projectId} ${requestId}`);
  const load = useCallback(() => {
    const mayShow = beginRead();
    request(ConversationQuery, { project: projectId, request: requestId }, token).then(
      (r) => {
        if (!mayShow()) return;
        setDetails(r.request);
        setTimeline(r.requestTimeline ?? []);
        setMessages((m) => merged(m, r.messages));
      },
      (e: Error) => {
        if (!mayShow()) return;
        if (e instanceof ApiError && e.code === 'NOT_FOUND') setDeleted(true);
        else setError(e.message);
      },
    );
  }, [projectId, requestId, token, beginRead]);

  useEffect(() => {
    setMessages([]);
    setDetails(null);
    // Subscribed first, then read: nothing falls between the two (the merge drops duplicates).
    const off = subscribe(live, MessageEvents, { project: projectId, request: requestId }, (d) => d.requestMessages.seq, (d) => {
      const message = d.requestMessages.message;
      if (!message) return;
      setMessages((m) => merged(m, [message]));
      spoke(message.sender);
    }, load);
    load();
    return off;
  }, [live, projectId, requestId, load]);

  // Someone else assigning, re-routing, closing or a visitor rating shows here at once.
  // A contact's erasure (by a teammate) may delete this very conversation: read again, it says so.
  useProjectEvents(projectId, (name) => name.startsWith('request.') || name.startsWith('sla.') || name === 'lead.erase', load);

  useEffect(() => {
    request(CannedResponses, { project: projectId }, token).then((r) => setCanned(r.cannedResponses), () => {});
    request(AssignTargets, { project: projectId }, token).then(
      (r) =>
        setTargets({
          departments: r.departments,
          agents: r.teammates
            .filter((t) => t.role !== 'guest' && t.role !== 'user' && t.id_user)
            .map((t) => ({ id: t.id_user!._id, name: t.id_user!.fullName || t.id_user!.email || t._id })),
        }),
      () => {},
    );
  }, [projectId, token]);

  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView?.({ block: 'end' });
  }, [messages.length]);

  async function act(run: () => Promise<unknown>, done?: string) {
    setError(null);
    setNotice(null);
    try {
      await run();
      if (done) setNotice(done);
      load();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  // Teaching the knowledge base from the conversation: a bot's answer confirmed or rejected for the
  // visitor's question, or an agent's reply saved as an FAQ of the question it answered.
  const [taught, setTaught] = useState<Record<string, string>>({});
  const questionBefore = (m: ChatMessage) => {
    const k = messages.findIndex((x) => x._id === m._id);
    return [...messages.slice(0, k)].reverse().find((x) => x.sender !== userId && !x.sentByBot && x.text)?.text ?? null;
  };
  async function judgeBotAnswer(m: ChatMessage, helpful: boolean) {
    const kb = kbMarkOf(m.attributes);
    if (!kb?.id || !kb.question) return;
    await act(async () => {
      await request(KbFeedback, { project: projectId, namespace: kb.namespace, question: kb.question!, id: kb.id!, helpful }, token);
      setTaught((t) => ({ ...t, [m._id]: helpful ? 'Confirmed: the question now finds this answer.' : 'Rejected: it will not answer this question first again.' }));
    });
  }
  async function saveAsFaq(m: ChatMessage) {
    const question = questionBefore(m);
    if (!question || !m.text) return;
    await act(async () => {
      const kbs = await request(KnowledgeBases, { project: projectId }, token);
      const kb = kbs.kbNamespaces.find((n) => n.default) ?? kbs.kbNamespaces[0];
      if (!kb) throw new Error('Create a knowledge base first (Settings → Knowledge bases).');
      await request(AddKbContent, { project: projectId, namespace: kb._id, name: question.slice(0, 200), type: 'faq', content: `${question}\n${m.text}` }, token);
      setTaught((t) => ({ ...t, [m._id]: `Saved as an FAQ of ${kb.name}.` }));
    });
  }

  async function attach(file: File) {
    setError(null);
    const refused = await refusal(file).catch(() => null);
    if (refused) return setError(refused);
    setProgress({ name: file.name, fraction: 0 });
    try {
      const uploaded = await upload(projectId, token, file, (fraction) => setProgress({ name: file.name, fraction }));
      const message = attachmentMessage(file, uploaded);
      const r = await request(Reply, { project: projectId, request: requestId, text: message.text, type: message.type, metadata: message.metadata, attributes: { clienttimestamp: Date.now() } }, token);
      setMessages((m) => merged(m, [r.sendMessage]));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setProgress(null);
    }
  }

  async function send(e: FormEvent) {
    e.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setDraft('');
    stopped();
    await act(async () => {
      const r = await request(Reply, { project: projectId, request: requestId, text, attributes: { clienttimestamp: Date.now() } }, token);
      setMessages((m) => merged(m, [r.sendMessage]));
    });
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

  const closed = details?.status === 1000;
  const mergedInto = details?.merged_into ?? null;
  const mine = details?.participatingAgents.includes(userId);
  const tags = Array.isArray(details?.tags) ? (details.tags as Array<{ tag?: string; color?: string }>) : [];
  const assignees = details?.agents.map((a) => a.id_user?.fullName || a.id_user?.email || a._id) ?? [];

  if (deleted)
    return (
      <section className="conversation" aria-label="Conversation">
        <header className="conversation-header">
          <button type="button" className="back link" onClick={onBack}>
            ← Inbox
          </button>
        </header>
        <p role="alert" className="error" data-testid="conversation-gone">
          {gone}
        </p>
      </section>
    );

  return (
    <section
      className={`conversation${dragging ? ' dragging' : ''}`}
      aria-label="Conversation"
      {...dropTarget(!closed, setDragging, (file) => void attach(file))}
    >
      <header className="conversation-header">
        <button type="button" className="back link" onClick={onBack}>
          ← Inbox
        </button>
        <h2>
          {details?.lead?.fullname || 'Visitor'} <span className="ticket">#{details?.ticket_id}</span>
        </h2>
        {!closed && <SlaCountdown sla={details?.sla} />}
        <div className="actions">
          {!closed && (
            <select
              aria-label="Assign to"
              value=""
              onChange={(e) => {
                const [kind, id] = e.target.value.split(':');
                const agent = targets.agents.find((a) => a.id === id);
                const department = targets.departments.find((d) => d._id === id);
                if (kind === 'agent') void act(() => request(AssignTo, { project: projectId, request: requestId, participants: [id] }, token), `Assigned to ${agent?.name}`);
                if (kind === 'department') void act(() => request(RouteToDepartment, { project: projectId, request: requestId, department: id }, token), `Routed to ${department?.name}`);
              }}
            >
              <option value="">Assign to…</option>
              <optgroup label="Teammates">
                {targets.agents.map((a) => (
                  <option key={a.id} value={`agent:${a.id}`}>
                    {a.name}
                  </option>
                ))}
              </optgroup>
              <optgroup label="Departments">
                {targets.departments.map((d) => (
                  <option key={d._id} value={`department:${d._id}`}>
                    {d.name}
                  </option>
                ))}
              </optgroup>
            </select>
          )}
          {!closed && !mine && (
            <button type="button" onClick={() => act(() => request(Take, { project: projectId, request: requestId }, token), 'You took the conversation')}>
              Take
            </button>
          )}
          {details && !mergedInto && (
            <button type="button" className="secondary" aria-haspopup="dialog" onClick={() => setMerging(true)}>
              Merge…
            </button>
          )}
          {mergedInto ? null : closed ? (
            <button type="button" onClick={() => act(() => request(Reopen, { project: projectId, request: requestId }, token), 'Reopened')}>
              Reopen
            </button>
          ) : (
            <button type="button" data-action="close" onClick={() => act(() => request(Close, { project: projectId, request: requestId }, token), 'Closed')}>
              Close
            </button>
          )}
        </div>
      </header>
      {merging && (
        <MergeDialog
          projectId={projectId}
          requestId={requestId}
          leadId={details?.lead?._id ?? null}
          token={token}
          onClose={() => setMerging(false)}
          onMerged={(tickets) => {
            setMerging(false);
            setMerges((n) => n + 1);
            void act(async () => {}, `Merged ${tickets.join(', ')} into this conversation: their messages are below, in time order.`);
          }}
        />
      )}
      <SummaryPanel projectId={projectId} requestId={requestId} recordId={details?._id} token={token} />
      {error && <p role="alert" className="error">{error}</p>}
      {notice && !error && <p role="status" className="notice">{notice}</p>}
      <ol className="messages" ref={list} aria-live="polite" aria-label="Messages" data-testid="messages">
        {withTimeline(messages, timeline).map((item) => {
          if ('seq' in item)
            return (
              <li key={`event-${item.seq}-${item.text}`} className="timeline-entry" data-testid="timeline">
                {item.text} · <time dateTime={item.at}>{new Date(item.at).toLocaleTimeString()}</time>
              </li>
            );
          const m = item;
          const hidden = m.hidden;
          return (
            <li key={m._id} className={`message ${m.sender === userId ? 'mine' : 'theirs'}${hidden ? ' hidden' : ''}`} data-testid="message">
              <span className="sender">
                {m.senderFullname || m.sender}
                {hidden ? ' (hidden from the visitor)' : ''}
                {m.attributes?.scheduled_message_id ? (
                  <span className="sent-as-scheduled" data-testid="sent-as-scheduled">
                    {' '}
                    · sent as scheduled
                  </span>
                ) : null}
              </span>
              {(m.type === 'image' || m.type === 'file') && m.metadata?.src ? <Attachment message={m} token={token} prefix="" /> : m.text && <span className="text">{m.text}</span>}
              {kbMarkOf(m.attributes)?.id && kbMarkOf(m.attributes)?.question && !taught[m._id] && (
                <span className="teach">
                  <button type="button" className="link" onClick={() => void judgeBotAnswer(m, true)}>
                    👍 Right answer
                  </button>
                  <button type="button" className="link" onClick={() => void judgeBotAnswer(m, false)}>
                    👎 Wrong answer
                  </button>
                </span>
              )}
              {m.sender === userId && m.type === 'text' && !hidden && questionBefore(m) && !taught[m._id] && (
                <button type="button" className="link teach" onClick={() => void saveAsFaq(m)}>
                  Save as FAQ
                </button>
              )}
              {taught[m._id] && <span className="teach">{taught[m._id]}</span>}
              {m.sender === userId && (
                <span className={`receipt${(m.status ?? 0) >= 300 ? ' seen' : ''}`} aria-label={receiptText(m.status ?? 200).label} title={receiptText(m.status ?? 200).label}>
                  {receiptText(m.status ?? 200).mark}
                </span>
              )}
              {buttonsOf(m).length > 0 && (
                <span className="buttons" aria-label="Buttons offered">
                  {buttonsOf(m).map((b, i) => (
                    <span key={i} className="chip">
                      {b.value}
                    </span>
                  ))}
                </span>
              )}
            </li>
          );
        })}
      </ol>
      <div className="live-line">
        {typingLine(typists) && (
          <span role="status" data-testid="typing">
            {typingLine(typists)}
          </span>
        )}
        {progress && (
          <span role="status">
            Uploading {progress.name} <progress max={1} value={progress.fraction} aria-label={`Uploading ${progress.name}`} />
          </span>
        )}
      </div>
      {mergedInto && <MergedNotice projectId={projectId} into={mergedInto} view={view} token={token} />}
      {!closed && <SuggestionBar projectId={projectId} requestId={requestId} token={token} refresh={lastFromOthers} onInsert={insertSuggestion} />}
      {!closed && (
        <form className="reply" onSubmit={send}>
          <FilePicker inputRef={picker} className="visually-hidden" onFile={(file) => void attach(file)} />
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
              if (e.target.value) keyPressed();
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
      )}
      <aside className="details" aria-label="Details">
        <dl className="facts">
          <dt>Status</dt>
          <dd data-testid="status">{details ? `${statusLabel(details.status)}${mergedInto ? ' (merged)' : ''}` : '…'}</dd>
          <dt>Assignees</dt>
          <dd data-testid="assignees">{assignees.length ? assignees.join(', ') : details?.hasBot ? 'Bot' : 'Nobody yet'}</dd>
          <dt>Department</dt>
          <dd data-testid="department">{details?.department?.name ?? '—'}</dd>
          {details?.rating != null && (
            <>
              <dt>Rating</dt>
              <dd data-testid="rating">
                <span aria-label={`${details.rating} out of 5`}>{'★'.repeat(details.rating)}{'☆'.repeat(Math.max(0, 5 - details.rating))}</span> {details.rating}/5
                {details.rating_message ? <q>{details.rating_message}</q> : null}
              </dd>
            </>
          )}
          {details?.sourcePage && (
            <>
              <dt>Page</dt>
              <dd className="source">{details.sourcePage}</dd>
            </>
          )}
        </dl>
        <ContactPanel key={merges} projectId={projectId} requestId={requestId} view={view} />
        {details && <PriorityPicker projectId={projectId} requestId={requestId} priority={details.priority} token={token} act={act} />}
        <ScheduledMessages projectId={projectId} requestId={requestId} token={token} closed={closed} version={details} />
        <h3>Tags</h3>
        <ul className="tag-list" aria-label="Tags">
          {tags.map((t) => (
            <li key={t.tag} className="chip">
              {t.tag}
              <button
                type="button"
                className="remove"
                aria-label={`Remove tag ${t.tag}`}
                onClick={() => void act(() => request(RemoveTag, { project: projectId, request: requestId, tag: t.tag! }, token))}
              >
                ×
              </button>
            </li>
          ))}
          {tags.length === 0 && <li className="none">None</li>}
        </ul>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const value = tag.trim();
            if (!value) return;
            setTag('');
            void act(() => request(AddTag, { project: projectId, request: requestId, tag: { tag: value } }, token));
          }}
        >
          <label>
            Add a tag <input value={tag} onChange={(e) => setTag(e.target.value)} />
          </label>
          <button type="submit">Add</button>
        </form>
        <h3>Notes</h3>
        <ul>
          {details?.notes.map((n) => (
            <li key={n._id}>{n.text}</li>
          ))}
        </ul>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const value = note.trim();
            if (!value) return;
            setNote('');
            void act(() => request(AddNote, { project: projectId, request: requestId, text: value }, token));
          }}
        >
          <label>
            Add a note <input value={note} onChange={(e) => setNote(e.target.value)} />
          </label>
          <button type="submit">Add</button>
        </form>
      </aside>
    </section>
  );
}
