import { z } from 'zod';
import type { Config } from '../../config.js';
import { AppError, badInput, notFound, parseInput } from '../../errors.js';
import type { Db, Tx } from '../../infra/database.js';
import type { Emit, EventLog } from '../../infra/event-log.js';
import { Prisma, type Bot, type Intent } from '../../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { botSender, signBotToken } from '../auth/bot-identity.js';
import { newSecret } from '../webhooks/signature.js';
import {
  generatedIntentName,
  intentContent,
  json,
  language,
  touchBot,
  type IntentContent,
  type IntentForm,
} from './intents.js';
import { templateIntents, templateNames } from './templates.js';
import { isUniqueViolation } from '../../infra/database-errors.js';

export type BotRecord = Bot;

const httpUrl = z.string().trim().url('must be a URL').refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

const botFields = {
  name: z.string().trim().min(1, 'is required').max(200),
  description: z.string().max(2000).nullable(),
  type: z.enum(['internal', 'external'], { message: 'must be internal or external' }),
  url: httpUrl.nullable(),
  language,
  webhook_enabled: z.boolean(),
  webhook_url: httpUrl.nullable(),
  attributes: json,
  public: z.boolean(),
  kb_namespace: z.string().trim().min(1, 'must not be empty').max(100).nullable(),
};

const createInput = z
  .object({
    ...botFields,
    type: botFields.type.default('internal'),
    template: z.enum(templateNames, { message: 'must be blank, handoff or example' }).optional(),
  })
  .partial({ description: true, url: true, language: true, webhook_enabled: true, webhook_url: true, attributes: true, public: true, kb_namespace: true });

const updateInput = z.object(botFields).partial();

/** An exported bot, as `exportjson` writes it and `importjson` reads it (unknown keys are ignored). */
const botDocument = z.object({
  ...z.object(botFields).partial().shape,
  intents: z.array(intentContent.partial()).max(5000).default([]),
});
type BotDocument = z.infer<typeof botDocument>;

export interface ImportOptions {
  create?: boolean | null;
  replace?: boolean | null;
  overwrite?: boolean | null;
}

export interface ForkOptions {
  public?: boolean | null;
  projectid?: string | null;
}

const intentDefaults = { question: '', answer: '', enabled: true, webhook_enabled: false, attributes: {} };

/** Intent rows from seeds or documents, with the bot's language where they name none. */
function intentRows(bot: Bot, createdBy: string, intents: Array<Partial<IntentContent>>) {
  return intents.map((intent) => ({
    ...intentDefaults,
    ...intent,
    intent_display_name: intent.intent_display_name ?? generatedIntentName(),
    language: intent.language ?? bot.language,
    attributes: (intent.attributes ?? {}) as object,
    form: (intent.form ?? undefined) as object | undefined,
    id_project: bot.id_project,
    id_faq_kb: bot.id,
    createdBy,
  }));
}

/** The content of an intent, as exported and as copied by a fork. */
function intentContentOf(intent: Intent): Partial<IntentContent> {
  return {
    intent_display_name: intent.intent_display_name,
    question: intent.question,
    answer: intent.answer,
    enabled: intent.enabled,
    webhook_enabled: intent.webhook_enabled,
    language: intent.language,
    attributes: intent.attributes as Record<string, unknown>,
    ...(intent.form ? { form: intent.form as IntentForm } : {}),
  };
}

type BotFields = z.infer<typeof updateInput> & { name: string };

/** The fields a new bot takes from a document or from the bot it copies. */
function copiedBotFields(source: Partial<Record<keyof typeof botFields, unknown>>): BotFields {
  const { name, description, type, url, language: lang, webhook_enabled, webhook_url, attributes } = source as BotFields;
  return { name, description, type, url, language: lang, webhook_enabled, webhook_url, attributes };
}

export class BotService {
  constructor(
    private db: Db,
    private events: EventLog,
    private config: Config,
  ) {}

  list(projectId: string) {
    return this.db.bot.findMany({ where: { id_project: projectId, trashed: false }, orderBy: { createdAt: 'asc' } });
  }

  /** A bot of the project, deleted ones included (they show `trashed`). */
  async get(projectId: string, id: string) {
    const bot = await this.db.bot.findFirst({ where: { id, id_project: projectId } });
    if (!bot) throw notFound('bot');
    return bot;
  }

