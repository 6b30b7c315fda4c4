import type { Config } from '../../../config.js';
import type { Db, Tx } from '../../../infra/database.js';
import type { Logger } from '../../../infra/logger.js';
import { LocalEncoder } from './encoder.js';
import { endpointFetch, describeEndpointError } from '../answering/model-endpoint.js';
import { VectorIndex } from './vector-index.js';

// Chunk vectors: from the configured embeddings endpoint, else from the local sentence encoder
// (KB_ENCODER, on by default in embedded mode). Where the database has pgvector (PGlite has it)
// they are stored and searched there; elsewhere (a PostgreSQL without the extension) they are
// stored as float32 bytes and scored here, exactly, over the namespace's vectors. The tables are
// created at run time, not by a migration: a PostgreSQL without pgvector must still migrate, and
// the vector size depends on the model.

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
// Calibrated on bench/kb-quality.bench.ts (learning split, see the README): the lowest floor that keeps 18 of 20
// unrelated questions of each list abstaining with the coverage floor of 0.3.
export const localEncoderMinSimilarity = 0.55;
const endpointMinSimilarity = 0.2;
const bytesTable = '"KbChunkVector"';
const versionTable = '"KbChunkVectorVersion"';
/** Namespaces whose vectors are kept in this process (LRU); each costs about 600 bytes a 512-dimension vector. */
const maxIndexes = 8;
/** Vectors read per query when an index is filled. */
const loadBatch = 5_000;
// pgvector's HNSW index takes vectors of up to 2000 dimensions.
const maxIndexedDimensions = 2000;

export interface NearChunk {
  id: string;
  similarity: number;
}

interface Encoder {
  model: string;
  dimensions?: number;
  embedDocuments(texts: string[]): Promise<number[][]>;
  embedQuery(text: string): Promise<number[]>;
}

export class ChunkVectors {
  readonly enabled: boolean;
  private encoder?: Encoder;
  private local?: LocalEncoder;
  private tableReady?: Promise<void>;
  private timeoutMs = 60_000;

  constructor(
    private db: Db,
    private config: Config,
    private hasVector: boolean,
    private logger: Logger,
  ) {
    const settings = config.embeddings;
    if (settings) {
      // An embeddings endpoint, when configured, replaces the local encoder.
      // LangChain's OpenAI client is loaded with the first vectors asked for (see answer.ts).
      let embedder: Promise<import('@langchain/openai').OpenAIEmbeddings> | undefined;
      const embeddings = () =>
        (embedder ??= import('@langchain/openai').then(
          ({ OpenAIEmbeddings }) =>
            new OpenAIEmbeddings({
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
            }),
        ));
      this.encoder = {
        model: settings.model,
        dimensions: settings.dimensions,
        embedDocuments: async (texts) => (await embeddings()).embedDocuments(texts),
        embedQuery: async (text) => (await embeddings()).embedQuery(text),
      };
    } else if (config.kb.encoder === 'local') {
      const local = new LocalEncoder(logger);
      this.local = local;
      this.encoder = {
        model: local.model,
        dimensions: local.dimensions,
        embedDocuments: (texts) => local.embed(texts),
        embedQuery: async (text) => (await local.embed([text]))[0],
      };
    }
    this.enabled = !!this.encoder;
    if (this.enabled && !hasVector) {
      logger.info('the database has no pgvector: knowledge-base vectors are stored as bytes and scored in the server');
    }
  }

  /**
   * Below this cosine similarity the nearest chunk is not taken as an answer (see qa.ts): the local
   * encoder's floor is calibrated on the bench; an endpoint's model is unknown, so its floor is low.
   */
  get minSimilarity(): number {
    return this.local ? localEncoderMinSimilarity : endpointMinSimilarity;
  }

  /** Whether the vectors are the local encoder's, the similarity scale retrieval's floors are calibrated on. */
  get localEncoder(): boolean {
    return !!this.local;
  }

  get model(): string {
    return this.encoder?.model ?? '';
  }

  /** Loads the local encoder now (it is otherwise loaded by the first text to embed). */
  async warm() {
    await this.local?.warm();
  }

