import { Repeater } from 'graphql-yoga';
import type { EventBus } from '../../../infra/event-bus.js';

// A bot's knowledge answer as it is written, for the widget: each piece goes over the bus (never
// stored, like typing indicators) on the request's channel; the bot's message is posted, as every
// message is, once the answer is complete, and its `attributes.kb.draft_id` names the draft it
// replaces. A client that joins late gets the text so far with the next piece.

export interface AnswerDraft {
  request_id: string;
  draft_id: string;
  /** The bot writing (bot_<id>). */
  sender: string;
  /** Text added since the previous piece ('' on the last). */
  delta: string;
  /** The whole text so far. */
  text: string;
  /** The answer is complete: its message follows (or none, when the bot found no answer after all). */
  done: boolean;
}

const channel = (projectId: string) => `kb-answer-drafts:${projectId}`;

export function publishDraft(bus: EventBus, projectId: string, draft: AnswerDraft) {
  return bus.publish(channel(projectId), { ...draft });
}

export function draftStream(bus: EventBus, projectId: string, requestId: string) {
  return new Repeater<AnswerDraft>(async (push, stop) => {
    const unsubscribe = bus.subscribe(channel(projectId), (message) => {
      if (message.request_id === requestId) void push(message as unknown as AnswerDraft);
    });
    await stop;
    unsubscribe();
  });
}
