import { z } from 'zod';
import { conflict, notFound, parseInput } from '../../errors.js';
import type { Db, Tx } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { Logger } from '../../infra/logger.js';
import type { KbProposal } from '../../generated/prisma/client.js';
import type { KbService } from '../kb/service.js';
import { termsOf, type HistoryStore } from './history.js';

// The knowledge loop: a question the knowledge base could not answer and an agent did, in a
// conversation that closed, is a gap (gaps.ts finds them). Gaps asking the same thing form one
// proposal: its question, the answer agents gave most often, how many conversations asked it.
// An admin accepts one (it becomes FAQ content of a knowledge base, indexed like any other, so the
// next visitor asking it is answered by the knowledge base), edits it, or dismisses it. Every
// read and write names the project.

export type ProposalStatus = 'open' | 'accepted' | 'dismissed';

export interface ProposalView extends KbProposal {
  /** Visitors' questions of the cluster, newest first (at most 5, distinct). */
  examples: string[];
  /** The closed conversations it was learned from, newest first (at most 5). */
  request_ids: string[];
}

export interface Gap {
  request_id: string;
  namespace: string;
  question: string;
  answer: string;
  /** The project's event sequence of its close: it is clustered with the history as it was then. */
  seq?: bigint;
}

/** A gap joins the proposal whose centroid is at least this similar (cosine of idf-weighted stems). */
export const clusterFloor = 0.5;
/** Proposals compared by their centroid, after the index found their gaps by shared stems. */
const comparedProposals = 5;
/** A proposal's centroid is made of its latest questions, at most. */
const centroidMembers = 100;
const examplesShown = 5;
/** Visitors' questions of an accepted proposal learned as phrasings of its content, at most (the latest). */
const taughtPhrasings = 50;
const maxQuestion = 500;
const maxAnswer = 20_000;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
/** An answer long enough to say which question it answers, as compared (case and spacing aside); null for a short one ("Yes."). */
const sameAnswerKey = (answer: string) => {
  const key = answer.slice(0, maxAnswer).replace(/\s+/g, ' ').toLowerCase();
  return key.trim().length >= 40 ? key : null;
};

const listInput = z.object({
  status: z.enum(['open', 'accepted', 'dismissed'], { message: 'must be open, accepted or dismissed' }).default('open'),
  namespace: z.string().optional(),
  limit: z.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100').default(20),
});

const question = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(maxQuestion, `must be at most ${maxQuestion} characters`)
  .refine((q) => !q.includes('\n'), 'must be one line (it becomes the first line of the FAQ content)');
const answer = z.string().trim().min(1, 'must not be empty').max(maxAnswer, `must be at most ${maxAnswer} characters`);

const editInput = z
  .object({ question: question.optional(), answer: answer.optional() })
  .refine((v) => v.question !== undefined || v.answer !== undefined, { message: 'is required (question or answer)', path: ['question'] });
const acceptInput = z.object({ question: question.optional(), answer: answer.optional(), namespace: z.string().optional() });

export class ProposalService {
  constructor(
    private db: Db,
    private events: EventLog,
    private kb: KbService,
    private history: HistoryStore,
    private logger: Logger,
  ) {}

  /** The project's proposals of one status, the most asked first. */
  async list(projectId: string, actorId: string, input: unknown): Promise<ProposalView[]> {
    const data = parseInput(listInput, input);
    const namespace = data.namespace ? (await this.kb.namespaces.resolve(projectId, data.namespace, actorId)).id : undefined;
    const rows = await this.db.kbProposal.findMany({
      where: { id_project: projectId, status: data.status, ...(namespace ? { namespace } : {}) },
      orderBy: [{ count: 'desc' }, { updatedAt: 'desc' }, { id: 'asc' }],
      take: data.limit,
    });
    return this.withExamples(projectId, rows);
  }

  async get(projectId: string, id: string): Promise<ProposalView> {
    const row = await this.db.kbProposal.findFirst({ where: { id, id_project: projectId } });
    if (!row) throw notFound('proposal');
    return (await this.withExamples(projectId, [row]))[0];
  }