  async close() {
    await this.local?.close();
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    if (!this.encoder) return [];
    try {
      const vectors = await this.encoder.embedDocuments(texts);
      if (vectors.length !== texts.length) throw new Error(`expected ${texts.length} vectors, got ${vectors.length}`);
      return vectors.map(checkVector);
    } catch (error) {
      throw this.failure(error);
    }
  }

  async embedQuery(text: string): Promise<number[]> {
    if (!this.encoder) return [];
    try {
      return checkVector(await this.encoder.embedQuery(text));
    } catch (error) {
      throw this.failure(error);
    }
  }

  private failure(error: unknown) {
    if (this.local) return new EmbeddingError((error as Error).message, false);
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
    const statements = this.hasVector ? this.vectorTable() : this.bytesTable();
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

  private vectorTable() {
    const dimensions = this.encoder?.dimensions;
    const column = dimensions ? `vector(${dimensions})` : 'vector';
    return [
      `CREATE TABLE IF NOT EXISTS ${table} (
        "chunkId" TEXT PRIMARY KEY REFERENCES "KbChunk"("id") ON DELETE CASCADE,
        "id_project" TEXT NOT NULL,
        "namespace" TEXT NOT NULL,
        "model" TEXT NOT NULL,
        "embedding" ${column} NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS "KbChunkEmbedding_scope_idx" ON ${table} ("id_project", "namespace", "model")`,
      // The local encoder's vectors are searched exactly within their namespace (thousands of
      // chunks at most): an approximate index filtered by namespace can miss neighbours.
      ...(dimensions && dimensions <= maxIndexedDimensions && !this.local
        ? [`CREATE INDEX IF NOT EXISTS "KbChunkEmbedding_embedding_idx" ON ${table} USING hnsw ("embedding" vector_cosine_ops)`]
        : []),
    ];
  }

  private bytesTable() {
    return [
      `CREATE TABLE IF NOT EXISTS ${bytesTable} (
        "chunkId" TEXT PRIMARY KEY REFERENCES "KbChunk"("id") ON DELETE CASCADE,
        "id_project" TEXT NOT NULL,
        "namespace" TEXT NOT NULL,
        "model" TEXT NOT NULL,
        "embedding" BYTEA NOT NULL
      )`,
      `CREATE INDEX IF NOT EXISTS "KbChunkVector_scope_idx" ON ${bytesTable} ("id_project", "namespace", "model")`,
      // A namespace's version, bumped by every statement that adds or removes its vectors (a
      // content's chunks deleted take theirs by cascade): each process's in-memory index checks it.
      `CREATE TABLE IF NOT EXISTS ${versionTable} (
        "id_project" TEXT NOT NULL,
        "namespace" TEXT NOT NULL,
        "version" BIGINT NOT NULL,
        PRIMARY KEY ("id_project", "namespace")
      )`,
      `CREATE OR REPLACE FUNCTION "kb_chunk_vector_changed"() RETURNS trigger LANGUAGE plpgsql AS $f$
       BEGIN
         INSERT INTO ${versionTable} ("id_project", "namespace", "version")
         SELECT DISTINCT "id_project", "namespace", 1 FROM changed
         ON CONFLICT ("id_project", "namespace") DO UPDATE SET "version" = ${versionTable}."version" + 1;
         RETURN NULL;
       END $f$`,
      `CREATE OR REPLACE TRIGGER "KbChunkVector_inserted" AFTER INSERT ON ${bytesTable}
       REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "kb_chunk_vector_changed"()`,
      `CREATE OR REPLACE TRIGGER "KbChunkVector_deleted" AFTER DELETE ON ${bytesTable}
       REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "kb_chunk_vector_changed"()`,
    ];
  }

  /** Stores the vectors of chunks just inserted in the same transaction. */
  async save(tx: Tx, scope: { projectId: string; namespace: string }, rows: Array<{ chunkId: string; vector: number[] }>) {
    if (!rows.length) return;
    if (!this.hasVector) {
      await tx.$executeRawUnsafe(
        `INSERT INTO ${bytesTable} ("chunkId", "id_project", "namespace", "model", "embedding")
         SELECT c, $1, $2, $3, decode(e, 'base64') FROM unnest($4::text[], $5::text[]) AS t(c, e)`,
        scope.projectId,
        scope.namespace,
        this.model,
        rows.map((r) => r.chunkId),
        rows.map((r) => Buffer.from(Float32Array.from(r.vector).buffer).toString('base64')),
      );
      return;
    }
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
    if (!this.hasVector) return this.nearestStored(projectId, namespace, vector, limit);
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

  /**
   * Without pgvector: the namespace's vectors are kept in this process (vector-index.ts), brought
   * up to date with the namespace's version before each question; the neighbours it finds get
   * their exact cosine from their stored vectors.
   */
  private async nearestStored(projectId: string, namespace: string, vector: number[], limit: number): Promise<NearChunk[]> {
    const index = await this.currentIndex(projectId, namespace, vector.length);
    const ids = index.nearest(vector, limit);
    if (!ids.length) return [];
    const rows = await this.db.$queryRawUnsafe<Array<{ id: string; embedding: Uint8Array }>>(
      `SELECT "chunkId" AS id, "embedding" FROM ${bytesTable} WHERE "chunkId" = ANY($1::text[])`,
      ids,
    );
    const query = Float32Array.from(vector);
    const queryNorm = Math.sqrt(query.reduce((sum, x) => sum + x * x, 0)) || 1;
    const scored = rows.map((row) => {
      const stored = floats(row.embedding);
      let dot = 0;
      let norm = 0;
      const n = Math.min(stored.length, query.length);
      for (let i = 0; i < n; i++) {
        dot += stored[i] * query[i];
        norm += stored[i] * stored[i];
      }
      return { id: row.id, similarity: dot / (queryNorm * (Math.sqrt(norm) || 1)) };
    });
    return scored.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1)).slice(0, limit);
  }

