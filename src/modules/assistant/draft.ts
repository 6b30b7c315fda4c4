import type { Logger } from '../../infra/logger.js';
import { ModelEndpointError, type ChatAnswerer, type ModelSettings, type Passage, type Turn } from '../kb/answering/answer.js';
import type { SuggestedReply } from './reply.js';

// A reply drafted by the configured chat model (the knowledge base's LangChain chain: initChatModel
// behind a ChatPromptTemplate), grounded in the suggestions the sources gave and the conversation:
// they are its numbered passages, its citations name which it used. Without sources there is no
// draft (nothing to ground it in); a model that finds no answer in them drafts nothing.

const instructions =
  'You write the next reply a customer-support agent will send to the visitor, ready to send, in the language the visitor writes in. ' +
  'The passages are what the knowledge base says, what agents answered to similar questions before, and saved replies.';

export interface DraftPiece {
  delta?: string;
  reply?: SuggestedReply | null;
}

export interface DraftInput {
  question: string;
  turns: Turn[];
  sources: SuggestedReply[];
  settings: ModelSettings;
}

const titleOf = (s: SuggestedReply) =>
  s.source === 'kb' ? 'Knowledge base' : s.source === 'history' ? 'An earlier answer by an agent' : 'A saved reply';

function passagesOf(sources: SuggestedReply[]): Passage[] {
  return sources.map((s) => ({ title: titleOf(s), text: s.text }));
}

function settingsOf(settings: ModelSettings): ModelSettings {
  return { ...settings, system_context: [instructions, settings.system_context].filter(Boolean).join('\n\n') };
}

function replyOf(text: string, cited: number[], sources: SuggestedReply[]): SuggestedReply {
  const used = (cited.length ? cited.map((n) => sources[n - 1]) : sources).filter(Boolean);
  return { text, source: 'model', ref: null, score: 1, cites: used.map((s) => ({ source: s.source, ref: s.ref })) };
}

export class ReplyDrafter {
  constructor(
    private answerer: ChatAnswerer,
    private logger: Logger,
  ) {}

  /** The whole draft, or null (no sources, no answer in them, or the model endpoint failed). */
  async draft(projectId: string, input: DraftInput): Promise<SuggestedReply | null> {
    if (!input.sources.length) return null;
    try {
      const answer = await this.answerer.answer(input.question, input.turns, passagesOf(input.sources), settingsOf(input.settings));
      return answer.noAnswer || !answer.text ? null : replyOf(answer.text, answer.cited, input.sources);
    } catch (error) {
      if (!(error instanceof ModelEndpointError)) throw error;
      this.logger.warn({ err: error.message, projectId }, 'assistant: the draft failed at the model endpoint');
      return null;
    }
  }

  /** The draft as it is written: `{delta}` pieces, then `{reply}` (null when there is none). */
  async *stream(projectId: string, input: DraftInput): AsyncGenerator<DraftPiece> {
    if (!input.sources.length) {
      yield { reply: null };
      return;
    }
    try {
      for await (const piece of this.answerer.stream(input.question, input.turns, passagesOf(input.sources), settingsOf(input.settings))) {
        if ('delta' in piece) yield { delta: piece.delta };
        else yield { reply: piece.done.noAnswer || !piece.done.text ? null : replyOf(piece.done.text, piece.done.cited, input.sources) };
      }
    } catch (error) {
      if (!(error instanceof ModelEndpointError)) throw error;
      this.logger.warn({ err: error.message, projectId }, 'assistant: the draft failed at the model endpoint');
      yield { reply: null };
    }
  }
}