  /** Edits an open proposal's question or answer; later gaps no longer change them. */
  async edit(projectId: string, id: string, input: unknown): Promise<ProposalView> {
    const data = parseInput(editInput, input);
    await this.events.transaction(async (tx, emit) => {
      await this.openProposal(tx, projectId, id);
      await tx.kbProposal.update({ where: { id }, data: { ...data, edited: true } });
      await emit({ projectId, name: 'kb.proposal.update', subject: id, payload: { fields: Object.keys(data) } });
    });
    return this.get(projectId, id);
  }

  /**
   * Makes an open proposal FAQ content (question on the first line, answer below) of its knowledge
   * base (or `namespace`), queued for indexing like any content; answers the accepted proposal
   * with `content_id`.
   */
  async accept(projectId: string, actorId: string, id: string, input: unknown): Promise<ProposalView> {
    const data = parseInput(acceptInput, input);
    const proposal = await this.db.kbProposal.findFirst({ where: { id, id_project: projectId } });
    if (!proposal) throw notFound('proposal');
    if (proposal.status !== 'open') throw conflict(`status: the proposal is ${proposal.status}`, 'status');
    const kb = await this.kb.namespaces.resolve(projectId, data.namespace ?? proposal.namespace, actorId);
    const q = data.question ?? proposal.question;
    const a = data.answer ?? proposal.answer;
    const created = await this.kb.contents.create(projectId, actorId, { type: 'faq', name: q.slice(0, 200), content: `${q}\n${a}`, namespace: kb.id });
    const contentId = created.value.id;
    const accepted = await this.events.transaction(async (tx, emit) => {
      const moved = await tx.kbProposal.updateMany({
        where: { id, id_project: projectId, status: 'open' },
        data: {
          status: 'accepted',
          question: q,
          answer: a,
          namespace: kb.id,
          edited: proposal.edited || data.question !== undefined || data.answer !== undefined,
          content_id: contentId,
          decidedBy: actorId,
          decidedAt: new Date(),
        },
      });
      if (!moved.count) return false;
      await emit({ projectId, name: 'kb.proposal.accept', subject: id, payload: { content_id: contentId, namespace: kb.id } });
      return true;
    });
    if (!accepted) {
      // Another accept or a dismissal came first: the content made here goes.
      await this.kb.contents.delete(projectId, contentId);
      throw conflict('status: the proposal was decided meanwhile', 'status');
    }
    await this.teach(projectId, actorId, id, kb.id, contentId);
    return this.get(projectId, id);
  }

  /**
   * The visitors' questions of the cluster become learned phrasings of the new content, as an
   * agent's confirmation would make them (kb/learning.ts): agents answered each of them with this
   * answer, and the knowledge base then finds the content by the words visitors use, not only by
   * the one question the FAQ names. A phrasing that cannot be learned is passed over.
   */
  private async teach(projectId: string, actorId: string, proposalId: string, namespace: string, contentId: string) {
    const gaps = await this.db.kbGap.findMany({
      where: { id_project: projectId, proposal_id: proposalId },
      orderBy: { createdAt: 'desc' },
      select: { question: true },
      take: taughtPhrasings * 2,
    });
    const questions = [...new Set(gaps.map((g) => oneLine(g.question)))].slice(0, taughtPhrasings);
    for (const question of questions) {
      await this.kb.learning
        .feedback(projectId, actorId, { namespace, question, id: contentId, helpful: true })
        .catch((error: unknown) => this.logger.warn({ err: (error as Error).message, projectId, proposalId }, 'a proposal\'s question could not be learned'));
    }
  }

  async dismiss(projectId: string, actorId: string, id: string): Promise<ProposalView> {
    await this.events.transaction(async (tx, emit) => {
      await this.openProposal(tx, projectId, id);
      await tx.kbProposal.update({ where: { id }, data: { status: 'dismissed', decidedBy: actorId, decidedAt: new Date() } });
      await emit({ projectId, name: 'kb.proposal.dismiss', subject: id });
    });
    return this.get(projectId, id);
  }

