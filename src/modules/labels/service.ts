import { z } from 'zod';
import { badInput, notFound, parseInput } from '../../errors.js';
import type { Db, Tx } from '../../infra/database.js';
import type { Emit, EventLog } from '../../infra/event-log.js';
import type { Label } from '../../generated/prisma/client.js';
import { builtinLabels, defaultCategory, fallbackLanguage } from './defaults.js';
import { languageCandidates, normaliseLanguage } from './language.js';

export type LabelRecord = Label;

/** One language's translations: the spec's label data model. */
export interface LabelSet {
  lang: string;
  data: Record<string, string>;
  category: string | null;
  default: boolean;
}

export interface LabelsDeleted {
  success: boolean;
  deleted: number;
}

const maxLabels = 2000;

const translations = z
  .record(z.string().min(1, 'label keys must not be empty').max(200), z.string({ message: 'must be a string' }).max(10_000))
  .refine((labels) => Object.keys(labels).length <= maxLabels, `must hold at most ${maxLabels} labels`);

const saveInput = z.object({
  lang: z.string(),
  data: translations.optional(),
  default: z.boolean().optional(),
  category: z.string().trim().max(100).nullable().optional(),
});

const cloneInput = z.object({ lang: z.string() });

export function labelSet(label: LabelRecord): LabelSet {
  return { lang: label.lang, data: label.data as Record<string, string>, category: label.category, default: label.default };
}

function builtinSet(lang: string): LabelSet {
  return { lang, data: builtinLabels.get(lang)!, category: defaultCategory, default: lang === fallbackLanguage };
}

// A project always has exactly one default language once it has labels: the first language
// saved becomes the default, making another the default demotes the previous one, and the
// default cannot be deleted on its own.
export class LabelService {
  constructor(
    private db: Db,
    private events: EventLog,
  ) {}

  list(projectId: string) {
    return this.db.label.findMany({ where: { id_project: projectId }, orderBy: [{ default: 'desc' }, { lang: 'asc' }] });
  }

  /** The labels of a language; else of its primary language; else the project default; else built-in English. */
  async resolve(projectId: string, rawLang: unknown): Promise<LabelSet> {
    const lang = normaliseLanguage(rawLang);
    const labels = await this.list(projectId);
    for (const candidate of languageCandidates(lang)) {
      const found = labels.find((l) => l.lang === candidate);
      if (found) return labelSet(found);
    }
    const projectDefault = labels.find((l) => l.default);
    return projectDefault ? labelSet(projectDefault) : builtinSet(fallbackLanguage);
  }

  builtins(): LabelSet[] {
    return [...builtinLabels.keys()].map(builtinSet);
  }

  /** A pre-translated language (or its primary language), else English. */
  builtin(rawLang: unknown): LabelSet {
    const lang = normaliseLanguage(rawLang);
    const found = languageCandidates(lang).find((candidate) => builtinLabels.has(candidate));
    return builtinSet(found ?? fallbackLanguage);
  }

  /** Adds a language or replaces its translations; `default`, `category` and absent `data` keep their value. */
  async save(projectId: string, actorUserId: string, input: unknown) {
    const data = parseInput(saveInput, input);
    const lang = normaliseLanguage(data.lang);
    return this.events.transaction(async (tx, emit) => {
      const labels = await this.lockedLabels(tx, projectId);
      const existing = labels.find((l) => l.lang === lang);
      if (!existing && data.data === undefined) throw badInput('data', 'data: is required for a new language');
      if (data.default === false && existing?.default) {
        throw badInput('default', 'default: a project keeps one default language; make another language the default instead');
      }
      const makeDefault = data.default === true || !labels.some((l) => l.default);
      if (makeDefault) await this.demoteDefault(tx, emit, projectId, lang);
      const saved = existing
        ? await tx.label.update({
            where: { id: existing.id },
            data: {
              data: data.data,
              category: data.category,
              default: makeDefault || undefined,
            },
          })
        : await tx.label.create({
            data: {
              id_project: projectId,
              lang,
              data: data.data ?? {},
              category: data.category ?? null,
              default: makeDefault,
              createdBy: actorUserId,
            },
          });
      await emit({ projectId, name: existing ? 'label.update' : 'label.create', subject: saved.id, payload: { lang } });
      return saved;
    });
  }

  async makeDefault(projectId: string, rawLang: unknown) {
    const lang = normaliseLanguage(rawLang);
    return this.events.transaction(async (tx, emit) => {
      const labels = await this.lockedLabels(tx, projectId);
      const label = labels.find((l) => l.lang === lang);
      if (!label) throw notFound('label');
      if (label.default) return label;
      await this.demoteDefault(tx, emit, projectId, lang);
      const saved = await tx.label.update({ where: { id: label.id }, data: { default: true } });
      await emit({ projectId, name: 'label.update', subject: saved.id, payload: { lang, default: true } });
      return saved;
    });
  }

  async remove(projectId: string, rawLang: unknown) {
    const lang = normaliseLanguage(rawLang);
    return this.events.transaction(async (tx, emit) => {
      const labels = await this.lockedLabels(tx, projectId);
      const label = labels.find((l) => l.lang === lang);
      if (!label) throw notFound('label');
      if (label.default) {
        throw badInput('lang', `lang: ${lang} is the project's default language; make another language the default first`);
      }
      await tx.label.delete({ where: { id: label.id } });
      await emit({ projectId, name: 'label.delete', subject: label.id, payload: { lang } });
      return label;
    });
  }

  async removeAll(projectId: string): Promise<LabelsDeleted> {
    return this.events.transaction(async (tx, emit) => {
      const labels = await this.lockedLabels(tx, projectId);
      await tx.label.deleteMany({ where: { id_project: projectId } });
      for (const label of labels) {
        await emit({ projectId, name: 'label.delete', subject: label.id, payload: { lang: label.lang } });
      }
      return { success: true, deleted: labels.length };
    });
  }

  /** Copies a pre-translated language into the project, replacing that language's translations. */
  async cloneBuiltin(projectId: string, actorUserId: string, input: unknown) {
    const lang = normaliseLanguage(parseInput(cloneInput, input).lang);
    const translations = builtinLabels.get(lang);
    if (!translations) {
      throw badInput('lang', `lang: no pre-translated labels for ${lang}; available: ${[...builtinLabels.keys()].join(', ')}`);
    }
    return this.save(projectId, actorUserId, { lang, data: translations, category: defaultCategory });
  }

  /** The project's labels, read under a lock on the project row so label writers take turns. */
  private async lockedLabels(tx: Tx, projectId: string) {
    await tx.$queryRaw`SELECT "id" FROM "Project" WHERE "id" = ${projectId} FOR UPDATE`;
    return tx.label.findMany({ where: { id_project: projectId } });
  }

  private async demoteDefault(tx: Tx, emit: Emit, projectId: string, keep: string) {
    const previous = await tx.label.findFirst({ where: { id_project: projectId, default: true, lang: { not: keep } } });
    if (!previous) return;
    await tx.label.update({ where: { id: previous.id }, data: { default: false } });
    await emit({ projectId, name: 'label.update', subject: previous.id, payload: { lang: previous.lang, default: false } });
  }
}
