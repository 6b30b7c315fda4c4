import { z } from 'zod';
import { parseInput } from '../../../errors.js';
import type { Logger } from '../../../infra/logger.js';
import { ModelEndpointError, promptMessages, type ChatAnswerer, type ModelAnswer, type ModelSettings, type Turn } from './answer.js';
import { chunkOf } from '../reading/documents.js';
import { hybridRetriever } from '../retrieval/hybrid-retriever.js';
import type { LearningService } from '../learning/learning.js';
import { extractiveAnswer, leadAnswer } from './extractive.js';
import type { KnowledgeBaseService } from '../namespaces.js';
import type { RetrievedChunk } from '../retrieval/passage.js';
import type { Retriever } from '../retrieval/retrieval.js';
import { settingRanges } from './settings.js';
import { estimateTokens } from './tokens.js';

// Question answering over a knowledge base: retrieve the best chunks, then answer from them with
// the configured model, or extractively without one. Never an answer the contents do not support.

const turn = z.object({
  question: z.string().max(4000, 'must be at most 4000 characters'),
  answer: z.string().max(20_000, 'must be at most 20000 characters'),
});

const askInput = z.object({
  question: z.string().trim().min(1, 'is required').max(4000, 'must be at most 4000 characters'),
  namespace: z.string().optional(),
  model: settingRanges.model.optional(),
  system_context: settingRanges.context.optional(),
  max_tokens: settingRanges.max_tokens.optional(),
  temperature: settingRanges.temperature.optional(),
  top_k: settingRanges.top_k.optional(),
  chat_history_dict: z
    .record(z.string().regex(/^\d+$/, 'keys must be turn numbers (0, 1, ...)'), turn, {
      message: 'must be an object of {question, answer} keyed by turn number',
    })
    .refine((history) => Object.keys(history).length <= 100, 'must hold at most 100 turns')
    .optional(),
});

export interface QaResult {
  answer: string;
  success: boolean;
  namespace: string;
  id: string | null;
  ids: string[];
  source: string | null;
  sources: string[];
  content_chunks: string[] | null;
  prompt_token_size: number;
  error_message: string | null;
  chat_history_dict: Record<string, Turn>;
}

export const notFoundAnswer = 'I could not find an answer to this question in the knowledge base.';

/** A piece of a streamed answer (kbAnswerStream): text to append, then the whole answer. */
export type QaPiece = { delta: string; result?: undefined } | { delta?: undefined; result: QaResult };

interface Prepared {
  question: string;
  settings: ModelSettings & { top_k: number };
  history: Turn[];
  /** The question searched: a follow-up is searched with the question before it. */
  query: string;
  chunks: RetrievedChunk[];
  reply: (fields: Partial<QaResult>, used?: RetrievedChunk[]) => QaResult;
}

export class QaService {
  constructor(
    private namespaces: KnowledgeBaseService,
    private retriever: Retriever,
    private learning: LearningService,
    private answerer: ChatAnswerer | null,
    private logger: Logger,
  ) {}

  async ask(projectId: string, actorId: string, input: unknown): Promise<QaResult> {
    const prepared = await this.prepare(projectId, actorId, input);
    if (!prepared.chunks.length) return prepared.reply({ answer: notFoundAnswer, success: false });
    if (!this.answerer) return this.extractive(prepared);
    const { question, history, settings, chunks, reply } = prepared;
    try {
      return this.modelReply(prepared, await this.answerer.answer(question, history, passagesOf(chunks), settings));
    } catch (error) {
      if (!(error instanceof ModelEndpointError)) throw error;
      this.logger.warn({ err: error.message, projectId }, 'knowledge-base answer failed at the model endpoint');
      return reply({ answer: '', success: false, error_message: error.message });
    }
  }

  /**
   * The answer as it is written: `{delta}` pieces, then `{result}` (what `ask` answers). Without a
   * model, or when it abstains, the answer comes as one piece (none when there is no answer).
   */
  async *stream(projectId: string, actorId: string, input: unknown): AsyncGenerator<QaPiece> {
    const prepared = await this.prepare(projectId, actorId, input);
    if (!prepared.chunks.length) {
      yield { result: prepared.reply({ answer: notFoundAnswer, success: false }) };
      return;
    }
    if (!this.answerer) {
      const result = this.extractive(prepared);
      yield { delta: result.answer };
      yield { result };
      return;
    }
    const { question, history, settings, chunks, reply } = prepared;
    try {
      for await (const piece of this.answerer.stream(question, history, passagesOf(chunks), settings)) {
        if ('delta' in piece) yield { delta: piece.delta };
        else yield { result: this.modelReply(prepared, piece.done) };
      }
    } catch (error) {
      if (!(error instanceof ModelEndpointError)) throw error;
      this.logger.warn({ err: error.message, projectId }, 'knowledge-base answer failed at the model endpoint');
      yield { result: reply({ answer: '', success: false, error_message: error.message }) };
    }
  }

