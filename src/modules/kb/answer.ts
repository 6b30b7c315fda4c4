import type { BaseMessage } from '@langchain/core/messages';
import type { Config } from '../../config.js';
import type { OutboundPolicy } from '../../infra/outbound.js';
import { describeEndpointError, endpointFetch } from './model-endpoint.js';

// Answers written by a language model (any OpenAI-compatible chat endpoint, through LangChain)
// from the retrieved passages only.

export interface Passage {
  title: string;
  text: string;
}

export interface Turn {
  question: string;
  answer: string;
}

export interface ModelSettings {
  model: string;
  max_tokens: number;
  temperature: number;
  system_context: string;
}

export interface ModelAnswer {
  /** The answer with its passage citations removed. */
  text: string;
  /** 1-based numbers of the passages the model cited. */
  cited: number[];
  /** The model found no answer in the passages. */
  noAnswer: boolean;
  promptTokens?: number;
}

/** The model endpoint failed (timeout, 401, 429, ...): the caller answers `success: false`. */
export class ModelEndpointError extends Error {}

export const noAnswerMarker = 'NO_ANSWER';
const defaultPersona = 'You are a helpful customer-support assistant.';
/** Earlier turns sent with a follow-up question. */
export const historyTurns = 10;

/** One message of a prompt; LangChain's own classes are made only when a model is called. */
export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  text: string;
}

export function promptMessages(question: string, history: Turn[], passages: Passage[], settings: ModelSettings): PromptMessage[] {
  const context = passages.map((p, i) => `[${i + 1}] ${p.title}\n${p.text}`).join('\n\n');
  const system = [
    settings.system_context.trim() || defaultPersona,
    'Answer the question using only the numbered context passages below. Cite the passages you used with their ' +
      'numbers in square brackets, for example [1]. If the passages do not contain the answer, reply with exactly ' +
      `${noAnswerMarker} and nothing else.`,
    `Context passages:\n${context}`,
  ].join('\n\n');
  const turns = history.slice(-historyTurns).flatMap((t): PromptMessage[] => [
    { role: 'user', text: t.question },
    { role: 'assistant', text: t.answer },
  ]);
  return [{ role: 'system', text: system }, ...turns, { role: 'user', text: question }];
}

/**
 * LangChain's OpenAI client and message classes, loaded at the first model call: they are a
 * third of the modules the server would otherwise import at start, for a feature that is off
 * unless LLM_BASE_URL is set.
 */
let langchainChat: Promise<[typeof import('@langchain/openai'), typeof import('@langchain/core/messages')]> | undefined;
const loadLangchainChat = () => (langchainChat ??= Promise.all([import('@langchain/openai'), import('@langchain/core/messages')]));

/** Citations like [1], [2, 3] or [1][2]: their numbers, and the text without them. */
export function splitCitations(answer: string): { text: string; cited: number[] } {
  const cited: number[] = [];
  const text = answer
    .replace(/\s*\[(\d+(?:\s*,\s*\d+)*)\]/g, (_, list: string) => {
      for (const n of list.split(',')) cited.push(Number(n.trim()));
      return '';
    })
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  return { text, cited: [...new Set(cited)] };
}

export class ChatAnswerer {
  private fetch: typeof fetch;

  constructor(
    private llm: Config['llm'] & { baseUrl: string },
    outbound: OutboundPolicy,
  ) {
    this.fetch = endpointFetch(llm.baseUrl, outbound, llm.timeoutMs);
  }

  async answer(question: string, history: Turn[], passages: Passage[], settings: ModelSettings): Promise<ModelAnswer> {
    const [{ ChatOpenAICompletions }, { AIMessage, HumanMessage, SystemMessage }] = await loadLangchainChat();
    const messages = promptMessages(question, history, passages, settings).map((m): BaseMessage => {
      if (m.role === 'system') return new SystemMessage(m.text);
      return m.role === 'user' ? new HumanMessage(m.text) : new AIMessage(m.text);
    });
    const model = new ChatOpenAICompletions({
      model: settings.model,
      maxTokens: settings.max_tokens,
      temperature: settings.temperature,
      apiKey: this.llm.apiKey ?? 'unused',
      timeout: this.llm.timeoutMs,
      maxRetries: 0,
      configuration: { baseURL: this.llm.baseUrl, fetch: this.fetch },
    });
    let reply;
    try {
      reply = await model.invoke(messages);
    } catch (error) {
      throw new ModelEndpointError(describeEndpointError(error, this.llm.timeoutMs));
    }
    const raw = reply.text.trim();
    const promptTokens = reply.usage_metadata?.input_tokens;
    if (!raw || raw.startsWith(noAnswerMarker)) return { text: '', cited: [], noAnswer: true, promptTokens };
    const { text, cited } = splitCitations(raw);
    return { text, cited: cited.filter((n) => n >= 1 && n <= passages.length), noAnswer: false, promptTokens };
  }
}
