import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import type { Config } from '../../../config.js';
import type { OutboundPolicy } from '../../../infra/outbound.js';
import { describeEndpointError, endpointFetch } from './model-endpoint.js';

// Answers written by a language model (any LangChain chat model; by default an OpenAI-compatible
// chat endpoint) from the retrieved passages only, whole or streamed.

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

/** A piece of a streamed answer: text to show, or the end with the whole answer. */
export type AnswerPiece = { delta: string } | { done: ModelAnswer };

/** Makes the chat model for one answer (any LangChain chat model; the default: an OpenAI-compatible endpoint). */
export type ChatModelFactory = (settings: ModelSettings) => Promise<BaseChatModel>;

/**
 * The answer as a LangChain runnable chain: the retrieved Documents and the conversation become a
 * prompt (ChatPromptTemplate, the history through a MessagesPlaceholder), then any chat model.
 * LangChain is loaded at the first answer, not when the server starts.
 */
export class ChatAnswerer {
  private makeModel: ChatModelFactory;

  constructor(
    private llm: Config['llm'] & { baseUrl: string },
    outbound: OutboundPolicy,
    makeModel?: ChatModelFactory,
  ) {
    const fetch = endpointFetch(llm.baseUrl, outbound, llm.timeoutMs);
    // LangChain's universal initChatModel (package `langchain`): OpenAI-compatible endpoints
    // (OpenAI, Ollama, vLLM, LM Studio) by base URL, through the outbound module's fetch.
    this.makeModel =
      makeModel ??
      (async (settings) => {
        const { initChatModel } = await import('langchain/chat_models/universal');
        const model = await initChatModel(settings.model, {
          modelProvider: 'openai',
          maxTokens: settings.max_tokens,
          temperature: settings.temperature,
          apiKey: llm.apiKey ?? 'unused',
          timeout: llm.timeoutMs,
          maxRetries: 0,
          // Chat completions, which every OpenAI-compatible server speaks (not the Responses API).
          useResponsesApi: false,
          configuration: { baseURL: llm.baseUrl, fetch },
        });
        return model as unknown as BaseChatModel;
      });
  }

  async answer(question: string, history: Turn[], passages: Passage[], settings: ModelSettings): Promise<ModelAnswer> {
    const chain = await this.chain(settings);
    let reply;
    try {
      reply = await chain.invoke({ question, history, passages, settings });
    } catch (error) {
      throw new ModelEndpointError(describeEndpointError(error, this.llm.timeoutMs));
    }
    return finish(reply.text, passages.length, reply.usage_metadata?.input_tokens);
  }

  /**
   * The answer as it is written: its text in pieces (citation marks held back and dropped, the
   * no-answer marker never shown), then the whole answer as `answer` would give it.
   */
  async *stream(question: string, history: Turn[], passages: Passage[], settings: ModelSettings): AsyncGenerator<AnswerPiece> {
    const chain = await this.chain(settings);
    const visible = new CitationFilter();
    let raw = '';
    let shown = 0;
    let promptTokens: number | undefined;
    try {
      for await (const chunk of await chain.stream({ question, history, passages, settings })) {
        const text = typeof chunk.content === 'string' ? chunk.content : chunk.text;
        promptTokens = chunk.usage_metadata?.input_tokens ?? promptTokens;
        if (!text) continue;
        raw += text;
        // The model may say it has no answer: nothing is shown until the text cannot be the marker.
        if (isMarkerPrefix(raw.trimStart())) continue;
        const delta = visible.push(raw.slice(shown));
        shown = raw.length;
        if (delta) yield { delta };
      }
    } catch (error) {
      throw new ModelEndpointError(describeEndpointError(error, this.llm.timeoutMs));
    }
    const tail = isMarkerPrefix(raw.trimStart()) ? '' : visible.end();
    if (tail) yield { delta: tail };
    yield { done: finish(raw, passages.length, promptTokens) };
  }

  private async chain(settings: ModelSettings) {
    const [{ ChatPromptTemplate, MessagesPlaceholder }, { RunnableLambda }, { AIMessage, HumanMessage }, model] = await Promise.all([
      import('@langchain/core/prompts'),
      import('@langchain/core/runnables'),
      import('@langchain/core/messages'),
      this.makeModel(settings),
    ]);
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', '{instructions}'],
      new MessagesPlaceholder('history'),
      ['human', '{question}'],
    ]);
    // The prompt's text is written in one place (promptMessages), which also estimates its tokens.
    const inputs = RunnableLambda.from((input: ChainInput) => {
      const [system, ...rest] = promptMessages(input.question, input.history, input.passages, input.settings);
      return {
        instructions: system.text,
        history: rest.slice(0, -1).map((m): BaseMessage => (m.role === 'user' ? new HumanMessage(m.text) : new AIMessage(m.text))),
        question: input.question,
      };
    });
    return inputs.pipe(prompt).pipe(model);
  }
}

interface ChainInput {
  question: string;
  history: Turn[];
  passages: Passage[];
  settings: ModelSettings;
}

function finish(answer: string, passages: number, promptTokens: number | undefined): ModelAnswer {
  const raw = answer.trim();
  if (!raw || raw.startsWith(noAnswerMarker)) return { text: '', cited: [], noAnswer: true, promptTokens };
  const { text, cited } = splitCitations(raw);
  return { text, cited: cited.filter((n) => n >= 1 && n <= passages), noAnswer: false, promptTokens };
}

function isMarkerPrefix(text: string) {
  return text.length === 0 || (text.length <= noAnswerMarker.length ? noAnswerMarker.startsWith(text) : text.startsWith(noAnswerMarker));
}

/**
 * Streamed text without its citation marks ([1], [2, 3]): text that may begin one is held until
 * it is known not to. Spacing may differ from the final answer's by the space before a mark.
 */
export class CitationFilter {
  private pending = '';
  /** Spaces at the end of what was let through: they go before the next word, not before a mark. */
  private held = '';
  private started = false;

  push(text: string): string {
    this.pending += text;
    let out = this.held;
    this.held = '';
    for (;;) {
      const open = this.pending.indexOf('[');
      if (open < 0) {
        out += this.pending;
        this.pending = '';
        break;
      }
      out += this.pending.slice(0, open);
      const rest = this.pending.slice(open);
      const mark = /^\[\d+(?:\s*,\s*\d+)*\]/.exec(rest);
      if (mark) {
        out = out.replace(/[ \t]+$/, '');
        this.pending = rest.slice(mark[0].length);
        continue;
      }
      if (/^\[[\d,\s]*$/.test(rest)) {
        this.pending = rest;
        break;
      }
      out += '[';
      this.pending = rest.slice(1);
    }
    if (!this.started) {
      out = out.trimStart();
      if (out) this.started = true;
    }
    const trailing = /[ \t]+$/.exec(out);
    if (trailing) {
      this.held = trailing[0];
      out = out.slice(0, trailing.index);
    }
    return out;
  }

  end(): string {
    const out = this.pending;
    this.pending = '';
    this.held = '';
    return out.trimEnd();
  }
}
