import { Prisma } from '../../generated/prisma/client.js';
import type { Db, Tx } from '../../infra/database.js';
import { cuid } from '../../infra/ids.js';
import { stopWords } from '../kb/retrieval/passage.js';
import { stems } from '../kb/retrieval/stems.js';

// The project's own history: what its agents answered to what visitors asked, in conversations
// that closed. An example is found again by its stems (a GIN index over `terms`), weighted by how
// rare each stem is in the project (AssistantTerm keeps document frequencies as examples are
// learned, so a question costs two or three indexed reads however many examples there are). The
// nearest examples vote for their answer and their tags. Every read names the project.

export interface Example {
  request_id: string;
  question: string;
  answer: string;
  tags: string[];
  /** The project's event sequence of the close it is learned from. */
  seq?: bigint;
}

export interface Neighbour {
  request_id: string;
  answer: string;
  tags: string[];
  /** Cosine similarity of idf-weighted stem sets, 0..1. */
  similarity: number;
}

/** The longest a learned question or answer is kept. */
const maxTextLength = 4000;
/** Stems of a question searched at most: its rarest ones. */
const searchedTerms = 8;
/** A stem in more than this share of the examples is only searched when the question has no rarer one. */
const commonShare = 0.05;
/** Examples ranked exactly, after the index found them by their shared rare stems. */
const candidates = 150;
/** Count row: the empty term holds how many examples a project has. */
const countTerm = '';

/** The distinct meaningful stems of a text (all its stems when it has only stop words). */
export function termsOf(text: string): string[] {
  const all = stems(text.slice(0, maxTextLength));
  const meaningful = all.filter((s) => !stopWords.has(s) && s.length > 1);
  return [...new Set(meaningful.length ? meaningful : all)].slice(0, 64);
}

export class HistoryStore {
  constructor(private db: Db) {}

  /**
   * Learns closed conversations (in the consumer's transaction); a request learned before is
   * replaced. Three statements for the batch: the terms of those learned before, the examples, and
   * the document frequencies moved by both.
   */
  async learn(tx: Tx, projectId: string, examples: Example[]): Promise<void> {
    const rows = new Map<string, Example & { terms: string[] }>();
    for (const example of examples) {
      const terms = termsOf(example.question);
      if (terms.length && example.answer.trim()) rows.set(example.request_id, { ...example, terms });
    }
    if (!rows.size) return;
    const previous = await tx.assistantExample.findMany({
      where: { id_project: projectId, request_id: { in: [...rows.keys()] } },
      select: { terms: true },
    });
    const moved = new Map<string, number>();
    const move = (terms: string[], by: number) => {
      for (const term of [...terms, countTerm]) moved.set(term, (moved.get(term) ?? 0) + by);
    };
    for (const example of previous) move(example.terms, -1);
    for (const example of rows.values()) move(example.terms, 1);
    const learned = [...rows.values()].map((e) => ({
      id: cuid(),
      request_id: e.request_id,
      question: e.question.slice(0, maxTextLength),
      answer: e.answer.slice(0, maxTextLength),
      terms: e.terms,
      tags: e.tags,
      seq: e.seq === undefined ? null : String(e.seq),
    }));
    await tx.$executeRaw`
      INSERT INTO "AssistantExample" ("id", "id_project", "request_id", "question", "answer", "terms", "tags", "seq", "updatedAt")
      SELECT x."id", ${projectId}, x."request_id", x."question", x."answer", x."terms", x."tags", x."seq", CURRENT_TIMESTAMP
      FROM jsonb_to_recordset(${JSON.stringify(learned)}::jsonb) AS x("id" text, "request_id" text, "question" text, "answer" text, "terms" text[], "tags" text[], "seq" bigint)
      ON CONFLICT ("id_project", "request_id") DO UPDATE SET "question" = EXCLUDED."question", "answer" = EXCLUDED."answer",
        "terms" = EXCLUDED."terms", "tags" = EXCLUDED."tags", "seq" = EXCLUDED."seq", "updatedAt" = CURRENT_TIMESTAMP, "v" = "AssistantExample"."v" + 1`;
    const changed = [...moved].filter(([, by]) => by !== 0);
    if (!changed.length) return;
    await tx.$executeRaw`
      INSERT INTO "AssistantTerm" ("id_project", "term", "df")
      SELECT ${projectId}, t, d FROM unnest(${changed.map(([term]) => term)}::text[], ${changed.map(([, by]) => by)}::int[]) AS x(t, d)
      ON CONFLICT ("id_project", "term") DO UPDATE SET "df" = "AssistantTerm"."df" + EXCLUDED."df"`;
  }

