import { z } from 'zod';
import { badInput, notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { FileStore } from '../../infra/file-store.js';
import type { Logger } from '../../infra/logger.js';
import type { KnowledgeBase } from '../../generated/prisma/client.js';
import { defaultPreviewSettings, effectiveSettings, previewSettingsPatch, type PreviewSettings } from './answering/settings.js';
import { kbEvents, lockProject } from './indexing/status.js';

export type KnowledgeBaseRecord = KnowledgeBase;

export const defaultKnowledgeBaseName = 'Default';

const createInput = z.object({
  name: z.string().trim().min(1, 'is required').max(200),
  preview_settings: previewSettingsPatch.optional(),
});

const updateInput = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  preview_settings: previewSettingsPatch.optional(),
});

const deleteInput = z.object({ contents_only: z.boolean().default(false) });

export interface DeleteOutcome {
  success: boolean;
  message: string;
}

/** Knowledge bases (namespaces) of a project. Every project has one default knowledge base. */
export class KnowledgeBaseService {
  constructor(
    private db: Db,
    private events: EventLog,
    private files: FileStore,
    private logger: Logger,
    private defaultModel: string,
  ) {}

  settings(kb: KnowledgeBaseRecord): PreviewSettings {
    return effectiveSettings(kb.preview_settings, this.defaultModel);
  }

  /** The project's default knowledge base, created the first time anyone needs it. */
  async ensureDefault(projectId: string, actorId: string): Promise<KnowledgeBaseRecord> {
    const existing = await this.db.knowledgeBase.findFirst({ where: { id_project: projectId, default: true } });
    if (existing) return existing;
    return this.events.transaction(async (tx, emit) => {
      await lockProject(tx, projectId);
      const raced = await tx.knowledgeBase.findFirst({ where: { id_project: projectId, default: true } });
      if (raced) return raced;
      const kb = await tx.knowledgeBase.create({
        data: {
          id_project: projectId,
          name: defaultKnowledgeBaseName,
          default: true,
          preview_settings: defaultPreviewSettings(this.defaultModel) as object,
          createdBy: actorId,
        },
      });
      await emit({ projectId, name: kbEvents.namespaceCreate, subject: kb.id, payload: { default: true } });
      return kb;
    });
  }

  async list(projectId: string, actorId: string) {
    await this.ensureDefault(projectId, actorId);
    return this.db.knowledgeBase.findMany({
      where: { id_project: projectId },
      orderBy: [{ default: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async get(projectId: string, id: string) {
    const kb = await this.db.knowledgeBase.findFirst({ where: { id, id_project: projectId } });
    if (!kb) throw notFound('knowledge base');
    return kb;
  }

  /** The knowledge base a request names (field `namespace`), or the default one when it names none. */
  async resolve(projectId: string, namespace: string | null | undefined, actorId: string, field = 'namespace') {
    if (namespace === undefined || namespace === null || namespace === '') return this.ensureDefault(projectId, actorId);
    const kb = await this.db.knowledgeBase.findFirst({ where: { id: namespace, id_project: projectId } });
    if (!kb) throw badInput(field, `${field}: no knowledge base with this id in the project`);
    return kb;
  }

  async create(projectId: string, actorId: string, input: unknown) {
    const data = parseInput(createInput, input);
    await this.ensureDefault(projectId, actorId);
    const settings = { ...defaultPreviewSettings(this.defaultModel), ...data.preview_settings };
    return this.events.transaction(async (tx, emit) => {
      const kb = await tx.knowledgeBase.create({
        data: { id_project: projectId, name: data.name, default: false, preview_settings: settings as object, createdBy: actorId },
      });
      await emit({ projectId, name: kbEvents.namespaceCreate, subject: kb.id });
      return kb;
    });
  }

  async update(projectId: string, id: string, input: unknown) {
    const data = parseInput(updateInput, input);
    const current = await this.get(projectId, id);
    const settings = data.preview_settings ? { ...this.settings(current), ...data.preview_settings } : undefined;
    return this.events.transaction(async (tx, emit) => {
      const kb = await tx.knowledgeBase.update({
        where: { id: current.id },
        data: { name: data.name, preview_settings: settings as object | undefined },
      });
      await emit({ projectId, name: kbEvents.namespaceUpdate, subject: kb.id, payload: { fields: Object.keys(data) } });
      return kb;
    });
  }

  /**
   * Deletes a knowledge base with its contents, or only its contents. The default knowledge base
   * always exists, so only its contents can be deleted.
   */
  async delete(projectId: string, id: string, input: unknown): Promise<DeleteOutcome> {
    const { contents_only } = parseInput(deleteInput, input);
    const kb = await this.get(projectId, id);
    if (kb.default && !contents_only) {
      throw badInput('contents_only', 'contents_only: the default knowledge base cannot be deleted; pass contents_only=true to delete its contents');
    }
    const files = await this.events.transaction(async (tx, emit) => {
      // Waits for contents being added to it (they hold a share lock on it) and keeps new ones out.
      await tx.$queryRaw`SELECT 1 FROM "KnowledgeBase" WHERE "id" = ${kb.id} FOR UPDATE`;
      const uploads = await tx.kbContent.findMany({
        where: { id_project: projectId, namespace: kb.id, file: { not: null } },
        select: { file: true },
      });
      // Chunks and their vectors go with their contents (foreign keys cascade).
      const removed = await tx.kbContent.deleteMany({ where: { id_project: projectId, namespace: kb.id } });
      if (!contents_only) {
        // Its batch tests and their runs go with it.
        await tx.kbTestCase.deleteMany({ where: { id_project: projectId, namespace: kb.id } });
        await tx.kbTestRun.deleteMany({ where: { id_project: projectId, namespace: kb.id } });
        await tx.knowledgeBase.delete({ where: { id: kb.id } });
      }
      await emit({
        projectId,
        name: kbEvents.namespaceDelete,
        subject: kb.id,
        payload: { namespace: kb.id, contents_only, contents: removed.count },
      });
      return uploads.map((u) => u.file!);
    });
    await this.removeFiles(files);
    return {
      success: true,
      message: contents_only ? `contents of knowledge base ${kb.name} deleted` : `knowledge base ${kb.name} deleted`,
    };
  }

  async removeFiles(paths: string[]) {
    for (const file of paths) {
      await this.files.remove(file).catch((error) => this.logger.warn({ err: error, file }, 'could not remove a knowledge-base upload'));
    }
  }
}
