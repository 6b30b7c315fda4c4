import { randomUUID } from 'node:crypto';
import type { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { FileStore } from '../../infra/file-store.js';
import { jobType, PermanentJobError, type JobQueue } from '../../infra/job-queue.js';
import type { Logger } from '../../infra/logger.js';
import type { KbContent } from '../../generated/prisma/client.js';
import { documentText, ExtractionError, normalizeText } from './extract.js';
import { DocumentExtractor } from './extraction-pool.js';
import { bodyText, fetchDocument, FetchFailure } from './fetch.js';
import { faqParts } from './faq.js';
import { stemText } from './stems.js';
import { contentStatus, kbEvents, statusEvent, type ContentStatus } from './status.js';
import { EmbeddingError, type ChunkVectors } from './vectors.js';

// Indexing of one content: read its text, split it into chunks, embed them when vectors are on,
// and replace its chunks in one transaction. Runs in a job (BullMQ or the in-process runner).

export const indexJob = jobType(
  'kb-index',
  z.object({
    projectId: z.string().min(1),
    contentId: z.string().min(1),
    /** The content's indexSeq when queued: a newer submission makes this job stale. */
    seq: z.number().int().min(0),
  }),
);
export type IndexJobData = z.infer<typeof indexJob.data>;

export interface Attempt {
  attempt: number;
  attempts: number;
}

export type IndexOutcome = 'indexed' | 'stale';

export class IndexingService {
  /** Made at the first indexing: LangChain's modules are loaded then, not when the server starts. */
  private splitter?: Promise<RecursiveCharacterTextSplitter>;
  private extractor: DocumentExtractor;

  constructor(
    private db: Db,
    private events: EventLog,
    private queue: JobQueue,
    private files: FileStore,
    private vectors: ChunkVectors,
    private config: Config,
    private logger: Logger,
  ) {
    const { kb } = config;
    this.extractor = new DocumentExtractor(
      {
        maxBytes: kb.inflateMaxBytes,
        maxEntries: kb.archiveMaxEntries,
        timeoutMs: kb.extractTimeoutMs,
        maxMemoryMb: kb.extractMaxMemoryMb,
        workers: kb.extractWorkers,
      },
      logger,
    );
  }

  /** Queues contents (already in status 100) for indexing; one that cannot be queued goes back to -1 with the reason. */
  async submit(contents: KbContent[], options: { replaceFinished?: boolean } = {}) {
    if (!contents.length) return;
    const jobs = contents.map((content) => ({
      data: { projectId: content.id_project, contentId: content.id, seq: content.indexSeq } satisfies IndexJobData,
      options: { jobId: `kb-${content.id}-${content.indexSeq}`, replaceFinished: options.replaceFinished },
    }));
    try {
      await this.queue.enqueueMany(indexJob, jobs);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message, contents: contents.length }, 'could not queue knowledge-base contents');
      const reason = `could not be queued for indexing: ${(error as Error).message}`;
      for (const content of contents) {
        await this.move(content, content.indexSeq, contentStatus.notQueued, reason, [contentStatus.queued]);
      }
    }
  }

  /** Queues again the contents a stopped process left in queue or in indexing (their jobs may be gone). */
  async resume() {
    let cursor: string | undefined;
    for (;;) {
      const batch = await this.db.kbContent.findMany({
        where: { status: { in: [contentStatus.queued, contentStatus.indexing] }, ...(cursor ? { id: { gt: cursor } } : {}) },
        orderBy: { id: 'asc' },
        take: 500,
      });
      if (!batch.length) return;
      await this.submit(batch, { replaceFinished: true });
      cursor = batch[batch.length - 1].id;
    }
  }

  /** The job: index the content as submitted with `seq`. Failures retry, then end in status 400 with the reason. */
  async run(data: IndexJobData, attempt: Attempt): Promise<IndexOutcome> {
    const content = await this.start(data);
    if (!content) return 'stale';
    try {
      const text = await this.readText(content);
      const chunks = await this.split(content, text);
      const vectors = this.vectors.enabled ? await this.vectors.embedDocuments(chunks) : [];
      if (this.vectors.enabled) await this.vectors.ensureTable();
      return await this.replaceChunks(content, data.seq, chunks, vectors);
    } catch (error) {
      const message = (error as Error).message || String(error);
      if (isPermanent(error) || attempt.attempt >= attempt.attempts) {
        await this.move(content, data.seq, contentStatus.failed, message);
        throw new PermanentJobError(message);
      }
      await this.move(content, data.seq, contentStatus.queued, `attempt ${attempt.attempt} of ${attempt.attempts} failed: ${message}; retrying`);
      throw error;
    }
  }

  private async readText(content: KbContent): Promise<string> {
    if (content.type === 'text' || content.type === 'faq') return normalizeText(content.content);
    const kind = content.type as 'url' | 'pdf' | 'docx';
    let extracted;
    if (content.file) {
      const body = await this.readUpload(content.file);
      extracted = await documentText(kind, { mediaType: '', body, text: () => body.toString('utf8') }, this.extractor);
    } else {
      const { kb, outbound } = this.config;
      const limits = { maxBytes: kb.fetchMaxBytes, inflateMaxBytes: kb.inflateMaxBytes, timeoutMs: kb.fetchTimeoutMs, policy: outbound };
      const document = await fetchDocument(content.source ?? '', limits);
      extracted = await documentText(kind, { ...document, text: () => bodyText(document) }, this.extractor);
    }
    const text = extracted.title && !extracted.text.startsWith(extracted.title) ? `${extracted.title}\n\n${extracted.text}` : extracted.text;
    if (!text.trim()) throw new ExtractionError('no text could be read from the document');
    return text;
  }

  private async readUpload(file: string): Promise<Buffer> {
    const parts: Buffer[] = [];
    try {
      for await (const part of this.files.read(file)) parts.push(part as Buffer);
    } catch (error) {
      throw new ExtractionError(`the uploaded file cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    return Buffer.concat(parts);
  }

  private async makeSplitter() {
    const { RecursiveCharacterTextSplitter } = await import('@langchain/textsplitters');
    return new RecursiveCharacterTextSplitter({ chunkSize: this.config.kb.chunkSize, chunkOverlap: this.config.kb.chunkOverlap });
  }

  private async split(content: KbContent, text: string): Promise<string[]> {
    // A question and its answer stay together whenever they fit in one chunk.
    if (content.type === 'faq' && text.length <= this.config.kb.chunkSize) return [text];
    const splitter = await (this.splitter ??= this.makeSplitter());
    const chunks = (await splitter.splitText(text)).map((c) => c.trim()).filter(Boolean);
    if (!chunks.length) throw new ExtractionError('no text could be read from the document');
    return chunks;
  }

  private async replaceChunks(content: KbContent, seq: number, chunks: string[], vectors: number[][]): Promise<IndexOutcome> {
    const ids = chunks.map(() => randomUUID());
    // The question of an faq content is ranked as a field of its own, on each of its chunks.
    const heading = content.type === 'faq' ? (faqParts(content.content)?.question ?? '') : '';
    try {
      return await this.events.transaction(async (tx, emit) => {
        // One statement: mark the submission indexed (locking its row, so a newer submission or a
        // deletion waits for this commit) and swap its chunks. No row: the job is stale.
        const inserted = await tx.$queryRawUnsafe<Array<{ id: string }>>(
          `WITH current AS (
             UPDATE "KbContent" SET "status" = $3, "error" = NULL, "v" = "v" + 1, "updatedAt" = CURRENT_TIMESTAMP
             WHERE "id" = $1 AND "indexSeq" = $2
             RETURNING "id", "id_project", "namespace"
           ),
           removed AS (DELETE FROM "KbChunk" WHERE "contentId" IN (SELECT "id" FROM current))
           INSERT INTO "KbChunk" ("id", "id_project", "namespace", "contentId", "position", "text", "stems", "heading", "headingStems")
           SELECT chunk.id, current."id_project", current."namespace", current."id", chunk.n - 1, chunk.text, chunk.stems, $7, $8
           FROM current, unnest($4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS chunk(id, text, stems, n)
           RETURNING "id"`,
          content.id,
          seq,
          contentStatus.indexed,
          ids,
          chunks,
          chunks.map(stemText),
          heading,
          stemText(heading),
        );
        if (!inserted.length) throw new StaleJob();
        if (vectors.length) {
          await this.vectors.save(
            tx,
            { projectId: content.id_project, namespace: content.namespace },
            ids.map((chunkId, i) => ({ chunkId, vector: vectors[i] })),
          );
        }
        await emit(statusEvent(content, contentStatus.indexed));
        await emit({
          projectId: content.id_project,
          name: kbEvents.indexed,
          subject: content.id,
          payload: { namespace: content.namespace, chunks: chunks.length },
        });
        return 'indexed' as const;
      });
    } catch (error) {
      if (error instanceof StaleJob) return 'stale';
      throw error;
    }
  }

  /** Moves the content of this submission to 200 (indexing) and reads it; null when the job is stale. */
  private async start(data: IndexJobData): Promise<KbContent | null> {
    return this.events.transaction(async (tx, emit) => {
      // updateManyAndReturn is not covered by the revision extension: the counter is bumped here.
      const [content] = await tx.kbContent.updateManyAndReturn({
        where: { id: data.contentId, id_project: data.projectId, indexSeq: data.seq },
        data: { status: contentStatus.indexing, error: null, v: { increment: 1 } },
      });
      if (content) await emit(statusEvent(content, contentStatus.indexing));
      return content ?? null;
    });
  }

  /** Moves the content of submission `seq` to a status (only from `from` when given); false when it is stale. */
  private async move(content: KbContent, seq: number, status: ContentStatus, error: string | null, from?: ContentStatus[]) {
    return this.events.transaction(async (tx, emit) => {
      const moved = await tx.kbContent.updateMany({
        where: { id: content.id, indexSeq: seq, ...(from ? { status: { in: from } } : {}) },
        data: { status, error },
      });
      if (moved.count) await emit(statusEvent(content, status, error));
      return moved.count > 0;
    });
  }
}

/** Rolls back the chunks of a submission that a newer one (or a deletion) has overtaken. */
class StaleJob extends Error {}

function isPermanent(error: unknown) {
  if (error instanceof FetchFailure || error instanceof EmbeddingError) return error.permanent;
  return error instanceof ExtractionError || error instanceof PermanentJobError;
}
