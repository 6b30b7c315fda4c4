import { useEffect, useRef, useState } from 'react';
import { graphql } from '../gql/index.js';
import { request } from '../api.js';
import type { ChatMessage } from './messages.js';

// Read receipts: the reader's client records DELIVERED (150) for what reached it and SEEN (300)
// for what was on screen (page visible, conversation open). Receipts never move back, so each
// message is acknowledged at most once per level from this page.

const Acknowledge = graphql(`
  mutation AcknowledgeMessage($project: String!, $request: String!, $message: String!, $status: Int!) {
    acknowledgeMessage(project_id: $project, request_id: $request, message_id: $message, status: $status) { _id status }
  }
`);

export const DELIVERED = 150;
export const SEEN = 300;

export function useReceipts(options: { messages: ChatMessage[]; me: string | undefined; token: string | null; projectId: string; requestId: string; seeing: boolean }) {
  const { messages, me, token, projectId, requestId, seeing } = options;
  const sent = useRef(new Map<string, number>());
  useEffect(() => {
    if (!me || !token) return;
    const level = seeing && document.visibilityState === 'visible' ? SEEN : DELIVERED;
    for (const m of messages) {
      if (m.sender === me || m._id.startsWith('local-')) continue;
      const recorded = Math.max(Number(m.receipts?.[me] ?? 0), sent.current.get(m._id) ?? 0);
      if (recorded >= level) continue;
      sent.current.set(m._id, level);
      void request(Acknowledge, { project: projectId, request: requestId, message: m._id, status: level }, token).catch(() => sent.current.delete(m._id));
    }
  }, [messages, me, token, projectId, requestId, seeing]);
}

/** Whether the page is on screen (not a background tab or a minimised window). */
export function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const update = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}
