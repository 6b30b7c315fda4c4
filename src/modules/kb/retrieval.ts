import type { Db } from '../../infra/database.js';
import type { Logger } from '../../infra/logger.js';
import type { ChunkVectors } from './vectors.js';

// Retrieval of a namespace's chunks for a question: PostgreSQL full-text ranking, and with vectors
// available, hybrid (vector and lexical candidates fused by reciprocal rank).

export interface RetrievedChunk {
  id: string;
  contentId: string;
  position: number;
  text: string;
  contentName: string;
  contentType: string;
  source: string | null;
  score: number;
}

export type RetrievalMode = 'lexical' | 'hybrid';

// Reciprocal rank fusion constant (Cormack et al.): damps the weight of the very first ranks.
const rrfK = 60;
/** Below this cosine similarity a vector neighbour is not taken as relevant. */
export const minVectorSimilarity = 0.2;

interface ChunkRow {
  id: string;
  contentId: string;
  position: number;
  text: string;
  contentName: string;
  contentType: string;
  source: string | null;
  rank: number;
}

// A question becomes an OR of its stemmed words: every chunk sharing a meaningful word is a
// candidate (found through the GIN index). Candidates are ranked like BM25: each shared word
// counts by its rarity in the namespace (idf over $4 chunks; its document frequency is exact, as
// every chunk holding it is a candidate) times ts_rank's saturating, length-normalised frequency
// of it in the chunk. The CTEs are materialised so each runs once whatever the planner estimates.
const lexicalSql = `
  WITH terms AS MATERIALIZED (
    SELECT t.lexeme, to_tsquery('simple', quote_literal(t.lexeme)) AS tq
    FROM (SELECT DISTINCT lexeme FROM unnest(to_tsvector('english'::regconfig, $3))) t
  ),
  candidates AS MATERIALIZED (
    SELECT c."id", c."search"
    FROM "KbChunk" c
    WHERE c."id_project" = $1 AND c."namespace" = $2
      AND c."search" @@ (SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) FROM terms)
  ),
  matches AS MATERIALIZED (
    SELECT candidates."id", terms.lexeme, ts_rank(candidates."search", terms.tq, 1) AS tf
    FROM candidates JOIN terms ON candidates."search" @@ terms.tq
  ),
  df AS MATERIALIZED (SELECT lexeme, count(*)::float8 AS n FROM matches GROUP BY lexeme),
  best AS MATERIALIZED (
    SELECT matches."id", sum(ln(1 + (greatest($4::float8, df.n) - df.n + 0.5) / (df.n + 0.5)) * matches.tf) AS rank
    FROM matches JOIN df USING (lexeme)
    GROUP BY matches."id"
    ORDER BY rank DESC, matches."id"
    LIMIT $5
  )
  SELECT c."id", c."contentId", c."position", c."text",
         k."name" AS "contentName", k."type" AS "contentType", k."source", best.rank
  FROM best JOIN "KbChunk" c ON c."id" = best."id" JOIN "KbContent" k ON k."id" = c."contentId"
  ORDER BY best.rank DESC, c."id"`;

// Chunk counts of namespaces (the N of idf) change slowly: read at most every 30 s per namespace.
const totalTtlMs = 30_000;
const maxCachedTotals = 10_000;

const byIdsSql = `
  SELECT c."id", c."contentId", c."position", c."text",
         k."name" AS "contentName", k."type" AS "contentType", k."source", 0::float8 AS rank
  FROM "KbChunk" c JOIN "KbContent" k ON k."id" = c."contentId"
  WHERE c."id_project" = $1 AND c."id" = ANY($2::text[])`;

export class Retriever {
  private totals = new Map<string, { n: number; at: number }>();

  constructor(
    private db: Db,
    private vectors: ChunkVectors,
    private logger: Logger,
  ) {}

  get mode(): RetrievalMode {
    return this.vectors.enabled ? 'hybrid' : 'lexical';
  }

  /** The `topK` most relevant chunks; empty when nothing in the namespace relates to the query. */
  async search(projectId: string, namespace: string, query: string, topK: number, mode = this.mode): Promise<RetrievedChunk[]> {
    const candidates = Math.max(topK * 4, 20);
    if (mode === 'lexical' || !this.vectors.enabled) {
      const rows = await this.lexical(projectId, namespace, query, topK);
      return rows.map((row) => toChunk(row, Number(row.rank)));
    }
    const [lexical, near] = await Promise.all([
      this.lexical(projectId, namespace, query, candidates),
      this.near(projectId, namespace, query, candidates),
    ]);
    const scores = new Map<string, number>();
    lexical.forEach((row, i) => scores.set(row.id, (scores.get(row.id) ?? 0) + 1 / (rrfK + i + 1)));
    near.forEach((hit, i) => scores.set(hit.id, (scores.get(hit.id) ?? 0) + 1 / (rrfK + i + 1)));
    const best = [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, topK);
    const rows = new Map(lexical.map((row) => [row.id, row]));
    const missing = best.map(([id]) => id).filter((id) => !rows.has(id));
    if (missing.length) {
      for (const row of await this.db.$queryRawUnsafe<ChunkRow[]>(byIdsSql, projectId, missing)) rows.set(row.id, row);
    }
    return best.filter(([id]) => rows.has(id)).map(([id, score]) => toChunk(rows.get(id)!, score));
  }

  private async lexical(projectId: string, namespace: string, query: string, limit: number) {
    const total = await this.chunkTotal(projectId, namespace);
    return this.db.$queryRawUnsafe<ChunkRow[]>(lexicalSql, projectId, namespace, query, total, limit);
  }

  private async chunkTotal(projectId: string, namespace: string) {
    const key = `${projectId}:${namespace}`;
    const cached = this.totals.get(key);
    if (cached && Date.now() - cached.at < totalTtlMs) return cached.n;
    const n = await this.db.kbChunk.count({ where: { id_project: projectId, namespace } });
    this.totals.delete(key);
    if (this.totals.size >= maxCachedTotals) this.totals.delete(this.totals.keys().next().value!);
    this.totals.set(key, { n, at: Date.now() });
    return n;
  }

  /** Vector neighbours above the similarity floor; an embeddings failure leaves only lexical candidates. */
  private async near(projectId: string, namespace: string, query: string, limit: number) {
    try {
      const vector = await this.vectors.embedQuery(query);
      const hits = await this.vectors.nearest(projectId, namespace, vector, limit);
      return hits.filter((hit) => hit.similarity >= minVectorSimilarity);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'vector retrieval failed; using lexical retrieval only');
      return [];
    }
  }
}

function toChunk(row: ChunkRow, score: number): RetrievedChunk {
  return {
    id: row.id,
    contentId: row.contentId,
    position: Number(row.position),
    text: row.text,
    contentName: row.contentName,
    contentType: row.contentType,
    source: row.source,
    score,
  };
}
