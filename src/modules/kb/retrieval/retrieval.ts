import type { Db } from '../../../infra/database.js';
import type { Logger } from '../../../infra/logger.js';
import { stopWords, type RetrievedChunk } from './passage.js';
import { contentStems, stemText } from './stems.js';
import type { ChunkVectors } from '../indexing/vectors.js';

// Retrieval of a namespace's chunks for a question. Lexical: BM25 over the light stems (stems.ts)
// of two fields, the chunk's text and the question of an faq content. Dense, when vectors exist
// (the local encoder or an embeddings endpoint): cosine similarity. By default (KB_RANKING=fusion)
// both are fused by min-max score fusion, a convex combination giving KB_DENSE_WEIGHT (0.3) to the
// dense list: on CovidFAQ (bench/kb-quality.bench.ts) it beat reciprocal-rank fusion and an even
// split, because the local encoder alone ranks well below BM25; min-max keeps how far ahead the
// best candidate of each list is, where ranks drop it.

/**
 * `fusion` (min-max) and `rrf` combine lexical and dense ranks; `lexical` ranks by BM25 alone but
 * still reads the similarity of the chunks found (for abstention); without vectors every mode is lexical.
 */
export type RetrievalMode = 'lexical' | 'dense' | 'fusion' | 'rrf';

export interface RetrievalSettings {
  /** The ranking used when vectors exist (KB_RANKING). */
  ranking: Exclude<RetrievalMode, 'dense'>;
  /** Share of the min-max fused score given to cosine similarity (KB_DENSE_WEIGHT). */
  denseWeight: number;
  /** Abstention floors (KB_MIN_COVERAGE, KB_MIN_SIMILARITY; the latter unset: the encoder's own). */
  minCoverage: number;
  minSimilarity?: number;
  /** Chunks from which candidates come from a question's rarest stems (KB_LARGE_NAMESPACE, 20,000), up to this many chunks (KB_CANDIDATE_BUDGET, 1,000, or 1% of the namespace). */
  largeNamespace?: number;
  candidateBudget?: number;
}

export interface SearchOptions {
  mode?: RetrievalMode;
  denseWeight?: number;
}

// BM25's usual constants (Robertson & Zaragoza): term-frequency saturation and length normalisation.
const k1 = 1.2;
const b = 0.75;
/** Weight in coverage of a question's word that no chunk of the knowledge base holds. */
const unseenWeight = 2;
/** The faq question field counts as much as the text (where the question is also found). */
const headingWeight = 1;
/** Weight of each further match of a passage (a learned phrasing after the first) in its score. */
const votes = 0.5;
/**
 * With the local encoder, the similarity a question needs depends on how familiar its words are
 * (RetrievedChunk.familiar): 0.4 when at least half of its meaningful words appear in some content,
 * its plain floor (0.55) when most of them appear in none and the chunk is the content's own, and
 * where familiarity is not measured; 0.65 when most appear in none and the chunk was found only
 * through a learned phrasing (a visitor's wording, not the knowledge base's). A paraphrase that
 * shares no word with its content ("I want my cash returned" for "How do I get my money back?") is
 * what the encoder is there for (test/kb-encoder.test.ts); a question the knowledge base does not
 * know, close only to something a visitor once asked, is weaker evidence.
 * Similarity alone could not separate answerable from unrelated CovidFAQ questions ("How do I clean
 * a cast iron pan?" reaches 0.56, many real COVID questions stay under 0.5); vocabulary does: 2 of
 * the 20 general questions have half their meaningful words in the knowledge base, 712 of the 716
 * taught ones do. Calibrated on the taught half of CovidFAQ's questions and the bench's `general`
 * list only (the asked half and the `unrelated` list checked them): see docs/knowledge-bases.md.
 * Another model's similarities have another scale: an endpoint's floor, or KB_MIN_SIMILARITY when
 * set, stays one floor for every question.
 */
const familiarShare = 0.5;
const localFamiliarFloor = 0.4;
const localUnfamiliarLearnedFloor = 0.65;
// Reciprocal rank fusion constant (Cormack et al.): damps the weight of the very first ranks.
const rrfK = 60;

/** A chunk as the retrieval queries answer it: what answering gets, with its lexical rank instead of the fused score. */
type ChunkRow = Omit<RetrievedChunk, 'score' | 'similarity' | 'learned' | 'familiar'> & { rank: number; phrasingId: string | null; heading: string; familiar?: number };

