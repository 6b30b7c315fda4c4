import { z } from 'zod';
import { parseInput } from '../../errors.js';
import type { Logger } from '../../infra/logger.js';
import { ModelEndpointError, promptMessages, type ChatAnswerer, type Turn } from './answer.js';
import { extractiveAnswer, leadAnswer } from './extractive.js';
import type { KnowledgeBaseService } from './namespaces.js';
import type { RetrievedChunk } from './passage.js';
import type { Retriever } from './retrieval.js';
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

export class QaService {
  constructor(
    private namespaces: KnowledgeBaseService,
    private retriever: Retriever,
    private answerer: ChatAnswerer | null,
    private logger: Logger,
  ) {}

  async ask(projectId: string, actorId: string, input: unknown): Promise<QaResult> {
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
    const found = await this.retriever.search(projectId, kb.id, query, settings.top_k);
    // Nothing relevant (KB_MIN_COVERAGE, KB_MIN_SIMILARITY, calibrated on bench/kb-quality.bench.ts):
    // better no answer than the least bad passage of an unrelated knowledge base.
    const chunks = this.retriever.relevant(found[0]) ? found : [];
    if (!chunks.length) return reply({ answer: notFoundAnswer, success: false });

    if (!this.answerer) {
      // The best passage is quoted (its sentences that share the question's words, else its
      // opening); ids and sources list every retrieved content, best first.
      const best = chunks[0];
      const quoted =
        extractiveAnswer(data.question, [best], settings.max_tokens) ??
        (previous ? extractiveAnswer(query, [best], settings.max_tokens) : null) ??
        leadAnswer(best, settings.max_tokens);
      const promptTokens = estimateTokens([data.question, ...chunks.map((c) => c.text)]);
      return reply({ answer: quoted.text, success: true, prompt_token_size: promptTokens }, chunks);
    }

    const passages = chunks.map((c) => ({ title: c.contentName, text: c.text }));
    try {
      const generated = await this.answerer.answer(data.question, history, passages, settings);
      const promptTokens =
        generated.promptTokens ??
        estimateTokens(promptMessages(data.question, history, passages, settings).map((m) => m.text));
      if (generated.noAnswer) return reply({ answer: notFoundAnswer, success: false, prompt_token_size: promptTokens });
      const used = generated.cited.length ? generated.cited.map((n) => chunks[n - 1]) : chunks;
      return reply({ answer: generated.text, success: true, prompt_token_size: promptTokens }, used);
    } catch (error) {
      if (!(error instanceof ModelEndpointError)) throw error;
      this.logger.warn({ err: error.message, projectId }, 'knowledge-base answer failed at the model endpoint');
      return reply({ answer: '', success: false, error_message: error.message });
    }
  }
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
