import type { Bot } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import type { QaService } from '../../kb/qa.js';
import { botSender } from '../identity.js';
import type { KnowledgeAnswer } from './dialog.js';

// An internal bot whose `kb_namespace` names a knowledge base answers from it what none of its
// intents matches, as POST /kb/qa would (the configured model, else a quote of the best passage),
// before its fallback intent. The passage's source goes with the message, in `attributes.kb`.

/** The knowledge-base step of a bot's dialog; none when the bot names no knowledge base. */
export function knowledgeAnswer(qa: QaService, bot: Bot, logger: Logger): KnowledgeAnswer | undefined {
  const namespace = bot.kb_namespace;
  if (!namespace || bot.type !== 'internal') return undefined;
  return async (question) => {
    if (!question.trim() || question.length > 4000) return null;
    try {
      const result = await qa.ask(bot.id_project, botSender(bot.id), { namespace, question });
      if (!result.success || !result.answer) return null;
      return {
        text: result.answer,
        // A passage is quoted as written: its "* " lines are a list, not buttons.
        attributes: { microlanguage: false, kb: { namespace, id: result.id, source: result.source, sources: result.sources } },
      };
    } catch (error) {
      // A deleted knowledge base, a model endpoint down: the bot falls back as if it had none.
      logger.warn({ err: (error as Error).message, bot: bot.id }, 'a bot could not answer from its knowledge base');
      return null;
    }
  };
}
