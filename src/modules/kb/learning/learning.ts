import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { badInput, notFound, parseInput } from '../../../errors.js';
import type { Db } from '../../../infra/database.js';
import type { Logger } from '../../../infra/logger.js';
import type { KbFeedback, KbPhrasing } from '../../../generated/prisma/client.js';
import type { KnowledgeBaseService } from '../namespaces.js';
import type { RetrievedChunk } from '../retrieval/passage.js';
import { stemText } from '../retrieval/stems.js';
import type { Retriever } from '../retrieval/retrieval.js';
import { kbVectorStore } from '../indexing/vector-store.js';
import type { ChunkVectors } from '../indexing/vectors.js';

// Knowledge bases learn from what agents resolve. An agent's `helpful: true` makes the visitor's
// question a learned phrasing of the content: a chunk of its own (heading: the phrasing, no text,
// its vector when vectors are on), which retrieval ranks as it ranks an faq's question and answers
// with the content's first chunk (retrieval.ts). Public FAQ-retrieval results (BERT-FAQ on
// StackFAQ and CovidFAQ) found real user phrasings worth more than any change of model.
// `helpful: false` keeps that content from answering that question first again. A visitor's
// thumbs on a bot's answer are counted on the content, never learned from without an agent.

const question = z.string().trim().min(1, 'is required').max(4000, 'must be at most 4000 characters');

