import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { badInput, notFound, parseInput } from '../../errors.js';
import type { Db, Tx } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { FileStore } from '../../infra/file-store.js';
import { listingInput, pageOf } from '../../paging.js';
import type { KbContent } from '../../generated/prisma/client.js';
import type { KnowledgeBaseService } from './namespaces.js';
import { faqParts } from './faq.js';
import { contentStatus, kbEvents, statusEvent, statusValues } from './indexing/status.js';
import type { IndexingService } from './indexing/indexing.js';

export type ContentRecord = KbContent;

export const contentTypes = ['url', 'text', 'pdf', 'docx', 'faq'] as const;
export type ContentType = (typeof contentTypes)[number];
/** Types whose text is read from a document at `source`; they are upserted on (namespace, type, source). */
const documentTypes: readonly ContentType[] = ['url', 'pdf', 'docx'];

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
  } catch {
    return false;
  }
};

const typeField = z.enum(contentTypes, {
  error: (issue) => (issue.input === undefined ? 'is required' : `must be one of ${contentTypes.join(', ')}`),
});

const createInput = z
  .object({
    name: z.string().trim().max(500).optional(),
    type: typeField,
    source: z.string().trim().max(2048, 'must be at most 2048 characters').optional(),
    content: z.string().max(1_000_000, 'must be at most 1000000 characters').optional(),
    namespace: z.string().optional(),
  })
  .superRefine((input, ctx) => {
    if (documentTypes.includes(input.type)) {
      if (!input.source) ctx.addIssue({ code: 'custom', path: ['source'], message: `is required for type ${input.type}` });
      else if (!isHttpUrl(input.source)) ctx.addIssue({ code: 'custom', path: ['source'], message: 'must be an http(s) URL' });
      if (input.content?.trim()) {
        ctx.addIssue({ code: 'custom', path: ['content'], message: `must be empty for type ${input.type}: the text is read from source` });
      }
      return;
    }
    if (!input.content?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: `is required for type ${input.type}` });
    } else if (input.type === 'faq' && !faqParts(input.content)) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'must be a question and an answer separated by a line break' });
    }
  });

const multiInput = z.object({
  namespace: z.string().optional(),
  list: z
    .array(
      z.string().trim().max(2048, 'must be at most 2048 characters').refine(isHttpUrl, 'must be an http(s) URL'),
      { message: 'must be an array of urls' },
    )
    .min(1, 'must contain at least one url')
    .max(1000, 'must contain at most 1000 urls'),
});

const listInput = listingInput(['updatedAt', 'createdAt', 'name', 'type', 'source', 'status'] as const, 'updatedAt').extend({
  limit: z.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100').default(20),
  namespace: z.string().optional(),
  status: z.number().int().refine((s) => statusValues.includes(s), `must be one of ${statusValues.join(', ')}`).optional(),
  type: typeField.optional(),
  search: z.string().trim().max(500).optional(),
});

const uploadInput = z.object({
  namespace: z.string().optional(),
  name: z.string().trim().max(500).optional(),
  type: z.enum(['pdf', 'docx'], { message: 'must be pdf or docx' }).optional(),
});

export interface UploadedFile {
  filename: string;
  mediaType: string;
  bytes: Uint8Array;
}

const docxMediaType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The type of an uploaded document, from the request, its media type or its name; checked against its bytes. */
function uploadType(declared: 'pdf' | 'docx' | undefined, file: UploadedFile): 'pdf' | 'docx' {
  const extension = path.extname(file.filename).toLowerCase();
  const type =
    declared ??
    (file.mediaType === 'application/pdf' || extension === '.pdf'
      ? 'pdf'
      : file.mediaType === docxMediaType || extension === '.docx'
        ? 'docx'
        : undefined);
  if (!type) throw badInput('type', 'type: the file is neither a pdf nor a docx document; set type to pdf or docx');
  const head = Buffer.from(file.bytes.subarray(0, 5)).toString('latin1');
  if (type === 'pdf' && head !== '%PDF-') throw badInput('file', 'file: is not a PDF document');
  if (type === 'docx' && !head.startsWith('PK\u0003\u0004')) throw badInput('file', 'file: is not a DOCX document');
  return type;
}