// A question becomes an OR of its stems: every chunk sharing one is a candidate (found through the
// GIN index), so a stem's document frequency over the candidates is exact. For each candidate the
// tsvector is cut down to the question's stems (two ts_delete calls, in C) before being unnested:
// a stem's positions give its frequency in the text (weight D) and in the heading (weight A). The
// lengths are the fields' word counts (generated columns); $4 is the namespace's chunk count, $6
// and $7 its average lengths; $8 the question's meaningful stems, whose share in the chunk is its
// coverage, a stem the knowledge base never uses counting twice: a question whose own words
// ("sourdough", "Peru") the knowledge base does not know is not covered by the few it shares.
// `familiar` is the share of those stems that some content's chunk holds (learned phrasings aside;
// in a large namespace a stem counted in the frequency table counts as held): what abstention reads
// to set the similarity a question needs (relevant()). The CTEs are materialised so each runs once whatever the planner estimates.
const lexicalSql = `
  WITH q AS MATERIALIZED (
    SELECT coalesce(array_agg(DISTINCT lexeme), '{}'::text[]) AS lexemes
    FROM unnest(to_tsvector('simple'::regconfig, $3))
  ),
  candidates AS MATERIALIZED (
    SELECT c."id", coalesce(c."terms", 0)::float8 AS len, coalesce(c."headingTerms", 0)::float8 AS hlen,
           c."phrasingId" IS NULL AS own,
           ts_delete(c."search", tsvector_to_array(ts_delete(c."search", q.lexemes))) AS matched
    FROM "KbChunk" c, q
    WHERE c."id_project" = $1 AND c."namespace" = $2
      AND c."search" @@ coalesce(
        (SELECT to_tsquery('simple', string_agg(g.conjunction, ' | '))
         FROM unnest($11::text[]) grp, LATERAL (SELECT string_agg(quote_literal(w), ' & ') AS conjunction FROM unnest(string_to_array(grp, ' ')) w) g),
        (SELECT to_tsquery('simple', string_agg(quote_literal(l), ' | ')) FROM unnest(q.lexemes) l WHERE NOT l = ANY($9::text[])))
  ),
  matches AS MATERIALIZED (
    SELECT cand."id", cand.len, cand.hlen, cand.own, m.lexeme,
           (SELECT count(*) FROM unnest(m.weights) w WHERE w = 'A')::float8 AS tfh,
           (SELECT count(*) FROM unnest(m.weights) w WHERE w <> 'A')::float8 AS tf
    FROM candidates cand CROSS JOIN LATERAL unnest(cand.matched) AS m
  ),
  df AS MATERIALIZED (
    SELECT lexeme, count(*)::float8 AS n FROM matches WHERE NOT lexeme = ANY($9::text[]) GROUP BY lexeme
    UNION ALL SELECT * FROM unnest($9::text[], $10::float8[])
  ),
  idf AS MATERIALIZED (
    SELECT t.lexeme, ln(1 + (greatest($4::float8, coalesce(df.n, 0)) - coalesce(df.n, 0) + 0.5) / (coalesce(df.n, 0) + 0.5)) AS w,
           CASE WHEN coalesce(df.n, 0) = 0 THEN ${unseenWeight} ELSE 1 END AS cw
    FROM (SELECT unnest(lexemes) AS lexeme FROM q) t LEFT JOIN df USING (lexeme)
  ),
  familiar AS MATERIALIZED (
    SELECT count(*)::float8 / greatest(cardinality($8::text[]), 1) AS share
    FROM unnest($8::text[]) AS w(lexeme)
    WHERE EXISTS (SELECT 1 FROM matches WHERE matches.lexeme = w.lexeme AND matches.own)
       OR EXISTS (SELECT 1 FROM unnest($9::text[], $10::float8[]) AS common(lexeme, n) WHERE common.lexeme = w.lexeme AND common.n > 0)
  ),
  best AS MATERIALIZED (
    SELECT matches."id",
           sum(idf.w * (
             matches.tf * ${k1 + 1} / (matches.tf + ${k1} * (${1 - b} + ${b} * matches.len / $6::float8))
             + ${headingWeight} * matches.tfh * ${k1 + 1} / (matches.tfh + ${k1} * (${1 - b} + ${b} * matches.hlen / $7::float8))
           )) AS rank,
           count(*) FILTER (WHERE matches.lexeme = ANY($8::text[]))::float8
             / (SELECT greatest(sum(cw), 1) FROM idf WHERE lexeme = ANY($8::text[])) AS coverage
    FROM matches JOIN idf USING (lexeme)
    GROUP BY matches."id"
    ORDER BY rank DESC, matches."id"
    LIMIT $5
  )
  SELECT c."id", c."contentId", c."position", c."text", c."phrasingId", c."heading",
         k."name" AS "contentName", k."type" AS "contentType", k."source", best.rank, best.coverage, familiar.share AS familiar
  FROM best CROSS JOIN familiar JOIN "KbChunk" c ON c."id" = best."id" JOIN "KbContent" k ON k."id" = c."contentId"
  ORDER BY best.rank DESC, c."id"`;