const feedbackInput = z.object({
  namespace: z.string().optional(),
  question,
  id: z.string().trim().min(1, 'is required'),
  helpful: z.boolean({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be true or false') }),
});

const visitorInput = z.object({
  helpful: z.boolean({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be true or false') }),
});

export type PhrasingRecord = KbPhrasing;

export interface FeedbackOutcome {
  success: boolean;
  namespace: string;
  id: string;
  helpful: boolean;
  /** The learned phrasing (helpful: true), null otherwise. */
  phrasing: PhrasingRecord | null;
}

/** The bot message a visitor rates: its `attributes.kb` says which content answered which question. */
export interface RatedMessage {
  id: string;
  request_id: string;
  attributes: unknown;
}

/** A question's wording as feedback compares it: its stems, so case, punctuation and plurals do not count. */
export function questionKey(text: string) {
  return stemText(text);
}

export class LearningService {
  constructor(
    private db: Db,
    private namespaces: KnowledgeBaseService,
    private vectors: ChunkVectors,
    private retriever: Retriever,
    private logger: Logger,
  ) {}

  /** An agent's verdict on content `id` as the answer to `question`. */
  async feedback(projectId: string, actorId: string, input: unknown): Promise<FeedbackOutcome> {
    const data = parseInput(feedbackInput, input);
    const kb = await this.namespaces.resolve(projectId, data.namespace, actorId);
    const content = await this.db.kbContent.findFirst({ where: { id: data.id, id_project: projectId } });
    if (!content) throw notFound('content');
    if (content.namespace !== kb.id) throw badInput('id', 'id: the content is not in this knowledge base');
    const key = questionKey(data.question);
    if (!key) throw badInput('question', 'question: must hold at least one word');
    const record = { id_project: projectId, namespace: kb.id, contentId: content.id, question: data.question, key, createdBy: actorId };
    if (!data.helpful) {
      await this.db.$transaction(async (tx) => {
        await tx.kbPhrasing.deleteMany({ where: { contentId: content.id, key } });
        await tx.kbFeedback.create({ data: { ...record, helpful: false, origin: 'agent' } });
      });
      return { success: true, namespace: kb.id, id: content.id, helpful: false, phrasing: null };
    }
    // Embedded before the transaction (an endpoint call); without a vector it is still ranked by its words.
    let vector: number[] | undefined;
    if (this.vectors.enabled) {
      try {
        [vector] = await this.vectors.embedDocuments([data.question]);
        await this.vectors.ensureTable();
      } catch (error) {
        this.logger.warn({ err: (error as Error).message, projectId }, 'a learned phrasing is stored without its vector');
        vector = undefined;
      }
    }
    const phrasing = await this.db.$transaction(async (tx) => {
      // An agent's earlier "not helpful" for this pair is overruled.
      await tx.kbFeedback.deleteMany({ where: { contentId: content.id, key, origin: 'agent', helpful: false } });
      await tx.kbFeedback.create({ data: { ...record, helpful: true, origin: 'agent' } });
      const existing = await tx.kbPhrasing.findUnique({ where: { contentId_key: { contentId: content.id, key } } });
      if (existing) return existing;
      const created = await tx.kbPhrasing.create({ data: { ...record, question: data.question.replace(/\s+/g, ' ') } });
      const chunkId = randomUUID();
      await tx.$executeRawUnsafe(
        `INSERT INTO "KbChunk" ("id", "id_project", "namespace", "contentId", "position", "text", "stems", "heading", "headingStems", "phrasingId")
         VALUES ($1, $2, $3, $4, -1, '', '', $5, $6, $7)`,
        chunkId,
        projectId,
        kb.id,
        content.id,
        created.question,
        key,
        created.id,
      );
      if (vector) {
        const store = await kbVectorStore({ vectors: this.vectors, retriever: this.retriever, projectId, namespace: kb.id, tx });
        await store.addVectors([vector], [{ pageContent: created.question, metadata: { chunkId } }]);
      }
      return created;
    });
    return { success: true, namespace: kb.id, id: content.id, helpful: true, phrasing };
  }

  /** The learned phrasings of a content, newest first. */
  async phrasings(projectId: string, contentId: string): Promise<PhrasingRecord[]> {
    const content = await this.db.kbContent.findFirst({ where: { id: contentId, id_project: projectId }, select: { id: true } });
    if (!content) throw notFound('content');
    return this.db.kbPhrasing.findMany({ where: { contentId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  }

  /** Forgets a learned phrasing (its chunk and vector go with it); answers the removed record. */
  async removePhrasing(projectId: string, contentId: string, phrasingId: string): Promise<PhrasingRecord> {
    const phrasing = await this.db.kbPhrasing.findFirst({ where: { id: phrasingId, contentId, id_project: projectId } });
    if (!phrasing) throw notFound('phrasing');
    await this.db.kbPhrasing.delete({ where: { id: phrasing.id } });
    return phrasing;
  }

  /** A visitor's thumbs on a bot's knowledge answer: recorded and counted on the content it cited first. */
  async visitorFeedback(projectId: string, actorId: string, message: RatedMessage, input: unknown): Promise<KbFeedback> {
    const { helpful } = parseInput(visitorInput, input);
    const kb = (message.attributes as { kb?: { namespace?: unknown; id?: unknown; question?: unknown } } | null)?.kb;
    if (!kb || typeof kb.id !== 'string' || typeof kb.namespace !== 'string') {
      throw badInput('message_id', 'message_id: the message is not an answer from a knowledge base');
    }
    const content = await this.db.kbContent.findFirst({ where: { id: kb.id, id_project: projectId }, select: { id: true } });
    if (!content) throw notFound('content');
    const asked = typeof kb.question === 'string' ? kb.question : '';
    return this.db.$transaction(async (tx) => {
      // One vote per visitor and message: a change of mind replaces it.
      const earlier = await tx.kbFeedback.findFirst({ where: { message_id: message.id, createdBy: actorId, origin: 'visitor' } });
      if (earlier) {
        if (earlier.helpful === helpful) return earlier;
        await tx.kbFeedback.delete({ where: { id: earlier.id } });
        await tx.kbContent.update({
          where: { id: content.id },
          data: earlier.helpful ? { helpfulCount: { decrement: 1 } } : { unhelpfulCount: { decrement: 1 } },
        });
      }
      await tx.kbContent.update({
        where: { id: content.id },
        data: helpful ? { helpfulCount: { increment: 1 } } : { unhelpfulCount: { increment: 1 } },
      });
      return tx.kbFeedback.create({
        data: {
          id_project: projectId,
          namespace: kb.namespace as string,
          contentId: content.id,
          question: asked,
          key: questionKey(asked),
          helpful,
          origin: 'visitor',
          request_id: message.request_id,
          message_id: message.id,
          createdBy: actorId,
        },
      });
    });
  }

  /** Recorded feedback of a knowledge base, newest first (agents review visitors' thumbs here). */
  async listFeedback(projectId: string, actorId: string, input: { namespace?: string | null; origin?: string | null; limit?: number | null }) {
    const kb = await this.namespaces.resolve(projectId, input.namespace, actorId);
    const origin = input.origin ?? undefined;
    if (origin !== undefined && origin !== 'agent' && origin !== 'visitor') throw badInput('origin', 'origin: must be agent or visitor');
    const limit = input.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw badInput('limit', 'limit: must be 1 to 200');
    return this.db.kbFeedback.findMany({
      where: { id_project: projectId, namespace: kb.id, ...(origin ? { origin } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
  }

  /**
   * The passages in the order to answer from: a content an agent marked unhelpful for this very
   * question goes after every other (so it never answers it first again).
   */
  async demote(projectId: string, namespace: string, asked: string, chunks: RetrievedChunk[]): Promise<RetrievedChunk[]> {
    if (!chunks.length) return chunks;
    const refused = await this.db.kbFeedback.findMany({
      where: { id_project: projectId, namespace, key: questionKey(asked), origin: 'agent', helpful: false },
      select: { contentId: true },
    });
    if (!refused.length) return chunks;
    const out = new Set(refused.map((r) => r.contentId));
    const kept = chunks.filter((c) => !out.has(c.contentId));
    return kept.length ? [...kept, ...chunks.filter((c) => out.has(c.contentId))] : [];
  }
}
