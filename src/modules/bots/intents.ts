import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { conflict, notFound, parseInput } from '../../errors.js';
import type { Db, Tx } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { listingInput, pageOf } from '../../paging.js';
import { Prisma, type Intent } from '../../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { isUniqueViolation } from '../../infra/database-errors.js';

export type IntentRecord = Intent;

export const json = z.record(z.string(), z.unknown());
export const language = z.string().trim().toLowerCase().regex(/^[a-z]{2}$/, 'must be a two-letter ISO 639-1 code');

// A nested quantifier such as (a+)+ can take exponential time on a short input: refused,
// since the engine runs these patterns on every answer to a form field.
const nestedQuantifier = /\([^)]*[+*}][^)]*\)\s*[+*{]/;
const safePattern = z
  .string()
  .max(300)
  .refine((p) => {
    try {
      new RegExp(p);
      return !nestedQuantifier.test(p);
    } catch {
      return false;
    }
  }, 'must be a valid regular expression without nested quantifiers');

export const intentForm = z.object({
  fields: z
    .array(
      z.object({
        name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a parameter name (letters, digits and _)'),
        label: z.string().trim().min(1, 'is required').max(2000),
        regex: safePattern.optional(),
        errorLabel: z.string().max(2000).optional(),
      }),
    )
    .min(1, 'needs at least one field')
    .max(20),
  cancelCommands: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
  cancelReply: z.string().max(2000).optional(),
});
export type IntentForm = z.infer<typeof intentForm>;

/** The fields of an intent as the REST body, the GraphQL arguments and exported bots name them. */
export const intentContent = z.object({
  intent_display_name: z.string().trim().min(1, 'must not be empty').max(200),
  question: z.string().max(10_000),
  answer: z.string().max(10_000),
  enabled: z.boolean(),
  webhook_enabled: z.boolean(),
  language,
  attributes: json,
  form: intentForm.nullable(),
});
export type IntentContent = z.infer<typeof intentContent>;

const createInput = intentContent.partial().extend({ id_faq_kb: z.string().min(1, 'is required') });
const updateInput = intentContent.partial();

const listInput = listingInput(['createdAt', 'updatedAt', 'intent_display_name'], 'createdAt', { zeroMeansAll: true }).extend({
  id_faq_kb: z.string().min(1).optional(),
  intent_display_name: z.string().min(1).optional(),
  text: z.string().trim().min(1).max(200).optional(),
});

export const generatedIntentName = () => `intent_${randomBytes(4).toString('hex')}`;

const duplicateName = (name: string) =>
  conflict(`intent_display_name: the bot already has an intent named "${name}"`, 'intent_display_name');

/**
 * Intent changes bump their bot's revision in the same transaction: the engine's cache of a
 * bot's intents is keyed on that revision, on every node.
 */
export const touchBot = (tx: Tx, botId: string) => tx.bot.update({ where: { id: botId }, data: {}, select: { id: true } });

export class IntentService {
  constructor(
    private db: Db,
    private events: EventLog,
  ) {}

  /** A page of a project's intents, filtered by bot, display name or text in the question or answer. */
  list(projectId: string, input: unknown) {
    const { sortField, direction, page, limit, ...query } = parseInput(listInput, input);
    return this.db.intent.findMany({
      where: {
        id_project: projectId,
        id_faq_kb: query.id_faq_kb,
        intent_display_name: query.intent_display_name,
        ...(query.text
          ? {
              OR: [
                { question: { contains: query.text, mode: 'insensitive' as const } },
                { answer: { contains: query.text, mode: 'insensitive' as const } },
              ],
            }
          : {}),
      },
      ...pageOf({ sortField, direction, page, limit }),
    });
  }

  async get(projectId: string, id: string) {
    const intent = await this.db.intent.findFirst({ where: { id, id_project: projectId } });
    if (!intent) throw notFound('intent');
    return intent;
  }

  async create(projectId: string, principal: Principal, input: unknown) {
    const data = parseInput(createInput, input);
    const bot = await this.db.bot.findFirst({ where: { id: data.id_faq_kb, id_project: projectId, trashed: false } });
    if (!bot) throw notFound('bot');
    const name = data.intent_display_name ?? generatedIntentName();
    if (await this.nameTaken(bot.id, name)) throw duplicateName(name);
    return this.uniqueName(name, () =>
      this.events.transaction(async (tx, emit) => {
        const intent = await tx.intent.create({
          data: {
            ...data,
            id_project: projectId,
            intent_display_name: name,
            language: data.language ?? bot.language,
            attributes: (data.attributes ?? {}) as object,
            form: (data.form ?? undefined) as object | undefined,
            createdBy: principal.userId,
          },
        });
        await touchBot(tx, bot.id);
        await emit({ projectId, name: 'intent.create', subject: intent.id, payload: { id_faq_kb: bot.id } });
        return intent;
      }),
    );
  }

  async update(projectId: string, id: string, input: unknown) {
    const data = parseInput(updateInput, input);
    const current = await this.get(projectId, id);
    const name = data.intent_display_name;
    if (name && name !== current.intent_display_name && (await this.nameTaken(current.id_faq_kb, name))) throw duplicateName(name);
    return this.uniqueName(name ?? '', () =>
      this.events.transaction(async (tx, emit) => {
        const intent = await tx.intent.update({
          where: { id },
          data: {
            ...data,
            attributes: data.attributes as object | undefined,
            form: data.form === null ? Prisma.DbNull : (data.form as object | undefined),
          },
        });
        await touchBot(tx, current.id_faq_kb);
        await emit({ projectId, name: 'intent.update', subject: id, payload: { id_faq_kb: current.id_faq_kb, fields: Object.keys(data) } });
        return intent;
      }),
    );
  }

  async remove(projectId: string, id: string) {
    const current = await this.get(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      const intent = await tx.intent.delete({ where: { id } });
      await touchBot(tx, current.id_faq_kb);
      await emit({ projectId, name: 'intent.delete', subject: id, payload: { id_faq_kb: current.id_faq_kb } });
      return intent;
    });
  }

  private async nameTaken(botId: string, name: string) {
    return !!(await this.db.intent.findUnique({
      where: { id_faq_kb_intent_display_name: { id_faq_kb: botId, intent_display_name: name } },
      select: { id: true },
    }));
  }

  /** A concurrent writer may take the name between the check and the insert. */
  private async uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName(name);
      throw error;
    }
  }
}