export interface UpsertOutcome {
  lastErrorObject: { n: number; updatedExisting: boolean; upserted: string | null };
  value: ContentRecord;
}

interface Draft {
  name: string;
  type: ContentType;
  source: string | null;
  content: string;
  file?: string;
}

/** Knowledge-base contents: stored, then queued for indexing. */
export class ContentService {
  constructor(
    private db: Db,
    private events: EventLog,
    private indexing: IndexingService,
    private files: FileStore,
    private namespaces: KnowledgeBaseService,
  ) {}

  /** Adds a content; url, pdf and docx contents replace the one with the same source in the namespace. */
  async create(projectId: string, actorId: string, input: unknown): Promise<UpsertOutcome> {
    const data = parseInput(createInput, input);
    // A named knowledge base is checked (and locked) when the content is saved.
    const namespace = data.namespace || (await this.namespaces.ensureDefault(projectId, actorId)).id;
    const content = data.content ?? '';
    const draft: Draft = {
      type: data.type,
      source: data.source || null,
      content: documentTypes.includes(data.type) ? '' : content,
      name: data.name || defaultName(data.type, data.source, content),
    };
    const [saved] = await this.saveAll(projectId, actorId, namespace, [draft]);
    await this.indexing.submit([saved.record]);
    return outcome(saved);
  }

  /** Adds one url content per url of `list` (upserting like create); records come back as created. */
  async createMany(projectId: string, actorId: string, input: unknown): Promise<ContentRecord[]> {
    const data = parseInput(multiInput, input);
    const kb = await this.namespaces.resolve(projectId, data.namespace, actorId);
    const urls = [...new Set(data.list)];
    const saved = await this.saveAll(
      projectId,
      actorId,
      kb.id,
      urls.map((url) => ({ type: 'url', source: url, content: '', name: url })),
    );
    await this.indexing.submit(saved.map((s) => s.record));
    return saved.map((s) => s.record);
  }

  /** Adds an uploaded pdf or docx; its source is the file name, so a new upload of that name replaces it. */
  async upload(projectId: string, actorId: string, input: unknown, file: UploadedFile): Promise<UpsertOutcome> {
    const data = parseInput(uploadInput, input);
    if (!file.bytes.byteLength) throw badInput('file', 'file: is empty');
    const type = uploadType(data.type, file);
    const kb = await this.namespaces.resolve(projectId, data.namespace, actorId);
    const filename = path.basename(file.filename || `document.${type}`).slice(0, 255);
    const stored = `kb/${projectId}/${randomUUID()}.${type}`;
    await this.files.write(stored, file.bytes);
    let saved: Saved;
    try {
      [saved] = await this.saveAll(projectId, actorId, kb.id, [
        { type, source: filename, content: '', name: data.name || filename, file: stored },
      ]);
    } catch (error) {
      await this.namespaces.removeFiles([stored]);
      throw error;
    }
    if (saved.replacedFile) await this.namespaces.removeFiles([saved.replacedFile]);
    await this.indexing.submit([saved.record]);
    return outcome(saved);
  }

  async list(projectId: string, actorId: string, input: unknown) {
    const data = parseInput(listInput, input);
    const kb = await this.namespaces.resolve(projectId, data.namespace, actorId);
    const where = {
      id_project: projectId,
      namespace: kb.id,
      ...(data.status !== undefined ? { status: data.status } : {}),
      ...(data.type ? { type: data.type } : {}),
      ...(data.search ? { source: { contains: data.search, mode: 'insensitive' as const } } : {}),
    };
    const [count, kbs] = await Promise.all([
      this.db.kbContent.count({ where }),
      this.db.kbContent.findMany({ where, ...pageOf(data) }),
    ]);
    return { count, query: { limit: data.limit, sortField: data.sortField, direction: data.direction }, kbs };
  }