// Document frequencies of every stem of a large namespace, read in one pass (ts_stat over its
// tsvectors, in C) and kept in this process: counting a common stem's chunks through the GIN index
// for each question visits tens of thousands of rows (100 to 450 ms at 100,000 chunks), where
// looking it up here costs nothing. They move slowly: a table older than 5 minutes is still used
// while it is read again in the background, so no question waits for it after the first.
const frequenciesSql = `
  SELECT word AS lexeme, ndoc::float8 AS n
  FROM ts_stat(format('SELECT "search" FROM "KbChunk" WHERE "id_project" = %L AND "namespace" = %L', $1::text, $2::text))`;
const pruneShare = 0.01;
const frequencyTtlMs = 300_000;
/** Large namespaces whose frequency tables are kept (each about 100 bytes a distinct stem). */
const maxFrequencyTables = 16;

interface FrequencyTable {
  df: Map<string, number>;
  at: number;
  refreshing?: Promise<unknown>;
}

// Namespace statistics (the N and average lengths of BM25) change slowly: read at most every 30 s.
const statsTtlMs = 30_000;
const maxCachedStats = 10_000;

interface NamespaceStats {
  n: number;
  avgTerms: number;
  avgHeadingTerms: number;
  at: number;
}

const byIdsSql = `
  SELECT c."id", c."contentId", c."position", c."text", c."phrasingId", c."heading",
         k."name" AS "contentName", k."type" AS "contentType", k."source", 0::float8 AS rank, 0::float8 AS coverage
  FROM "KbChunk" c JOIN "KbContent" k ON k."id" = c."contentId"
  WHERE c."id_project" = $1 AND c."id" = ANY($2::text[])`;

// The chunk a learned phrasing answers with: its content's first chunk of text.
const leadChunksSql = `
  SELECT DISTINCT ON (c."contentId") c."id", c."contentId", c."position", c."text", c."phrasingId", c."heading",
         k."name" AS "contentName", k."type" AS "contentType", k."source", 0::float8 AS rank, 0::float8 AS coverage
  FROM "KbChunk" c JOIN "KbContent" k ON k."id" = c."contentId"
  WHERE c."id_project" = $1 AND c."contentId" = ANY($2::text[]) AND c."phrasingId" IS NULL
  ORDER BY c."contentId", c."position"`;

export class Retriever {
  private stats = new Map<string, NamespaceStats>();
  private frequencies = new Map<string, FrequencyTable>();
  private loadingFrequencies = new Map<string, Promise<FrequencyTable>>();

  constructor(
    private db: Db,
    private vectors: ChunkVectors,
    private logger: Logger,
    private settings: RetrievalSettings,
  ) {}

  /** Cosine similarity from which a chunk counts as relevant whatever words it shares (familiarity not measured). */
  get minSimilarity(): number {
    return this.settings.minSimilarity ?? this.vectors.minSimilarity;
  }

  /** The similarity floor for a question `familiar` of whose meaningful words the knowledge base uses (see localFamiliarFloor). */
  similarityFloor(familiar: number | undefined, learned = false): number {
    if (this.settings.minSimilarity !== undefined || familiar === undefined || !this.vectors.localEncoder) return this.minSimilarity;
    if (familiar >= familiarShare) return localFamiliarFloor;
    return learned ? localUnfamiliarLearnedFloor : this.minSimilarity;
  }

  get mode(): RetrievalMode {
    return this.vectors.enabled ? this.settings.ranking : 'lexical';
  }

