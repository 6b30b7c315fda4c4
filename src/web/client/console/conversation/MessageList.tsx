import { useEffect, useRef, useState } from 'react';
import { request } from '../../api.js';
import { Attachment, receiptText } from '../../shared/attachments.js';
import { KbFeedback, kbMarkOf } from '../../shared/kb.js';
import { buttonsOf, type ChatMessage } from '../../shared/messages.js';
import { AddKbContent, KnowledgeBases } from '../manage-operations.js';
import { useSession } from '../session.js';
import type { Act } from './DetailsPanel.js';

// The conversation's messages and what happened to it, in time order, with receipts and the
// buttons a bot offered; from here the agent also teaches the knowledge base.

export type TimelineEntry = { seq: number; at: string; text: string; name?: string };

/** Messages and what happened to the conversation, in the order they happened (the first opening is the first message itself). */
function withTimeline(messages: ChatMessage[], timeline: TimelineEntry[]) {
  const at = (item: ChatMessage | { at: string }) => ('at' in item ? Date.parse(item.at) : Number(item.attributes?.clienttimestamp ?? Date.parse(item.createdAt)));
  const events = timeline.filter((e, k) => !(k === 0 && e.name === 'request.create'));
  return [...messages, ...events].sort((a, b) => at(a) - at(b));
}

export function MessageList({ projectId, messages, timeline, act }: { projectId: string; messages: ChatMessage[]; timeline: TimelineEntry[]; act: Act }) {
  const { token, userId } = useSession();
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView?.({ block: 'end' });
  }, [messages.length]);

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

  return (
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
  );
}