  async get(projectId: string, id: string) {
    const content = await this.db.kbContent.findFirst({ where: { id, id_project: projectId } });
    if (!content) throw notFound('content');
    return content;
  }

  /** Deletes a content with its chunks; answers the deleted record. */
  async delete(projectId: string, id: string) {
    const deleted = await this.events.transaction(async (tx, emit) => {
      const content = await tx.kbContent.findFirst({ where: { id, id_project: projectId } });
      if (!content) throw notFound('content');
      await tx.kbContent.delete({ where: { id: content.id } });
      await emit({ projectId, name: kbEvents.contentDelete, subject: content.id, payload: { namespace: content.namespace } });
      return content;
    });
    if (deleted.file) await this.namespaces.removeFiles([deleted.file]);
    return deleted;
  }

  /**
   * Stores the drafts in one transaction, each created (-1, the record answered) and put in queue
   * (100); the jobs are enqueued right after commit. Events are appended last: appending locks the
   * project row until commit, so it is held briefly.
   */
  private async saveAll(projectId: string, actorId: string, namespace: string, drafts: Draft[]): Promise<Saved[]> {
    return this.events.transaction(async (tx, emit) => {
      // Held until commit: the knowledge base cannot be deleted under the contents being added.
      const kb = await tx.$queryRaw<unknown[]>`
        SELECT 1 FROM "KnowledgeBase" WHERE "id" = ${namespace} AND "id_project" = ${projectId} FOR SHARE`;
      if (!kb.length) throw badInput('namespace', 'namespace: no knowledge base with this id in the project');
      const saved: Saved[] = [];
      for (const draft of drafts) saved.push(await this.saveOne(tx, projectId, actorId, namespace, draft));
      for (const { record } of saved) {
        await emit(statusEvent(record, contentStatus.notQueued));
        await emit(statusEvent(record, contentStatus.queued));
      }
      return saved;
    });
  }

  private async saveOne(tx: Tx, projectId: string, actorId: string, namespace: string, draft: Draft): Promise<Saved> {
    let existing: ContentRecord | null = null;
    if (documentTypes.includes(draft.type)) {
      // Two requests upserting the same source queue up here instead of creating it twice.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`kb:${projectId}:${namespace}:${draft.type}:${draft.source}`}, 0))`;
      existing = await tx.kbContent.findFirst({
        where: { id_project: projectId, namespace, type: draft.type, source: draft.source },
        orderBy: { createdAt: 'asc' },
      });
    }
    // The content is created (-1) and queued (100) in this one transaction, so it is written in
    // status 100 directly; the answer shows it as created, and both changes are logged as events.
    const fields = { name: draft.name, content: draft.content, file: draft.file ?? null, status: contentStatus.queued, error: null };
    const stored = existing
      ? await tx.kbContent.update({ where: { id: existing.id }, data: { ...fields, indexSeq: { increment: 1 } } })
      : await tx.kbContent.create({
          data: { ...fields, id_project: projectId, namespace, type: draft.type, source: draft.source, createdBy: actorId },
        });
    const replacedFile = existing?.file && existing.file !== draft.file ? existing.file : null;
    return { record: { ...stored, status: contentStatus.notQueued }, updatedExisting: !!existing, replacedFile };
  }
}

interface Saved {
  record: ContentRecord;
  updatedExisting: boolean;
  replacedFile: string | null;
}

function outcome(saved: Saved): UpsertOutcome {
  return {
    lastErrorObject: { n: 1, updatedExisting: saved.updatedExisting, upserted: saved.updatedExisting ? null : saved.record.id },
    value: saved.record,
  };
}

function defaultName(type: ContentType, source: string | undefined, content: string) {
  if (source) return source;
  if (type === 'faq') return faqParts(content)?.question.slice(0, 200) ?? 'FAQ';
  const firstLine = content.trim().split('\n', 1)[0].trim();
  return firstLine.length > 80 ? `${firstLine.slice(0, 80)}…` : firstLine;
}