  /**
   * Whether the best chunk found answers the question at all: it holds enough of the question's
   * meaningful words, or is close enough in meaning, closer when the knowledge base does not use
   * most of the question's words (see `localFamiliarFloor`). Better no answer than the least bad passage.
   */
  relevant(chunk: RetrievedChunk | undefined, floors: Partial<Pick<RetrievalSettings, 'minCoverage' | 'minSimilarity'>> = {}): boolean {
    if (!chunk) return false;
    const minCoverage = floors.minCoverage ?? this.settings.minCoverage;
    const minSimilarity = floors.minSimilarity ?? this.similarityFloor(chunk.familiar, chunk.learned !== undefined);
    return chunk.coverage >= minCoverage || (chunk.similarity ?? -1) >= minSimilarity;
  }

  /** The `topK` most relevant chunks, best first; empty when nothing in the namespace relates to the query. */
  async search(projectId: string, namespace: string, query: string, topK: number, options: SearchOptions = {}): Promise<RetrievedChunk[]> {
    const mode = options.mode ?? this.mode;
    // Learned phrasings are chunks of their own, several per content: read deeper, then keep one chunk per passage.
    const depth = Math.max(topK * 4, 30);
    if (!this.vectors.enabled) {
      const rows = await this.lexical(projectId, namespace, query, depth);
      return this.passages(projectId, rows.map((row) => [row, Number(row.rank), null]), topK, familiarity(rows));
    }
    // Fusion looks deeper than topK in both lists: a chunk second in both beats one first in one.
    // Lexical ranking reads as deep, so that the chunks it ranks first have their similarity.
    const [lexical, near] = await Promise.all([
      mode === 'dense' ? Promise.resolve([]) : this.lexical(projectId, namespace, query, depth),
      this.near(projectId, namespace, query, depth),
    ]);
    const similarity = new Map(near.map((hit) => [hit.id, hit.similarity]));
    const scores = new Map<string, number>();
    const add = (id: string, score: number) => scores.set(id, (scores.get(id) ?? 0) + score);
    if (mode === 'lexical') {
      // A question sharing no stem with any chunk is left to the vectors.
      if (lexical.length) lexical.forEach((row) => add(row.id, Number(row.rank)));
      else near.forEach((hit) => add(hit.id, hit.similarity));
    } else if (mode === 'rrf') {
      lexical.forEach((row, i) => add(row.id, 1 / (rrfK + i + 1)));
      near.forEach((hit, i) => add(hit.id, 1 / (rrfK + i + 1)));
    } else {
      const denseWeight = options.denseWeight ?? this.settings.denseWeight;
      const lexicalWeight = mode === 'dense' ? 0 : near.length ? 1 - denseWeight : 1;
      for (const [id, score] of minMax(lexical.map((row) => [row.id, Number(row.rank)]))) add(id, lexicalWeight * score);
      for (const [id, score] of minMax(near.map((hit) => [hit.id, hit.similarity]))) add(id, (1 - lexicalWeight) * score);
    }
    const best = [...scores.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, depth);
    const rows = new Map(lexical.map((row) => [row.id, row]));
    const missing = best.map(([id]) => id).filter((id) => !rows.has(id));
    if (missing.length) {
      for (const row of await this.db.$queryRawUnsafe<ChunkRow[]>(byIdsSql, projectId, missing)) rows.set(row.id, row);
    }
    const ranked = best.filter(([id]) => rows.has(id)).map(([id, score]): Scored => [rows.get(id)!, score, similarity.get(id) ?? null]);
    return this.passages(projectId, ranked, topK, mode === 'dense' ? undefined : familiarity(lexical));
  }

  /** The passages nearest to a vector (the vector store's similarity search), best first. */
  async nearestPassages(projectId: string, namespace: string, vector: number[], k: number): Promise<RetrievedChunk[]> {
    const near = await this.vectors.nearest(projectId, namespace, vector, k * 2);
    if (!near.length) return [];
    const rows = new Map((await this.db.$queryRawUnsafe<ChunkRow[]>(byIdsSql, projectId, near.map((n) => n.id))).map((r) => [r.id, r]));
    const ranked = near.filter((n) => rows.has(n.id)).map((n): Scored => [rows.get(n.id)!, n.similarity, n.similarity]);
    return this.passages(projectId, ranked, k);
  }