  private indexes = new Map<string, Promise<VectorIndex>>();

  /** The namespace's index as of its version now (one refresh at a time per namespace; questions share it). */
  private currentIndex(projectId: string, namespace: string, dimensions: number): Promise<VectorIndex> {
    const key = `${projectId}:${namespace}:${this.model}:${dimensions}`;
    const previous = this.indexes.get(key);
    const next = (async () => {
      const known = await previous?.catch(() => undefined);
      const [row] = await this.db.$queryRawUnsafe<Array<{ version: string }>>(
        `SELECT "version"::text AS version FROM ${versionTable} WHERE "id_project" = $1 AND "namespace" = $2`,
        projectId,
        namespace,
      );
      const version = row?.version ?? '0';
      if (known && known.version === version) return known;
      const index = known ?? new VectorIndex(dimensions, version);
      // The ids as they are now (read after the version: a change committed meanwhile bumps it again).
      const listed = await this.db.$queryRawUnsafe<Array<{ id: string }>>(
        `SELECT "chunkId" AS id FROM ${bytesTable} WHERE "id_project" = $1 AND "namespace" = $2 AND "model" = $3`,
        projectId,
        namespace,
        this.model,
      );
      const ids = new Set(listed.map((r) => r.id));
      index.retain(ids);
      const missing = [...ids].filter((id) => !index.has(id));
      for (let at = 0; at < missing.length; at += loadBatch) {
        const rows = await this.db.$queryRawUnsafe<Array<{ id: string; embedding: Uint8Array }>>(
          `SELECT "chunkId" AS id, "embedding" FROM ${bytesTable} WHERE "chunkId" = ANY($1::text[])`,
          missing.slice(at, at + loadBatch),
        );
        index.add(rows.map((r) => ({ id: r.id, vector: floats(r.embedding) })));
      }
      index.version = version;
      return index;
    })();
    this.indexes.delete(key);
    if (this.indexes.size >= maxIndexes) this.indexes.delete(this.indexes.keys().next().value!);
    this.indexes.set(key, next);
    // A failed refresh leaves no index behind: the next question reads it again.
    next.catch(() => {
      if (this.indexes.get(key) === next) this.indexes.delete(key);
    });
    return next;
  }
}

function floats(bytes: Uint8Array): Float32Array {
  const buffer = Buffer.from(bytes);
  return new Float32Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
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
