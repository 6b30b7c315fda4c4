import { useCallback, useEffect, useState } from 'react';
import { ApiError, request, subscribe } from '../api.js';
import { attachmentMessage, dropTarget, refusal, upload } from '../shared/attachments.js';
import { merged, type ChatMessage } from '../shared/messages.js';
import { usePageVisible, useReceipts } from '../shared/receipts.js';
import { typingLine, useTyping } from '../shared/typing.js';
import { MarkSeen, Conversation as ConversationQuery, MessageEvents, Reply } from './operations.js';
import { useProjectEvents } from './live.js';
import { SuggestionBar, SummaryPanel } from './Assistant.js';
import { MergeDialog, MergedNotice } from './Merge.js';
import type { View } from './router.js';
import { useSession } from './session.js';
import { useLatestRead } from '../shared/latest-read.js';
import { BackToInbox, ConversationHeader } from './conversation/Header.js';
import { MessageList, type TimelineEntry } from './conversation/MessageList.js';
import { ReplyBox } from './conversation/ReplyBox.js';
import { DetailsPanel, type Details } from './conversation/DetailsPanel.js';

// One conversation on screen, its sections in conversation/: the header with what an agent does
// to it, the messages, the reply box and the side panel. This file holds what they share: the
// conversation read and kept live, the draft, and the notice or error of the last action.

const gone = 'This conversation no longer exists: it was deleted (its contact was erased, or the retention policy removed it).';

/** One conversation: its messages live, the reply box, and what an agent does to it. */
export function Conversation({ projectId, requestId, view, onBack }: { projectId: string; requestId: string; view: View; onBack: () => void }) {
  const { token, live, userId } = useSession();
  const [details, setDetails] = useState<Details | null>(null);
  const [timeline, setTimeline] = useState<TimelineEntry[]>([]);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const [merging, setMerging] = useState(false);
  const [merges, setMerges] = useState(0);
  const [deleted, setDeleted] = useState(false);
  const pageVisible = usePageVisible();
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

  // A message sent from here shows at once (the subscription's copy of it is merged away).
  async function post(message: { text: string; type?: string; metadata?: unknown }) {
    const r = await request(Reply, { project: projectId, request: requestId, ...message, attributes: { clienttimestamp: Date.now() } }, token);
    setMessages((m) => merged(m, [r.sendMessage]));
  }

  async function attach(file: File) {
    setError(null);
    const refused = await refusal(file).catch(() => null);
    if (refused) return setError(refused);
    setProgress({ name: file.name, fraction: 0 });
    try {
      const uploaded = await upload(projectId, token, file, (fraction) => setProgress({ name: file.name, fraction }));
      await post(attachmentMessage(file, uploaded));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setProgress(null);
    }
  }

  const closed = details?.status === 1000;
  const mergedInto = details?.merged_into ?? null;

  if (deleted)
    return (
      <section className="conversation" aria-label="Conversation">
        <header className="conversation-header">
          <BackToInbox onBack={onBack} />
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
      <ConversationHeader
        projectId={projectId}
        requestId={requestId}
        details={details}
        closed={closed}
        merged={Boolean(mergedInto)}
        act={act}
        onBack={onBack}
        onMerge={() => setMerging(true)}
      />
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
      <MessageList projectId={projectId} messages={messages} timeline={timeline} act={act} />
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
        <ReplyBox
          projectId={projectId}
          requestId={requestId}
          draft={draft}
          setDraft={setDraft}
          onSend={(text) => act(() => post({ text }))}
          onAttach={(file) => void attach(file)}
          typing={{ keyPressed, stopped }}
        />
      )}
      <DetailsPanel projectId={projectId} requestId={requestId} view={view} details={details} closed={closed} merged={Boolean(mergedInto)} merges={merges} act={act} />
    </section>
  );
}