  /**
   * Ranked chunks as passages: a learned phrasing's chunk stands for its content's first chunk (with
   * the phrasing's coverage and similarity, which say how close the question is to it), each
   * passage once, at its best rank.
   */
  private async passages(projectId: string, ranked: Scored[], topK: number, familiar?: number): Promise<RetrievedChunk[]> {
    const learnedContents = [...new Set(ranked.filter(([row]) => row.phrasingId).map(([row]) => row.contentId))];
    const leads = new Map<string, ChunkRow>();
    if (learnedContents.length) {
      for (const row of await this.db.$queryRawUnsafe<ChunkRow[]>(leadChunksSql, projectId, learnedContents)) leads.set(row.contentId, row);
    }
    const out = new Map<string, RetrievedChunk>();
    for (const [row, score, similarity] of ranked) {
      const passage = row.phrasingId ? leads.get(row.contentId) : row;
      if (!passage) continue;
      const chunk = toChunk(passage, score, similarity, row.phrasingId ? row.heading : undefined);
      chunk.coverage = Number(row.coverage ?? 0);
      if (familiar !== undefined) chunk.familiar = familiar;
      const seen = out.get(chunk.id);
      if (!seen) {
        out.set(chunk.id, chunk);
        continue;
      }
      // Found again (through more learned phrasings): each further match adds to its score, as
      // neighbours vote in a nearest-neighbour classifier, and it keeps the strongest signals.
      seen.score += votes * score;
      seen.coverage = Math.max(seen.coverage, chunk.coverage);
      if (chunk.similarity !== null) seen.similarity = Math.max(seen.similarity ?? -1, chunk.similarity);
      seen.learned ??= chunk.learned;
    }
    return [...out.values()].sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1)).slice(0, topK);
  }

  private async lexical(projectId: string, namespace: string, query: string, limit: number) {
    const stats = await this.namespaceStats(projectId, namespace);
    const wanted = contentStems(query, stopWords);
    const stemmed = stemText(query);
    const { common, pairs } = stats.n >= (this.settings.largeNamespace ?? 20_000) ? await this.commonStems(projectId, namespace, stemmed, stats.n) : { common: new Map<string, number>(), pairs: [] };
    return this.db.$queryRawUnsafe<ChunkRow[]>(
      lexicalSql,
      projectId,
      namespace,
      stemmed,
      stats.n,
      limit,
      stats.avgTerms,
      stats.avgHeadingTerms,
      wanted,
      [...common.keys()],
      [...common.values()],
      pairs,
    );
  }

  /**
   * The question's stems too common to bring candidates, with their document frequency; `pairs`
   * (groups of stems "a b", any group's stems all in a chunk) when even the rarest is too common.
   */
  private async commonStems(projectId: string, namespace: string, stemmed: string, n: number): Promise<{ common: Map<string, number>; pairs: string[] }> {
    const lexemes = [...new Set(stemmed.split(' ').filter(Boolean))];
    const table = await this.frequencyTable(projectId, namespace);
    // A stem the table does not know (written since it was read) is rare: it brings candidates, counted exactly.
    const known = new Map(lexemes.map((lexeme) => [lexeme, table.df.get(lexeme) ?? 0]));
    // Candidates come from the rarest stems, up to a budget of chunks (always at least the rarest
    // stem); the others are scored on those candidates only.
    const byRarity = [...known].sort((x, y) => x[1] - y[1]);
    const budget = Math.max(this.settings.candidateBudget ?? 1_000, pruneShare * n);
    let taken = 0;
    let kept = 0;
    while (kept < byRarity.length && (kept === 0 || taken + byRarity[kept][1] <= budget)) taken += byRarity[kept++][1];
    if (taken > budget && byRarity.length > 1) {
      // Every stem is common ("how do I log in"): a chunk holding one of them only would rank low
      // anyway, and scoring all of them is what made such questions slow. Candidates hold two of the
      // three rarest stems, or, when those are so common that pairs would still bring too many
      // (estimated as if stems were independent), all of the fewest rarest that bring few enough.
      // Every stem's frequency then comes from the table.
      const share = (i: number) => byRarity[i][1] / Math.max(n, 1);
      const rarest = byRarity.slice(0, 3).map(([lexeme]) => lexeme);
      const pairs = rarest.flatMap((a, i) => rarest.slice(i + 1).map((b, j) => [a, b, n * share(i) * share(i + j + 1)] as const));
      if (pairs.reduce((sum, [, , size]) => sum + size, 0) <= budget) return { common: new Map(byRarity), pairs: pairs.map(([a, b]) => `${a} ${b}`) };
      let size = n;
      let all = 0;
      while (all < byRarity.length && (all < 2 || size > budget)) size *= share(all++);
      return { common: new Map(byRarity), pairs: [byRarity.slice(0, all).map(([lexeme]) => lexeme).join(' ')] };
    }
    return { common: new Map(byRarity.slice(kept)), pairs: [] };
  }

  /** The namespace's document frequencies: read once, then refreshed in the background when older than 5 minutes. */
  private async frequencyTable(projectId: string, namespace: string): Promise<FrequencyTable> {
    const key = `${projectId}:${namespace}`;
    const table = this.frequencies.get(key);
    if (table) {
      if (Date.now() - table.at >= frequencyTtlMs && !table.refreshing) {
        table.refreshing = this.readFrequencies(key, projectId, namespace).catch((error) => {
          table.refreshing = undefined;
          this.logger.warn({ err: (error as Error).message }, 'reading knowledge-base document frequencies failed');
        });
      }
      return table;
    }
    let loading = this.loadingFrequencies.get(key);
    if (!loading) {
      loading = this.readFrequencies(key, projectId, namespace).finally(() => this.loadingFrequencies.delete(key));
      this.loadingFrequencies.set(key, loading);
    }
    return loading;
  }

  private async readFrequencies(key: string, projectId: string, namespace: string): Promise<FrequencyTable> {
    const rows = await this.db.$queryRawUnsafe<Array<{ lexeme: string; n: number }>>(frequenciesSql, projectId, namespace);
    const table: FrequencyTable = { df: new Map(rows.map((row) => [row.lexeme, Number(row.n)])), at: Date.now() };
    this.frequencies.delete(key);
    if (this.frequencies.size >= maxFrequencyTables) this.frequencies.delete(this.frequencies.keys().next().value!);
    this.frequencies.set(key, table);
    return table;
  }

  private async namespaceStats(projectId: string, namespace: string): Promise<NamespaceStats> {
    const key = `${projectId}:${namespace}`;
    const cached = this.stats.get(key);
    if (cached && Date.now() - cached.at < statsTtlMs) return cached;
    const [row] = await this.db.$queryRawUnsafe<Array<{ n: number; terms: number | null; heading: number | null }>>(
      `SELECT count(*)::int AS n, avg("terms") FILTER (WHERE "phrasingId" IS NULL)::float8 AS terms,
              avg(nullif("headingTerms", 0))::float8 AS heading
       FROM "KbChunk" WHERE "id_project" = $1 AND "namespace" = $2`,
      projectId,
      namespace,
    );
    const stats = { n: Number(row.n), avgTerms: Math.max(1, Number(row.terms ?? 1)), avgHeadingTerms: Math.max(1, Number(row.heading ?? 1)), at: Date.now() };
    this.stats.delete(key);
    if (this.stats.size >= maxCachedStats) this.stats.delete(this.stats.keys().next().value!);
    this.stats.set(key, stats);
    return stats;
  }

  /** Vector neighbours; an embeddings failure leaves only lexical candidates. */
  private async near(projectId: string, namespace: string, query: string, limit: number) {
    try {
      const vector = await this.vectors.embedQuery(query);
      return await this.vectors.nearest(projectId, namespace, vector, limit);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'vector retrieval failed; using lexical retrieval only');
      return [];
    }
  }
}

/** Scores rescaled to 0..1 within their list (all 1 when they are equal). */
function minMax(scored: Array<[string, number]>): Array<[string, number]> {
  if (!scored.length) return [];
  const values = scored.map(([, score]) => score);
  const min = Math.min(...values);
  const range = Math.max(...values) - min;
  return scored.map(([id, score]) => [id, range > 0 ? (score - min) / range : 1]);
}

type Scored = [ChunkRow, number, number | null];

/** The question's familiarity, as the lexical rows give it: none found, no word of it in the knowledge base. */
function familiarity(lexical: ChunkRow[]): number {
  return lexical.length ? Number(lexical[0].familiar ?? 0) : 0;
}

function toChunk(row: ChunkRow, score: number, similarity: number | null, learned?: string): RetrievedChunk {
  return {
    ...(learned ? { learned } : {}),
    id: row.id,
    contentId: row.contentId,
    position: Number(row.position),
    text: row.text,
    contentName: row.contentName,
    contentType: row.contentType,
    source: row.source,
    score,
    coverage: Number(row.coverage ?? 0),
    similarity,
  };
}