  /**
   * Files gaps of one project in the order they closed (in the gap consumer's transaction):
   * each joins the proposal of the most similar earlier gap of an open or dismissed proposal (a
   * dismissed question stays dismissed), or starts a proposal. A conversation is filed once.
   */
  async file(tx: Tx, projectId: string, gaps: Gap[]): Promise<void> {
    if (!gaps.length) return;
    const filed = await tx.kbGap.findMany({
      where: { id_project: projectId, request_id: { in: gaps.map((g) => g.request_id) } },
      select: { request_id: true },
    });
    const done = new Set(filed.map((g) => g.request_id));
    for (const gap of gaps) {
      const terms = termsOf(gap.question);
      if (!terms.length || done.has(gap.request_id)) continue;
      done.add(gap.request_id);
      const proposalId = (await this.nearest(tx, projectId, gap, terms)) ?? (await this.start(tx, projectId, gap));
      await tx.kbGap.create({
        data: { id_project: projectId, request_id: gap.request_id, proposal_id: proposalId, question: gap.question.slice(0, 4000), answer: gap.answer.slice(0, maxAnswer), terms },
      });
      // Its count, and the answer agents gave most often (the latest of equals) unless a person edited it.
      await tx.$executeRaw`
        UPDATE "KbProposal" p SET "count" = (SELECT count(*)::int FROM "KbGap" WHERE "proposal_id" = p."id"), "updatedAt" = now(),
          "answer" = CASE WHEN p."edited" THEN p."answer" ELSE (
            SELECT "answer" FROM "KbGap" WHERE "proposal_id" = p."id"
            GROUP BY "answer" ORDER BY count(*) DESC, max("createdAt") DESC LIMIT 1) END
        WHERE p."id" = ${proposalId}`;
    }
  }

  private async start(tx: Tx, projectId: string, gap: Gap): Promise<string> {
    const created = await tx.kbProposal.create({
      data: { id_project: projectId, namespace: gap.namespace, question: oneLine(gap.question).slice(0, maxQuestion), answer: gap.answer.slice(0, maxAnswer) },
      select: { id: true },
    });
    return created.id;
  }

