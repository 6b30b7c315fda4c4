import { StrictMode, useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { liveClient, request, setApiBase, subscribe } from '../api.js';
import { Attachment, attachmentMessage, dropTarget, FilePicker, PaperclipIcon, receiptText, refusal, upload } from '../shared/attachments.js';
import { buttonsOf, merged, type ChatMessage } from '../shared/messages.js';
import { usePageVisible, useReceipts } from '../shared/receipts.js';
import { typingLine, useTyping } from '../shared/typing.js';
import { KbAnswerDrafts, KbRateAnswer, kbMarkOf } from '../shared/kb.js';
import { WidgetSettings, SigninAnonymously, WidgetMessageEvents, WidgetMessages, WidgetRate, WidgetRequestStatus, WidgetSend } from './operations.js';
import { widgetCss } from './style.js';

// The visitor widget: a launcher button and a chat panel, mounted by /widget.js into a shadow root
// of the host page (its styles and the page's do not mix). The visitor signs in anonymously; the
// conversation starts with their first message; everything else arrives over graphql-ws.

interface Session {
  token: string;
  userId: string;
  fullName: string;
  email?: string | null;
  requestId: string;
  /** Whether the conversation `requestId` was started (its first message sent): until then there is nothing to read. */
  started?: boolean;
}

const newRequestId = () => `support-group-${crypto.randomUUID()}`;
const storageKey = (projectId: string) => `support-widget:${projectId}`;

function loadSession(projectId: string): Session | null {
  try {
    return JSON.parse(localStorage.getItem(storageKey(projectId)) ?? 'null') as Session | null;
  } catch {
    return null;
  }
}

function Widget({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState(false);
  const [session, setSession] = useState<Session | null>(() => loadSession(projectId));
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [started, setStarted] = useState(false);
  const [closed, setClosed] = useState(false);
  const [rated, setRated] = useState(false);
  const [away, setAway] = useState(false);
  const [email, setEmail] = useState('');
  const [ratingValue, setRatingValue] = useState<number | null>(null);
  const [ratingComment, setRatingComment] = useState('');
  const [connected, setConnected] = useState(false);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  // A bot's knowledge answer as it is being written (kbAnswerDrafts), until its message arrives.
  const [answerDraft, setDraftAnswer] = useState<{ id: string; sender: string; text: string } | null>(null);
  const [thumbs, setThumbs] = useState<Record<string, boolean>>({});
  const [dragging, setDragging] = useState(false);
  const pageVisible = usePageVisible();
  const list = useRef<HTMLOListElement>(null);
  const picker = useRef<HTMLInputElement>(null);

  const save = useCallback(
    (next: Session) => {
      localStorage.setItem(storageKey(projectId), JSON.stringify(next));
      setSession(next);
    },
    [projectId],
  );

  // Away: outside the operating hours, or nobody available to answer.
  useEffect(() => {
    if (!open) return;
    request(WidgetSettings, { project: projectId }).then((r) => setAway(r.widgetSettings.isopen === false || r.widgetSettings.available_agents === 0), () => {});
  }, [projectId, open]);

  // Signs in anonymously the first time the panel opens.
  useEffect(() => {
    if (!open || session) return;
    request(SigninAnonymously, { project: projectId }).then(
      (r) => save({ token: r.signinAnonymously.token!, userId: r.signinAnonymously.user._id, fullName: r.signinAnonymously.user.fullName ?? 'Visitor', email: r.signinAnonymously.user.email, requestId: newRequestId(), started: false }),
      (e: Error) => setError(e.message),
    );
  }, [open, session, projectId, save]);

  const client = useMemo(() => (session ? liveClient(session.token, setConnected) : null), [session?.token]);
  useEffect(() => () => void client?.dispose(), [client]);

  // A returning visitor: the conversation they had. A conversation never started has nothing to read.
  useEffect(() => {
    if (!session || session.started === false) return;
    request(WidgetMessages, { project: projectId, request: session.requestId }, session.token).then(
      (r) => {
        setMessages((m) => merged(m, r.messages));
        setStarted(r.messages.length > 0);
      },
      () => {},
    );
  }, [session?.requestId, session?.token, projectId]);

  useEffect(() => {
    if (!client || !session || !started) return;
    const reread = () =>
      void request(WidgetMessages, { project: projectId, request: session.requestId }, session.token).then((r) => setMessages((m) => merged(m, r.messages)), () => {});
    const off = subscribe(
      client,
      WidgetMessageEvents,
      { project: projectId, request: session.requestId },
      (d) => d.requestMessages.seq,
      (d) => {
        const message = d.requestMessages.message;
        if (!message) return;
        setMessages((m) => merged(m, [message]));
        spoke(message.sender);
      },
      reread,
    );
    // What arrived between the first answer and the subscription.
    reread();
    return off;
  }, [client, session?.requestId, started, projectId]);

  // Whether the conversation is closed (to ask for a rating) or was reopened (to bring the input
  // back): end users may not follow the project's request events, so the widget asks for its
  // request's status while the panel is open, and at once when a message arrives.
  useEffect(() => {
    if (!open || !session || !started) return;
    const check = () =>
      request(WidgetRequestStatus, { project: projectId, request: session.requestId }, session.token).then(
        (r) => {
          // Merged into another conversation: the widget continues there.
          if (r.request.merged_into) return save({ ...session, requestId: r.request.merged_into, started: true });
          const isClosed = r.request.status === 1000;
          setClosed(isClosed);
          if (!isClosed) setRated(false);
        },
        () => {},
      );
    void check();
    const timer = setInterval(check, 3000);
    return () => clearInterval(timer);
  }, [open, session?.requestId, started, messages.length, projectId]);

  useEffect(() => {
    if (!client || !session || !started) return;
    return client.subscribe<{ kbAnswerDrafts: { draft_id: string; sender: string; text: string; done: boolean } }>(
      { query: KbAnswerDrafts.toString(), variables: { project: projectId, request: session.requestId } },
      {
        next: ({ data }) => {
          const d = data?.kbAnswerDrafts;
          if (d) setDraftAnswer(d.done ? null : { id: d.draft_id, sender: d.sender, text: d.text });
        },
        error: () => {},
        complete: () => {},
      },
    );
  }, [client, session?.requestId, started, projectId]);
  const { typists, keyPressed, stopped, spoke } = useTyping({
    client,
    token: session?.token ?? null,
    projectId,
    requestId: session?.requestId ?? '',
    me: session?.userId ?? '',
    enabled: !!session && started,
  });
  const visible = messages.filter((m) => !m.hidden);
  // The finished message replaces its draft.
  const shownDraft = answerDraft && !visible.some((m) => kbMarkOf(m.attributes)?.draft_id === answerDraft.id) ? answerDraft : null;
  async function rateAnswer(messageId: string, helpful: boolean) {
    if (!session) return;
    setThumbs((t) => ({ ...t, [messageId]: helpful }));
    await request(KbRateAnswer, { project: projectId, request: session.requestId, message: messageId, helpful }, session.token).catch((e: Error) => setError(e.message));
  }
  useReceipts({ messages: visible, me: session?.userId, token: session?.token ?? null, projectId, requestId: session?.requestId ?? '', seeing: open && pageVisible });
  const last = visible[visible.length - 1];
  const inputDisabled = last?.attributes?.disableInputMessage === true;
  // Both last until the next message arrives.
  const placeholder: string = last?.attributes?.inputMessagePlaceholder ?? 'Type your message…';

  // The team may send back the visitor's details (updateUserEmail / updateUserFullname).
  useEffect(() => {
    if (!session || !last || last.sender === session.userId) return;
    const email = last.attributes?.updateUserEmail;
    const fullName = last.attributes?.updateUserFullname;
    if ((email && email !== session.email) || (fullName && fullName !== session.fullName)) {
      save({ ...session, email: email ?? session.email, fullName: fullName ?? session.fullName });
    }
  }, [last?._id]);

  // The newest message in view: when one arrives, and when the panel opens on a conversation read back.
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView?.({ block: 'end' });
  }, [visible.length, open]);

  async function send(text: string, content: { type?: string; metadata?: Record<string, unknown> } = {}) {
    if (!session || !text.trim()) return;
    setError(null);
    stopped();
    try {
      // The e-mail a visitor leaves while the team is away goes with the first message: it is the lead's.
      const leftEmail = !started && email.trim() ? { userEmail: email.trim() } : {};
      const r = await request(
        WidgetSend,
        { project: projectId, request: session.requestId, text, ...content, attributes: { clienttimestamp: Date.now(), userFullname: session.fullName, ...leftEmail }, sourcePage: location.href, userAgent: navigator.userAgent },
        session.token,
      );
      setMessages((m) => merged(m, [r.sendMessage]));
      if (!started) {
        setStarted(true);
        save({ ...session, started: true, email: leftEmail.userEmail ?? session.email });
      }
    } catch (e) {
      setError((e as Error).message);
    }
  }

  async function attach(file: File) {
    if (!session) return;
    setError(null);
    const refused = await refusal(file).catch(() => null);
    if (refused) return setError(refused);
    setProgress({ name: file.name, fraction: 0 });
    try {
      const uploaded = await upload(projectId, session.token, file, (fraction) => setProgress({ name: file.name, fraction }));
      const message = attachmentMessage(file, uploaded);
      await send(message.text, { type: message.type, metadata: message.metadata });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setProgress(null);
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const text = draft;
    setDraft('');
    void send(text);
  }

  async function rate(value: number, comment: string) {
    if (!session) return;
    setError(null);
    try {
      await request(WidgetRate, { project: projectId, request: session.requestId, rate: value, message: comment.trim() || undefined }, session.token);
      setRated(true);
    } catch (e) {
      setError((e as Error).message);
    }
  }

  function newConversation() {
    if (!session) return;
    save({ ...session, requestId: newRequestId(), started: false });
    setRatingValue(null);
    setRatingComment('');
    setMessages([]);
    setStarted(false);
    setClosed(false);
    setRated(false);
  }

  return (
    <div className="sw-root">
      {open && (
        <section
          className={`sw-panel${dragging ? ' sw-dragging' : ''}`}
          role="dialog"
          aria-label="Chat with us"
          aria-modal="false"
          {...dropTarget(!!session && !closed, setDragging, (file) => void attach(file))}
        >
          <header className="sw-header">
            <h2>Chat with us</h2>
            <span className="sw-who" data-testid="widget-user">
              {session ? `${session.fullName}${session.email ? ` · ${session.email}` : ''}` : 'Signing in…'}
            </span>
            <button type="button" className="sw-close" aria-label="Close the chat" onClick={() => setOpen(false)}>
              ×
            </button>
          </header>
          {away && (
            <div className="sw-away" role="status">
              <p>The team is away right now. Leave your e-mail and a message: we will answer as soon as we are back.</p>
              {!started && !session?.email && (
                <label>
                  Your e-mail
                  <input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="you@example.com" />
                </label>
              )}
            </div>
          )}
          {started && !connected && <p className="sw-offline" role="status">Reconnecting…</p>}
          <ol className="sw-messages" ref={list} aria-live="polite" aria-label="Messages">
            {visible.map((m) => (
              <li key={m._id} className={m.sender === session?.userId ? 'sw-msg sw-mine' : 'sw-msg sw-theirs'} data-testid="widget-message">
                {m.sender !== session?.userId && <span className="sw-sender">{m.senderFullname}</span>}
                {(m.type === 'image' || m.type === 'file') && m.metadata?.src ? (
                  <Attachment message={m} token={session?.token ?? null} prefix="sw-" />
                ) : (
                  m.text && <span className="sw-text">{m.text}</span>
                )}
                {kbMarkOf(m.attributes)?.id && m.sender !== session?.userId && (
                  <span className="sw-thumbs" aria-label="Was this helpful?">
                    {thumbs[m._id] === undefined ? (
                      <>
                        <button type="button" aria-label="Helpful" onClick={() => void rateAnswer(m._id, true)}>
                          👍
                        </button>
                        <button type="button" aria-label="Not helpful" onClick={() => void rateAnswer(m._id, false)}>
                          👎
                        </button>
                      </>
                    ) : (
                      <span>Thanks for telling us.</span>
                    )}
                  </span>
                )}
                {m.sender === session?.userId && (
                  <span className="sw-receipt" aria-label={receiptText(m.status ?? 200).label} title={receiptText(m.status ?? 200).label}>
                    {receiptText(m.status ?? 200).mark}
                  </span>
                )}
                {buttonsOf(m).length > 0 && (
                  <span className="sw-buttons">
                    {buttonsOf(m).map((b, i) =>
                      b.type === 'url' && b.link ? (
                        <a key={i} className="sw-button" href={b.link} target="_blank" rel="noopener noreferrer">
                          {b.value}
                        </a>
                      ) : (
                        <button key={i} type="button" className="sw-button" onClick={() => void send(b.value)} disabled={m !== last}>
                          {b.value}
                        </button>
                      ),
                    )}
                  </span>
                )}
              </li>
            ))}
            {shownDraft && (
              <li className="sw-msg sw-theirs sw-draft" data-testid="widget-draft" aria-busy="true">
                <span className="sw-text">{shownDraft.text}</span>
              </li>
            )}
          </ol>
          {typingLine(typists) && (
            <p className="sw-typing" role="status" data-testid="typing">
              {typingLine(typists)}
            </p>
          )}
          {progress && (
            <div className="sw-progress" role="status">
              Uploading {progress.name}
              <progress max={1} value={progress.fraction} aria-label={`Uploading ${progress.name}`} />
            </div>
          )}
          {error && (
            <p className="sw-error" role="alert">
              {error}
            </p>
          )}
          {closed ? (
            <div className="sw-rating">
              {rated ? (
                <p role="status">Thank you for your rating!</p>
              ) : (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (ratingValue) void rate(ratingValue, ratingComment);
                  }}
                >
                  <fieldset>
                    <legend>The conversation is closed. How did we do?</legend>
                    {[1, 2, 3, 4, 5].map((n) => (
                      <button key={n} type="button" aria-label={`${n} out of 5`} aria-pressed={ratingValue === n} onClick={() => setRatingValue(n)}>
                        {'★'.repeat(n)}
                      </button>
                    ))}
                  </fieldset>
                  {ratingValue && (
                    <>
                      <label>
                        A comment (optional)
                        <input value={ratingComment} onChange={(e) => setRatingComment(e.target.value)} />
                      </label>
                      <button type="submit">Send rating</button>
                    </>
                  )}
                </form>
              )}
              <button type="button" onClick={newConversation}>
                New conversation
              </button>
            </div>
          ) : (
            <form className="sw-input" onSubmit={onSubmit}>
              <label className="sw-visually-hidden" htmlFor="sw-text">
                Your message
              </label>
              <FilePicker inputRef={picker} className="sw-visually-hidden" onFile={(file) => void attach(file)} />
              <button type="button" className="sw-attach" aria-label="Attach a file or image" disabled={!session || inputDisabled} onClick={() => picker.current?.click()}>
                <PaperclipIcon />
              </button>
              <input
                id="sw-text"
                value={draft}
                onChange={(e) => {
                  setDraft(e.target.value);
                  if (e.target.value) keyPressed();
                }}
                placeholder={placeholder}
                disabled={!session || inputDisabled}
                autoComplete="off"
              />
              <button type="submit" disabled={!session || inputDisabled || !draft.trim()}>
                Send
              </button>
            </form>
          )}
        </section>
      )}
      <button type="button" className="sw-launcher" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Close chat' : 'Chat with us'}
      </button>
    </div>
  );
}

/** Mounts the widget for the project named by the script tag (`data-project-id`) or the page's `?project_id=`. */
function mount() {
  const script = document.querySelector<HTMLScriptElement>('script[data-project-id]');
  const projectId = script?.dataset.projectId || new URLSearchParams(location.search).get('project_id');
  // Embedded in another site, the widget still talks to the server it was loaded from.
  if (script?.src) setApiBase(new URL(script.src).origin);
  if (!projectId) {
    console.warn('support widget: no project id (data-project-id on the script tag)');
    return;
  }
  const host = document.createElement('div');
  host.id = 'support-widget';
  document.body.appendChild(host);
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = widgetCss;
  const container = document.createElement('div');
  shadow.append(style, container);
  createRoot(container).render(
    <StrictMode>
      <Widget projectId={projectId} />
    </StrictMode>,
  );
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount);
else mount();
