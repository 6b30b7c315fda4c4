import { OpenAIEmbeddings } from '@langchain/openai';
import type { Config } from '../../config.js';
import type { Db, Tx } from '../../infra/database.js';
import type { Logger } from '../../infra/logger.js';
import { endpointFetch, describeEndpointError } from './model-endpoint.js';

// Chunk vectors in pgvector, when the database has the extension and an embeddings endpoint is
// configured. The table is created at run time, not by a migration: a PostgreSQL without pgvector
// must still migrate, and the vector size depends on the configured model.

/** The embeddings endpoint failed; indexing retries, question answering falls back to lexical. */
export class EmbeddingError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

const table = '"KbChunkEmbedding"';
// pgvector's HNSW index takes vectors of up to 2000 dimensions.
const maxIndexedDimensions = 2000;

export interface NearChunk {
  id: string;
  similarity: number;
}

export class ChunkVectors {
  readonly enabled: boolean;
  private embedder?: OpenAIEmbeddings;
  private tableReady?: Promise<void>;
  private timeoutMs = 60_000;

  constructor(
    private db: Db,
    private config: Config,
    hasVector: boolean,
    private logger: Logger,
  ) {
    const settings = config.embeddings;
    this.enabled = !!settings && hasVector;
    if (settings && !hasVector) {
      logger.warn('an embeddings endpoint is configured but the database has no pgvector: knowledge-base retrieval stays lexical');
    }
    if (settings && this.enabled) {
      this.embedder = new OpenAIEmbeddings({
        model: settings.model,
        apiKey: settings.apiKey ?? 'unused',
        dimensions: settings.dimensions,
        encodingFormat: 'float',
        batchSize: 64,
        maxRetries: 0,
        timeout: this.timeoutMs,
        configuration: {
          baseURL: settings.baseUrl,
          fetch: endpointFetch(settings.baseUrl, config.outbound, this.timeoutMs),
        },
      });
    }
  }

  get model(): string {
    return this.config.embeddings?.model ?? '';
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    if (!this.embedder) return [];
    try {
      const vectors = await this.embedder.embedDocuments(texts);
      if (vectors.length !== texts.length) throw new Error(`expected ${texts.length} vectors, got ${vectors.length}`);
      return vectors.map(checkVector);
    } catch (error) {
      throw this.failure(error);
    }
  }

  async embedQuery(text: string): Promise<number[]> {
    if (!this.embedder) return [];
    try {
      return checkVector(await this.embedder.embedQuery(text));
    } catch (error) {
      throw this.failure(error);
    }
  }

  private failure(error: unknown) {
    const status = (error as { status?: number })?.status;
    const permanent = status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
    return new EmbeddingError(describeEndpointError(error, this.timeoutMs).replace('model endpoint', 'embeddings endpoint'), permanent);
  }

  /** Creates the vector table once per process (IF NOT EXISTS: other processes may race us). */
  ensureTable(): Promise<void> {
    this.tableReady ??= this.createTable().catch((error) => {
      this.tableReady = undefined;
      throw error;
    });
    return this.tableReady;
  }

  private async createTable() {
    const dimensions = this.config.embeddings?.dimensions;
    const column = dimensions ? `vector(${dimensions})` : 'vector';
    const statements = [
      `CREATE TABLE IF NOT EXISTS ${table} (
        "chunkId" TEXT PRIMARY KEY REFERENCES "KbChunk"("id") ON DELETE CASCADE,
        "id_project" TEXT NOT NULL,
        "namespace" TEXT NOT NULL,
        "model" TEXT NOT NULL,
        "embedding" ${column} NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS "KbChunkEmbedding_scope_idx" ON ${table} ("id_project", "namespace", "model")`,
      ...(dimensions && dimensions <= maxIndexedDimensions
        ? [`CREATE INDEX IF NOT EXISTS "KbChunkEmbedding_embedding_idx" ON ${table} USING hnsw ("embedding" vector_cosine_ops)`]
        : []),
    ];
    for (let attempt = 1; ; attempt++) {
      try {
        for (const sql of statements) await this.db.$executeRawUnsafe(sql);
        return;
      } catch (error) {
        // Two processes creating the table at once: one loses on the catalog's unique index; the next try sees it.
        if (attempt >= 3) throw error;
        this.logger.debug({ err: error }, 'creating the chunk vector table failed; trying again');
      }
    }
  }

  /** Stores the vectors of chunks just inserted in the same transaction. */
  async save(tx: Tx, scope: { projectId: string; namespace: string }, rows: Array<{ chunkId: string; vector: number[] }>) {
    if (!rows.length) return;
    await tx.$executeRawUnsafe(
      `INSERT INTO ${table} ("chunkId", "id_project", "namespace", "model", "embedding")
       SELECT c, $1, $2, $3, e::vector FROM unnest($4::text[], $5::text[]) AS t(c, e)`,
      scope.projectId,
      scope.namespace,
      this.model,
      rows.map((r) => r.chunkId),
      rows.map((r) => vectorLiteral(r.vector)),
    );
  }

  /** The chunks of a namespace nearest to a vector (cosine), best first. */
  async nearest(projectId: string, namespace: string, vector: number[], limit: number): Promise<NearChunk[]> {
    await this.ensureTable();
    const rows = await this.db.$queryRawUnsafe<Array<{ id: string; similarity: number }>>(
      `SELECT "chunkId" AS id, 1 - ("embedding" <=> $1::vector) AS similarity
       FROM ${table}
       WHERE "id_project" = $2 AND "namespace" = $3 AND "model" = $4
       ORDER BY "embedding" <=> $1::vector
       LIMIT $5`,
      vectorLiteral(vector),
      projectId,
      namespace,
      this.model,
      limit,
    );
    return rows.map((r) => ({ id: r.id, similarity: Number(r.similarity) }));
  }
}

function checkVector(vector: number[]): number[] {
  if (!Array.isArray(vector) || !vector.length || !vector.every(Number.isFinite)) {
    throw new Error('the embeddings endpoint answered something that is not a vector of numbers');
  }
  return vector;
}

function vectorLiteral(vector: number[]) {
  return `[${vector.join(',')}]`;
}