  /** A bot that can still be changed or used. */
  async active(projectId: string, id: string) {
    const bot = await this.get(projectId, id);
    if (bot.trashed) throw notFound('bot');
    return bot;
  }

  async create(projectId: string, principal: Principal, input: unknown) {
    const { template, ...data } = parseInput(createInput, input);
    if (data.type === 'external') {
      if (!data.url) throw badInput('url', 'url: is required for an external bot');
      if (template) throw badInput('template', 'template: only internal bots start from a template');
    }
    if (data.kb_namespace) await this.checkKnowledgeBase(projectId, data.kb_namespace);
    return this.events.transaction(async (tx, emit) => {
      const bot = await this.insert(tx, emit, projectId, principal.userId, data);
      if (bot.type === 'internal') {
        await tx.intent.createMany({ data: intentRows(bot, principal.userId, templateIntents(template ?? 'example')) });
      }
      return bot;
    });
  }

  async update(projectId: string, id: string, input: unknown) {
    const data = parseInput(updateInput, input);
    const current = await this.active(projectId, id);
    if ((data.type ?? current.type) === 'external' && !(data.url !== undefined ? data.url : current.url)) {
      throw badInput('url', 'url: is required for an external bot');
    }
    if (data.kb_namespace) await this.checkKnowledgeBase(projectId, data.kb_namespace);
    return this.events.transaction(async (tx, emit) => {
      const bot = await tx.bot.update({ where: { id }, data: { ...data, attributes: data.attributes as object | undefined } });
      await emit({ projectId, name: 'bot.update', subject: id, payload: { fields: Object.keys(data) } });
      return bot;
    });
  }