  /**
   * The proposal a gap belongs to, if any. A proposal whose answer is the gap's answer (a
   * substantial text, pasted as answers to one question are) asks the same question whatever the
   * words ("deliver" and "ship" share no stem). Otherwise the proposals of the gaps sharing its
   * stems are compared by the mean of two cosines of idf-weighted stems: with their centroid (each
   * stem also weighted by the share of the proposal's questions holding it) and with their nearest
   * question. The nearest question alone chains unrelated questions into one proposal through
   * intermediate ones.
   */
  private async nearest(tx: Tx, projectId: string, gap: Gap, terms: string[]): Promise<string | null> {
    const answer = sameAnswerKey(gap.answer);
    if (answer) {
      const [same] = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT "id" FROM "KbProposal"
        WHERE "id_project" = ${projectId} AND "namespace" = ${gap.namespace} AND "status" IN ('open', 'dismissed')
          AND lower(regexp_replace("answer", '[[:space:]]+', ' ', 'g')) = ${answer}
        ORDER BY "count" DESC, "createdAt" ASC LIMIT 1`;
      if (same) return same.id;
    }
    const near = await tx.$queryRaw<Array<{ proposal_id: string }>>`
      SELECT g."proposal_id" FROM "KbGap" g JOIN "KbProposal" p ON p."id" = g."proposal_id"
      WHERE g."id_project" = ${projectId} AND p."id_project" = ${projectId} AND p."namespace" = ${gap.namespace}
        AND p."status" IN ('open', 'dismissed') AND g."terms" && ${terms}::text[]
      GROUP BY g."proposal_id"
      ORDER BY count(*) FILTER (WHERE g."terms" @> ${terms}::text[]) DESC, max(cardinality(ARRAY(SELECT unnest(g."terms") INTERSECT SELECT unnest(${terms}::text[])))) DESC
      LIMIT ${comparedProposals}`;
    if (!near.length) return null;
    const members = await tx.$queryRaw<Array<{ proposal_id: string; terms: string[] }>>`
      SELECT "proposal_id", "terms" FROM (
        SELECT g."proposal_id", g."terms", row_number() OVER (PARTITION BY g."proposal_id" ORDER BY g."createdAt" DESC) AS n
        FROM "KbGap" g WHERE g."id_project" = ${projectId} AND g."proposal_id" = ANY(${near.map((r) => r.proposal_id)}::text[])
      ) latest WHERE n <= ${centroidMembers}`;
    const vocabulary = [...new Set([...terms, ...members.flatMap((r) => r.terms)])];
    const df = await this.history.frequencies(projectId, [...vocabulary, ''], tx, gap.seq);
    const total = Math.max(df.get('') ?? 0, 1);
    const idf = (term: string) => Math.log(1 + total / ((df.get(term) ?? 0) + 0.5));
    const askedNorm = Math.sqrt(terms.reduce((sum, t) => sum + idf(t) ** 2, 0));
    const memberSimilarity = (own: string[]) => {
      let shared = 0;
      let norm = 0;
      for (const term of own) {
        norm += idf(term) ** 2;
        if (terms.includes(term)) shared += idf(term) ** 2;
      }
      return norm ? shared / (Math.sqrt(norm) * askedNorm) : 0;
    };
    let best: { proposal_id: string; similarity: number } | null = null;
    for (const { proposal_id } of near) {
      const own = members.filter((m) => m.proposal_id === proposal_id);
      if (!own.length) continue;
      const share = new Map<string, number>();
      for (const m of own) for (const term of m.terms) share.set(term, (share.get(term) ?? 0) + 1 / own.length);
      let dot = 0;
      let norm = 0;
      for (const [term, part] of share) {
        const w = part * idf(term);
        norm += w * w;
        if (terms.includes(term)) dot += w * idf(term);
      }
      const centroid = norm ? dot / (Math.sqrt(norm) * askedNorm) : 0;
      // The nearest member counts for half: a rephrasing close to one question of a small proposal
      // still joins it, while a chain of intermediate questions cannot carry a distant one in.
      const similarity = (centroid + Math.max(...own.map((m) => memberSimilarity(m.terms)))) / 2;
      if (!best || similarity > best.similarity) best = { proposal_id, similarity };
    }
    return best && best.similarity >= clusterFloor ? best.proposal_id : null;
  }

  private async openProposal(tx: Tx, projectId: string, id: string) {
    const [row] = await tx.$queryRaw<Array<{ status: string }>>`
      SELECT "status" FROM "KbProposal" WHERE "id" = ${id} AND "id_project" = ${projectId} FOR UPDATE`;
    if (!row) throw notFound('proposal');
    if (row.status !== 'open') throw conflict(`status: the proposal is ${row.status}`, 'status');
  }

  private async withExamples(projectId: string, rows: KbProposal[]): Promise<ProposalView[]> {
    if (!rows.length) return [];
    const gaps = await this.db.$queryRaw<Array<{ proposal_id: string; request_id: string; question: string }>>`
      SELECT "proposal_id", "request_id", "question" FROM (
        SELECT g.*, row_number() OVER (PARTITION BY g."proposal_id" ORDER BY g."createdAt" DESC, g."id") AS n
        FROM "KbGap" g WHERE g."id_project" = ${projectId} AND g."proposal_id" = ANY(${rows.map((r) => r.id)}::text[])
      ) ranked WHERE n <= ${examplesShown * 4} ORDER BY n`;
    return rows.map((row) => {
      const own = gaps.filter((g) => g.proposal_id === row.id);
      const examples = [...new Set(own.map((g) => oneLine(g.question)))].slice(0, examplesShown);
      return { ...row, examples, request_ids: own.slice(0, examplesShown).map((g) => g.request_id) };
    });
  }
}
