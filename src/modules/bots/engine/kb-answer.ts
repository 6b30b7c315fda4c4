import { randomUUID } from 'node:crypto';
import type { Bot } from '../../../generated/prisma/client.js';
import type { EventBus } from '../../../infra/event-bus.js';
import type { Logger } from '../../../infra/logger.js';
import { publishDraft } from '../../kb/answering/answer-drafts.js';
import type { QaResult, QaService } from '../../kb/answering/qa.js';
import { botSender } from '../../auth/bot-identity.js';
import type { KnowledgeAnswer } from './dialog.js';

// An internal bot whose `kb_namespace` names a knowledge base answers from it what none of its
// intents matches, as POST /kb/qa would (the configured model, else a quote of the best passage),
// before its fallback intent. The answer is streamed: each piece is published as a draft of the
// request (kbAnswerDrafts, answer-drafts.ts), and the message, posted when the answer is complete,
// names the draft in `attributes.kb.draft_id`. The passage's source goes with the message, in
// `attributes.kb`, with the question it answered (for the visitor's thumbs, kbRateAnswer).

/** The knowledge-base step of a bot's dialog; none when the bot names no knowledge base. */
export function knowledgeAnswer(
  qa: QaService,
  bot: Bot,
  logger: Logger,
  drafts?: { bus: EventBus; requestId: string },
): KnowledgeAnswer | undefined {
  const namespace = bot.kb_namespace;
  if (!namespace || bot.type !== 'internal') return undefined;
  return async (question) => {
    if (!question.trim() || question.length > 4000) return null;
    const draftId = randomUUID();
    let text = '';
    let result: QaResult | undefined;
    try {
      for await (const piece of qa.stream(bot.id_project, botSender(bot.id), { namespace, question })) {
        if (piece.result) {
          result = piece.result;
          continue;
        }
        text += piece.delta;
        if (drafts && piece.delta) {
          const draft = { request_id: drafts.requestId, draft_id: draftId, sender: botSender(bot.id), delta: piece.delta, text, done: false };
          await publishDraft(drafts.bus, bot.id_project, draft);
        }
      }
      if (drafts && text) {
        await publishDraft(drafts.bus, bot.id_project, { request_id: drafts.requestId, draft_id: draftId, sender: botSender(bot.id), delta: '', text, done: true });
      }
      if (!result?.success || !result.answer) return null;
      return {
        text: result.answer,
        // A passage is quoted as written: its "* " lines are a list, not buttons.
        attributes: {
          microlanguage: false,
          kb: { namespace, id: result.id, source: result.source, sources: result.sources, question, ...(text ? { draft_id: draftId } : {}) },
        },
      };
    } catch (error) {
      // A deleted knowledge base, a model endpoint down: the bot falls back as if it had none.
      logger.warn({ err: (error as Error).message, bot: bot.id }, 'a bot could not answer from its knowledge base');
      return null;
    }
  };
}