  /** Deleting keeps the record, trashed, and takes the bot out of every department. */
  async remove(projectId: string, id: string) {
    await this.active(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      const bot = await tx.bot.update({ where: { id }, data: { trashed: true } });
      const departments = await tx.department.findMany({ where: { id_project: projectId, id_bot: id }, select: { id: true } });
      for (const department of departments) {
        await tx.department.update({ where: { id: department.id }, data: { id_bot: null } });
        await emit({ projectId, name: 'department.update', subject: department.id, payload: { fields: ['id_bot'] } });
      }
      await emit({ projectId, name: 'bot.delete', subject: id });
      return bot;
    });
  }

  /** A token for the bot's engine, signed with the bot's secret. */
  async token(projectId: string, id: string) {
    const bot = await this.active(projectId, id);
    return { token: `JWT ${signBotToken(bot, this.config.jwtExpiresInSeconds)}` };
  }

  /** Whether a bot is a participant of a request (identified by its `request_id`). */
  async takesPart(bot: { id: string; projectId: string }, projectId: string, requestId: string) {
    if (bot.projectId !== projectId) return false;
    const request = await this.db.request.findFirst({
      where: { id_project: projectId, request_id: requestId, participants: { has: botSender(bot.id) } },
      select: { id: true },
    });
    return !!request;
  }

  async exportJson(projectId: string, id: string, intentsOnly: boolean) {
    const bot = await this.active(projectId, id);
    const intents = (await this.db.intent.findMany({ where: { id_faq_kb: bot.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map(
      intentContentOf,
    );
    if (intentsOnly) return { intents };
    return {
      name: bot.name,
      description: bot.description,
      type: bot.type,
      ...(bot.url ? { url: bot.url } : {}),
      language: bot.language,
      webhook_enabled: bot.webhook_enabled,
      ...(bot.webhook_url ? { webhook_url: bot.webhook_url } : {}),
      attributes: bot.attributes,
      intents,
    };
  }

  /**
   * Imports an exported bot. `create` makes a new bot from the document; otherwise only its
   * intents go into bot `id`. `replace` deletes the bot's intents first; `overwrite` replaces
   * intents with the same `intent_display_name`, which are otherwise kept as they are.
   */
  async importJson(projectId: string, principal: Principal, id: string, options: ImportOptions, input: unknown) {
    const document = parseInput(botDocument, parseDocument(input));
    const names = new Set<string>();
    document.intents.forEach((intent, index) => {
      const name = intent.intent_display_name;
      if (name && names.has(name)) {
        throw badInput(`intents.${index}.intent_display_name`, `intents.${index}.intent_display_name: "${name}" appears twice`);
      }
      if (name) names.add(name);
    });
    if (options.create) {
      if (!document.name) throw badInput('name', 'name: is required to create a bot');
      if (document.type === 'external' && !document.url) throw badInput('url', 'url: is required for an external bot');
    }
    const existing = options.create ? null : await this.active(projectId, id);
    try {
      return await this.events.transaction(async (tx, emit) => {
        const bot = existing ?? (await this.insert(tx, emit, projectId, principal.userId, copiedBotFields(document)));
        const outcome = await this.mergeIntents(tx, bot, principal.userId, document.intents, options);
        await touchBot(tx, bot.id);
        await emit({ projectId, name: 'bot.update', subject: bot.id, payload: { fields: ['intents'], intents: outcome } });
        return tx.bot.findUniqueOrThrow({ where: { id: bot.id } });
      });
    } catch (error) {
      // Only a concurrent writer can get here: names were checked against the document itself.
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'intents changed during the import; try again');
      throw error;
    }
  }

  /**
   * Copies a bot and its intents into `projectid` (default: this project). With `public` the
   * source may be any project's public bot; otherwise it is a bot of this project.
   */
  async fork(projectId: string, principal: Principal, id: string, options: ForkOptions) {
    const source = options.public
      ? await this.db.bot.findFirst({ where: { id, public: true, trashed: false } })
      : await this.db.bot.findFirst({ where: { id, id_project: projectId, trashed: false } });
    if (!source) throw notFound('bot');
    const targetProject = options.projectid || projectId;
    if (!(await this.db.project.findUnique({ where: { id: targetProject }, select: { id: true } }))) throw notFound('project');
    const intents = await this.db.intent.findMany({ where: { id_faq_kb: source.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    const copy = await this.events.transaction(async (tx, emit) => {
      const bot = await this.insert(tx, emit, targetProject, principal.userId, copiedBotFields(source));
      await tx.intent.createMany({ data: intentRows(bot, principal.userId, intents.map(intentContentOf)) });
      return bot;
    });
    return { message: 'Chatbot forked successfully', bot_id: copy.id };
  }

  /** A bot's knowledge base must be one of its project's (ids of other projects are refused alike). */
  private async checkKnowledgeBase(projectId: string, namespace: string) {
    const kb = await this.db.knowledgeBase.findFirst({ where: { id: namespace, id_project: projectId }, select: { id: true } });
    if (!kb) throw badInput('kb_namespace', 'kb_namespace: no knowledge base with this id in the project');
  }

  private async insert(tx: Tx, emit: Emit, projectId: string, createdBy: string, data: BotFields) {
    const bot = await tx.bot.create({
      data: { ...data, attributes: (data.attributes ?? {}) as object, id_project: projectId, secret: newSecret() /* Standard Webhooks format: signs the bot's JWTs and what is POSTed to an external bot */, createdBy },
    });
    await emit({ projectId, name: 'bot.create', subject: bot.id });
    return bot;
  }

  private async mergeIntents(tx: Tx, bot: Bot, createdBy: string, intents: BotDocument['intents'], options: ImportOptions) {
    const deleted = options.replace ? (await tx.intent.deleteMany({ where: { id_faq_kb: bot.id } })).count : 0;
    const existing = new Set(
      options.replace
        ? []
        : (await tx.intent.findMany({ where: { id_faq_kb: bot.id }, select: { intent_display_name: true } })).map((i) => i.intent_display_name),
    );
    const rows = intentRows(bot, createdBy, intents);
    const fresh = rows.filter((row) => !existing.has(row.intent_display_name));
    const clashing = rows.filter((row) => existing.has(row.intent_display_name));
    await tx.intent.createMany({ data: fresh });
    if (options.overwrite) {
      for (const row of clashing) {
        const { intent_display_name, id_project: _p, id_faq_kb: _b, createdBy: _c, ...content } = row;
        await tx.intent.update({
          where: { id_faq_kb_intent_display_name: { id_faq_kb: bot.id, intent_display_name } },
          data: { ...content, form: content.form ?? Prisma.DbNull },
        });
      }
    }
    return { created: fresh.length, updated: options.overwrite ? clashing.length : 0, kept: options.overwrite ? 0 : clashing.length, deleted };
  }
}

function parseDocument(input: unknown): unknown {
  if (typeof input !== 'string') return input ?? {};
  try {
    return JSON.parse(input);
  } catch {
    throw badInput('uploadFile', 'uploadFile: must be a JSON document');
  }
}
