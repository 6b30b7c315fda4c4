import type { Intent } from '../../../generated/prisma/client.js';
import type { IntentForm } from '../intents.js';
import { fallbackIntent, startIntent } from '../templates.js';
import { normalize, type IntentIndex } from './matcher.js';

// What an internal bot does with one end-user message: pure, so the rules read in one place.
// The engine supplies what it knows (the text, whether the bot spoke yet, a form in progress)
// and carries out the turn (parameters, messages, then the hand-off or close).

/** An answer from the bot's knowledge base, or null when it holds none for the question. */
export type KnowledgeAnswer = (question: string) => Promise<BotReply | null>;

/** A form waiting for the end user's answer to field `field` of intent `intent`. */
export interface PendingForm {
  intent: string;
  field: number;
}

export interface BotReply {
  text: string;
  attributes: Record<string, unknown>;
}

export interface BotTurn {
  /** Values to merge into the request's chatbot parameters before replying. */
  parameters?: Record<string, string>;
  replies: BotReply[];
  action?: 'agent' | 'close';
  /** The request's new priority (an answer's `\\priority:urgent`), set before any hand-off. */
  priority?: 'urgent' | 'hight' | 'normal' | 'low';
}

export interface DialogInput {
  text: string;
  /** The bot has not spoken in this request yet. */
  first: boolean;
  pending: PendingForm | null;
  parameters: Record<string, unknown>;
}

/** Attribute of a bot's message that asks a form field; the next end-user message answers it. */
export const formAttribute = 'chatbot_form';

const commands = { '\\agent': 'agent', '\\close': 'close' } as const;
const actionPattern = /\\(agent|close)\b/g;
// `\priority:urgent` in an answer: the bot sets the request's priority (Tiledesk's values).
const priorityPattern = /\\priority:(urgent|hight|normal|low)\b/g;
// Form answers are tested against admin-written patterns: a bounded input keeps that cheap.
const maxTestedLength = 1000;

/** What widgets send when a conversation opens: the bot greets (its start intent). */
export const startCommand = '\\start';

/**
 * A message is answered on its merits, the first one included: a command, a form in progress,
 * then the intent it asks for. The start intent greets on `\start`, and when the bot has not
 * spoken yet and nothing matches; after that the bot's knowledge base (when it names one, see
 * kb-answer.ts), then the fallback, answer what nothing matches.
 */
export async function respond(index: IntentIndex, input: DialogInput, knowledge?: KnowledgeAnswer): Promise<BotTurn> {
  const said = input.text.trim().toLowerCase();
  const command = commands[said as keyof typeof commands];
  if (command) return { replies: [], action: command };
  const start = index.intent(startIntent);
  if (said === startCommand) return start?.enabled ? answer(start, input.parameters) : { replies: [] };
  if (input.pending) {
    const intent = index.intent(input.pending.intent);
    const form = intent?.form as IntentForm | null | undefined;
    if (intent && form?.fields[input.pending.field]) return answerField(intent, form, input);
  }
  const match = index.match(input.text);
  if (match) return answer(match.intent, input.parameters);
  if (input.first && start?.enabled) return answer(start, input.parameters);
  // No intent matched: the bot's knowledge base answers, when it has one and finds something.
  const found = knowledge ? await knowledge(input.text) : null;
  if (found) return { replies: [found] };
  const fallback = index.intent(fallbackIntent);
  return fallback?.enabled ? answer(fallback, input.parameters) : { replies: [] };
}

/** An intent's answer, or the first question of its form. */
function answer(intent: Intent, parameters: Record<string, unknown>): BotTurn {
  const form = intent.form as IntentForm | null;
  if (form?.fields.length) return { replies: [ask(intent, form, 0)] };
  return finalAnswer(intent, parameters);
}

function finalAnswer(intent: Intent, parameters: Record<string, unknown>): BotTurn {
  const action = [...intent.answer.matchAll(actionPattern)][0]?.[1] as BotTurn['action'];
  const priority = [...intent.answer.matchAll(priorityPattern)].at(-1)?.[1] as BotTurn['priority'];
  const text = fill(intent.answer.replace(actionPattern, '').replace(priorityPattern, ''), parameters)
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
  const replies = text ? [{ text, attributes: { ...(intent.attributes as object), intentName: intent.intent_display_name } }] : [];
  return { replies, action, ...(priority ? { priority } : {}) };
}

function ask(intent: Intent, form: IntentForm, field: number, text = form.fields[field].label): BotReply {
  return {
    text,
    attributes: { intentName: intent.intent_display_name, [formAttribute]: { intent: intent.intent_display_name, field } },
  };
}

function answerField(intent: Intent, form: IntentForm, input: DialogInput): BotTurn {
  const pending = input.pending!;
  const value = input.text.trim();
  const cancels = (form.cancelCommands ?? []).map(normalize);
  if (cancels.includes(normalize(value))) {
    return { replies: [{ text: form.cancelReply || 'OK, never mind.', attributes: { intentName: intent.intent_display_name } }] };
  }
  const field = form.fields[pending.field];
  if (field.regex && !new RegExp(field.regex).test(value.slice(0, maxTestedLength))) {
    return { replies: [ask(intent, form, pending.field, field.errorLabel || field.label)] };
  }
  const parameters = { [field.name]: value };
  const next = pending.field + 1;
  if (next < form.fields.length) return { parameters, replies: [ask(intent, form, next)] };
  return { parameters, ...finalAnswer(intent, { ...input.parameters, ...parameters }) };
}

/** `${name}` becomes the parameter's value; unknown names stay as written. */
function fill(text: string, parameters: Record<string, unknown>) {
  return text.replace(/\$\{(\w+)\}/g, (whole, name: string) => {
    const value = parameters[name];
    return value === undefined || value === null ? whole : String(value);
  });
}

/** The form a bot message waits on, from its attributes. */
export function pendingForm(attributes: unknown): PendingForm | null {
  const marker = (attributes as Record<string, unknown> | null)?.[formAttribute] as Partial<PendingForm> | undefined;
  return marker && typeof marker.intent === 'string' && typeof marker.field === 'number'
    ? { intent: marker.intent, field: marker.field }
    : null;
}