  /** The examples nearest to a question, most similar first. */
  async nearest(projectId: string, question: string, k: number): Promise<Neighbour[]> {
    const terms = termsOf(question);
    if (!terms.length) return [];
    const df = await this.frequencies(projectId, [...terms, countTerm]);
    const total = df.get(countTerm) ?? 0;
    const known = terms.filter((t) => (df.get(t) ?? 0) > 0).sort((a, b) => df.get(a)! - df.get(b)!);
    if (!total || !known.length) return [];
    const rare = known.filter((t) => df.get(t)! <= Math.max(50, total * commonShare));
    const searched = (rare.length ? rare : known.slice(0, 2)).slice(0, searchedTerms);
    const idf = (term: string) => Math.log(1 + total / ((df.get(term) ?? 0) + 0.5));
    // Ranked first by the idf of the searched stems they share, in SQL; then exactly, below.
    const rows = await this.db.$queryRaw<Array<{ request_id: string; answer: string; terms: string[]; tags: string[] }>>`
      SELECT e."request_id", e."answer", e."terms", e."tags" FROM "AssistantExample" e
      WHERE e."id_project" = ${projectId} AND e."terms" && ${searched}::text[]
      ORDER BY (SELECT COALESCE(sum(w.idf), 0) FROM unnest(${searched}::text[], ${searched.map(idf)}::float8[]) AS w(term, idf)
                WHERE w.term = ANY(e."terms")) DESC, e."createdAt" DESC
      LIMIT ${candidates}`;
    const unseen = [...new Set(rows.flatMap((r) => r.terms))].filter((t) => !df.has(t));
    for (const [term, n] of await this.frequencies(projectId, unseen)) df.set(term, n);
    const weight = (term: string) => idf(term) ** 2;
    const asked = new Set(terms);
    const askedNorm = Math.sqrt(terms.reduce((sum, t) => sum + (df.get(t) ? weight(t) : 0), 0));
    return rows
      .map((row) => {
        let shared = 0;
        let norm = 0;
        for (const term of row.terms) {
          norm += weight(term);
          if (asked.has(term)) shared += weight(term);
        }
        const similarity = norm && askedNorm ? shared / (Math.sqrt(norm) * askedNorm) : 0;
        return { request_id: row.request_id, answer: row.answer, tags: row.tags, similarity };
      })
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, k);
  }

  /** Document frequencies of stems among the project's learned questions (the empty term: how many there are). */
  /**
   * Document frequencies of `terms`. With `asOf` (an event sequence), as they were once the closes
   * up to it were learned: those learned from later closes are taken off (an example learned again
   * from a later close counts as later: its earlier terms are not put back).
   */
  async frequencies(projectId: string, terms: string[], db: Db | Tx = this.db, asOf?: bigint): Promise<Map<string, number>> {
    if (!terms.length) return new Map();
    const later =
      asOf === undefined
        ? Prisma.sql`0`
        : Prisma.sql`(SELECT count(*) FROM "AssistantExample" e
            WHERE e."id_project" = ${projectId} AND e."seq" > ${asOf} AND (t."term" = ${countTerm} OR t."term" = ANY(e."terms")))`;
    const rows = await db.$queryRaw<Array<{ term: string; df: number }>>`
      SELECT t."term", t."df" - ${later} AS "df" FROM "AssistantTerm" t WHERE t."id_project" = ${projectId} AND t."term" = ANY(${terms}::text[])`;
    return new Map(rows.map((r) => [r.term, Number(r.df)]));
  }

}

