import { randomUUID } from 'node:crypto';
import type { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { z } from 'zod';
import type { Config } from '../../../config.js';
import type { Db } from '../../../infra/database.js';
import type { EventLog } from '../../../infra/event-log.js';
import type { FileStore } from '../../../infra/file-store.js';
import { jobType, PermanentJobError, type JobQueue } from '../../../infra/job-queue.js';
import type { Logger } from '../../../infra/logger.js';
import type { KbContent } from '../../../generated/prisma/client.js';
import type { Document } from '@langchain/core/documents';
import { ExtractionError } from '../reading/extract.js';
import { DocumentExtractor } from '../reading/extraction-pool.js';
import { FetchFailure } from '../reading/fetch.js';
import { contentLoader } from '../reading/loaders.js';
import type { Retriever } from '../retrieval/retrieval.js';
import { kbVectorStore } from './vector-store.js';
import { faqParts } from '../faq.js';
import { stemText } from '../retrieval/stems.js';
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
    private retriever: Retriever,
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
      // A LangChain document loader reads the content (loaders.ts); the splitter keeps its metadata on every chunk.
      const loader = await contentLoader(content, { config: this.config, files: this.files, reader: this.extractor });
      const chunks = await this.split(content, await loader.load());
      const vectors = this.vectors.enabled ? await this.vectors.embedDocuments(chunks.map((c) => c.pageContent)) : [];
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

  private async makeSplitter() {
    const { RecursiveCharacterTextSplitter } = await import('@langchain/textsplitters');
    return new RecursiveCharacterTextSplitter({ chunkSize: this.config.kb.chunkSize, chunkOverlap: this.config.kb.chunkOverlap });
  }

  private async split(content: KbContent, documents: Document[]): Promise<Document[]> {
    // A question and its answer stay together whenever they fit in one chunk.
    if (content.type === 'faq' && documents.length === 1 && documents[0].pageContent.length <= this.config.kb.chunkSize) return documents;
    const splitter = await (this.splitter ??= this.makeSplitter());
    const chunks = (await splitter.splitDocuments(documents))
      .map((c) => Object.assign(c, { pageContent: c.pageContent.trim() }))
      .filter((c) => c.pageContent);
    if (!chunks.length) throw new ExtractionError('no text could be read from the document');
    return chunks;
  }

  private async replaceChunks(content: KbContent, seq: number, documents: Document[], vectors: number[][]): Promise<IndexOutcome> {
    const ids = documents.map(() => randomUUID());
    const chunks = documents.map((d) => d.pageContent);
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
           removed AS (DELETE FROM "KbChunk" WHERE "contentId" IN (SELECT "id" FROM current) AND "phrasingId" IS NULL)
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
          const store = await kbVectorStore({
            vectors: this.vectors,
            retriever: this.retriever,
            projectId: content.id_project,
            namespace: content.namespace,
            tx,
          });
          await store.addVectors(
            vectors,
            documents.map((d, i) => ({ ...d, metadata: { ...d.metadata, chunkId: ids[i] } })),
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