  private async prepare(projectId: string, actorId: string, input: unknown): Promise<Prepared> {
    const data = parseInput(askInput, input);
    const kb = await this.namespaces.resolve(projectId, data.namespace, actorId);
    const defaults = this.namespaces.settings(kb);
    const settings = {
      model: data.model ?? defaults.model,
      max_tokens: data.max_tokens ?? defaults.max_tokens,
      temperature: data.temperature ?? defaults.temperature,
      top_k: data.top_k ?? defaults.top_k,
      system_context: data.system_context ?? defaults.context,
    };
    const history = Object.entries(data.chat_history_dict ?? {})
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, t]) => t);
    const reply = (fields: Partial<QaResult>, used: RetrievedChunk[] = []): QaResult => {
      const cited = citations(used);
      const answer = fields.answer ?? '';
      const success = fields.success ?? false;
      return {
        answer,
        success,
        namespace: kb.id,
        id: cited.ids[0] ?? null,
        ids: cited.ids,
        source: cited.sources[0] ?? null,
        sources: cited.sources,
        content_chunks: used.length ? used.map((c) => c.text) : null,
        prompt_token_size: fields.prompt_token_size ?? 0,
        error_message: fields.error_message ?? null,
        chat_history_dict: withTurn(history, success ? { question: data.question, answer } : null),
      };
    };

    // A follow-up ("and for orders abroad?") is searched together with the question before it.
    const previous = history.at(-1)?.question;
    const query = previous ? `${previous}\n${data.question}` : data.question;
    // Through the LangChain retriever over our hybrid search: Documents with their chunk's metadata.
    const retriever = await hybridRetriever({ retriever: this.retriever, projectId, namespace: kb.id, topK: settings.top_k });
    const found = (await retriever.invoke(query)).map(chunkOf);
    // A content an agent said does not answer this question never answers it first again.
    const ordered = await this.learning.demote(projectId, kb.id, data.question, found);
    // Nothing relevant (KB_MIN_COVERAGE, KB_MIN_SIMILARITY, calibrated on bench/kb-quality.bench.ts):
    // better no answer than the least bad passage of an unrelated knowledge base.
    const chunks = this.retriever.relevant(ordered[0]) ? ordered : [];
    return { question: data.question, settings, history, query, chunks, reply };
  }

  /** The best passage quoted (its sentences that share the question's words, else its opening); ids and sources list every retrieved content, best first. */
  private extractive({ question, query, settings, chunks, reply }: Prepared): QaResult {
    const best = chunks[0];
    const quoted =
      extractiveAnswer(question, [best], settings.max_tokens) ??
      (query !== question ? extractiveAnswer(query, [best], settings.max_tokens) : null) ??
      leadAnswer(best, settings.max_tokens);
    const promptTokens = estimateTokens([question, ...chunks.map((c) => c.text)]);
    return reply({ answer: quoted.text, success: true, prompt_token_size: promptTokens }, chunks);
  }

  private modelReply({ question, history, settings, chunks, reply }: Prepared, generated: ModelAnswer): QaResult {
    const promptTokens =
      generated.promptTokens ?? estimateTokens(promptMessages(question, history, passagesOf(chunks), settings).map((m) => m.text));
    if (generated.noAnswer) return reply({ answer: notFoundAnswer, success: false, prompt_token_size: promptTokens });
    const used = generated.cited.length ? generated.cited.map((n) => chunks[n - 1]) : chunks;
    return reply({ answer: generated.text, success: true, prompt_token_size: promptTokens }, used);
  }
}

function passagesOf(chunks: RetrievedChunk[]) {
  return chunks.map((c) => ({ title: c.contentName, text: c.text }));
}

/** One id and one source per content, in the order the answer used them. */
function citations(chunks: RetrievedChunk[]) {
  const ids: string[] = [];
  const sources: string[] = [];
  for (const chunk of chunks) {
    if (ids.includes(chunk.contentId)) continue;
    ids.push(chunk.contentId);
    sources.push(chunk.source || chunk.contentName);
  }
  return { ids, sources };
}

function withTurn(history: Turn[], latest: Turn | null): Record<string, Turn> {
  const turns = latest ? [...history, latest] : history;
  return Object.fromEntries(turns.map((t, i) => [String(i), t]));
}
