import type { Db } from '../../infra/database.js';
import type { Request } from '../../generated/prisma/client.js';
import { isBotSender } from '../auth/bot-identity.js';
import { faqParts } from '../kb/faq.js';
import type { KbService } from '../kb/service.js';
import type { RetrievedChunk } from '../kb/retrieval/passage.js';
import type { RequestService } from '../requests/service.js';
import type { TeammateRecord } from '../teammates/service.js';
import type { Turn } from '../kb/answering/answer.js';
import type { DraftInput, DraftPiece, ReplyDrafter } from './draft.js';
import type { SuggestedReply } from './reply.js';
import { HistoryStore, termsOf, type Neighbour } from './history.js';
import { languageOf, sentimentOf, type SentimentFlag } from './triage.js';

// Suggested replies for the agent of a conversation, from three sources ranked together: the
// knowledge base's passage that answers (the retrieval behind /kb/qa, with what agents taught it),
// what this project's agents answered to similar questions in closed conversations (history.ts),
// and the project's canned responses. With them, triage: tags voted by the same neighbours, the
// language of the visitor's first message and whether the visitor sounds angry.

export type { ReplySource, SuggestedReply } from './reply.js';

export interface Suggestions {
  request_id: string;
  /** The visitor's words the suggestions answer (their latest messages). */
  question: string;
  replies: SuggestedReply[];
  tags: Array<{ tag: string; score: number }>;
  language: string | null;
  sentiment: SentimentFlag;
}

/** Replies answered at most. */
export const maxReplies = 3;
const neighbours = 20;
const maxTags = 3;
/** A canned response shares at least this share of the question's meaningful words. */
const cannedFloor = 0.3;
const maxCanned = 500;

export interface ConversationMessage {
  sender: string;
  text: string;
  createdAt: Date;
}

/** Who wrote a message of a request: the visitor, a bot, the platform, or an agent. */
export function authorOf(message: { sender: string; attributes?: unknown }, visitorUserId: string | null): 'visitor' | 'bot' | 'system' | 'agent' {
  if (visitorUserId && message.sender === visitorUserId) return 'visitor';
  if (isBotSender(message.sender)) return 'bot';
  const attributes = (message.attributes ?? {}) as Record<string, unknown>;
  if (message.sender === 'system' || attributes.subtype === 'info') return 'system';
  return 'agent';
}

/** The visitor's latest words: their messages since anybody else last wrote (the last one if none since). */
export function latestVisitorText(messages: Array<{ author: string; text: string }>): string {
  const since: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.author === 'visitor') since.unshift(m.text);
    else if (since.length && (m.author === 'agent' || m.author === 'bot')) break;
  }
  return since.join('\n').trim();
}

/** Who creates a project's default knowledge base when the assistant is first to need it. */
const systemActor = 'system';

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

export class AssistantService {
  readonly history: HistoryStore;

  constructor(
    private db: Db,
    private kb: KbService,
    private requests: RequestService,
    private drafter: ReplyDrafter | null = null,
  ) {
    this.history = new HistoryStore(db);
  }

  /**
   * The suggestions for the request's latest visitor messages, as an agent who can see it reads
   * them. With a model, its draft (grounded in the others) comes first, then the two best others.
   */
  async suggestions(projectId: string, member: TeammateRecord, requestId: string): Promise<Suggestions> {
    const { suggestions, draft } = await this.prepare(projectId, member, requestId);
    const drafted = draft ? await this.drafter!.draft(projectId, draft) : null;
    if (drafted) suggestions.replies = [drafted, ...suggestions.replies].slice(0, maxReplies);
    return suggestions;
  }

  /** The model's draft as it is written (`{delta}`, then `{reply}`); one `{reply: null}` without a model or sources. */
  async *draftStream(projectId: string, member: TeammateRecord, requestId: string): AsyncGenerator<DraftPiece> {
    const { draft } = await this.prepare(projectId, member, requestId);
    if (!draft) {
      yield { reply: null };
      return;
    }
    yield* this.drafter!.stream(projectId, draft);
  }

  private async prepare(projectId: string, member: TeammateRecord, requestId: string): Promise<{ suggestions: Suggestions; draft: DraftInput | null }> {
    const request = await this.requests.get(projectId, member, requestId);
    const messages = await this.conversation(request);
    const question = latestVisitorText(messages);
    const firstVisitor = messages.find((m) => m.author === 'visitor')?.text ?? request.first_text;
    const language = languageOf(firstVisitor || '');
    const sentiment = sentimentOf(question);
    if (!question) return { suggestions: { request_id: request.request_id, question, replies: [], tags: [], language, sentiment }, draft: null };
    const found = await this.forQuestion(projectId, member.id_user, question);
    const suggestions = { request_id: request.request_id, language, sentiment, ...found };
    if (!this.drafter || !found.replies.length) return { suggestions, draft: null };
    const kb = await this.kb.namespaces.resolve(projectId, undefined, member.id_user);
    const defaults = this.kb.namespaces.settings(kb);
    const settings = { model: defaults.model, max_tokens: defaults.max_tokens, temperature: defaults.temperature, system_context: defaults.context };
    return { suggestions, draft: { question, turns: turnsOf(messages, question), sources: found.replies, settings } };
  }

  /** Replies and tags for a visitor's question (also what the bench measures). */
  async forQuestion(projectId: string, actorId: string, question: string) {
    const [kb, near, canned] = await Promise.all([
      this.fromKnowledgeBase(projectId, actorId, question),
      this.history.nearest(projectId, question, neighbours),
      this.fromCanned(projectId, question),
    ]);
    const replies = rank([...kb, ...fromHistory(near), ...canned]);
    return { question, replies, tags: tagsOf(near) };
  }

  private async conversation(request: Request) {
    const visitor = await this.requests.requesterUserId(this.db, request);
    const rows = await this.db.message.findMany({
      where: { id_project: request.id_project, request_id: request.request_id },
      orderBy: { createdAt: 'asc' },
      select: { sender: true, text: true, attributes: true, createdAt: true },
      take: 500,
    });
    return rows.map((m) => ({ author: authorOf(m, visitor), text: m.text, sender: m.sender, createdAt: m.createdAt }));
  }

  /** The project's default knowledge base, the one the knowledge loop's questions are put to. */
  async defaultKnowledgeBase(projectId: string): Promise<string> {
    return (await this.kb.namespaces.resolve(projectId, undefined, systemActor)).id;
  }

  /** Whether knowledge base `namespace` answers a question (what /kb/qa would answer). */
  async knowledgeBaseAnswers(projectId: string, namespace: string, question: string): Promise<boolean> {
    return (await this.passageOf(projectId, namespace, question)).length > 0;
  }

  /** The tags agents put on the closed conversations nearest to a question, best first. */
  async suggestedTags(projectId: string, question: string) {
    return tagsOf(await this.history.nearest(projectId, question, neighbours));
  }

  private async fromKnowledgeBase(projectId: string, actorId: string, question: string): Promise<SuggestedReply[]> {
    const kb = await this.kb.namespaces.resolve(projectId, undefined, actorId);
    return this.passageOf(projectId, kb.id, question);
  }

  /** The passage of knowledge base `namespace` that answers `question`, if one does. */
  private async passageOf(projectId: string, namespace: string, question: string): Promise<SuggestedReply[]> {
    const found = await this.kb.retriever.search(projectId, namespace, question, 3);
    const ordered = await this.kb.learning.demote(projectId, namespace, question, found);
    const best = ordered[0];
    if (!this.kb.retriever.relevant(best)) return [];
    return [{ text: passageText(best), source: 'kb', ref: best.contentId, score: Math.max(best.coverage, best.similarity ?? 0) }];
  }

  private async fromCanned(projectId: string, question: string): Promise<SuggestedReply[]> {
    const asked = termsOf(question);
    if (!asked.length) return [];
    const canned = await this.db.cannedResponse.findMany({
      where: { id_project: projectId },
      select: { id: true, title: true, text: true },
      orderBy: { createdAt: 'desc' },
      take: maxCanned,
    });
    return canned
      .map((c) => {
        const own = new Set(termsOf(`${c.title}\n${c.text}`));
        const shared = asked.filter((t) => own.has(t)).length;
        return { text: c.text, source: 'canned' as const, ref: c.id, score: shared / Math.sqrt(asked.length * Math.max(own.size, 1)) };
      })
      .filter((c) => c.score >= cannedFloor)
      .sort((a, b) => b.score - a.score)
      .slice(0, maxReplies);
  }
}

/** The conversation before the latest question, as the model's earlier turns (the visitor's words, then what was answered). */
function turnsOf(messages: Array<{ author: string; text: string }>, question: string): Turn[] {
  const turns: Turn[] = [];
  let asked: string[] = [];
  let answered: string[] = [];
  for (const m of messages) {
    if (m.author === 'visitor') {
      if (answered.length) {
        turns.push({ question: asked.join('\n'), answer: answered.join('\n') });
        asked = [];
        answered = [];
      }
      asked.push(m.text);
    } else if (m.author === 'agent' || m.author === 'bot') answered.push(m.text);
  }
  if (answered.length && asked.length && asked.join('\n') !== question) turns.push({ question: asked.join('\n'), answer: answered.join('\n') });
  return turns;
}

/** The part of a passage that answers: an faq's answer, else the passage itself. */
function passageText(chunk: RetrievedChunk): string {
  if (chunk.contentType === 'faq') return faqParts(chunk.text)?.answer ?? chunk.text;
  return chunk.text.trim();
}

/** The neighbours' answers, one per distinct text: the best similarity, raised by the share of votes. */
function fromHistory(near: Neighbour[]): SuggestedReply[] {
  const total = near.reduce((sum, n) => sum + n.similarity ** 2, 0);
  if (!total) return [];
  const groups = new Map<string, { reply: SuggestedReply; votes: number; best: number }>();
  for (const n of near) {
    if (n.similarity <= 0) continue;
    const key = normalise(n.answer);
    const group = groups.get(key) ?? { reply: { text: n.answer, source: 'history' as const, ref: n.request_id, score: 0 }, votes: 0, best: 0 };
    group.votes += n.similarity ** 2;
    group.best = Math.max(group.best, n.similarity);
    groups.set(key, group);
  }
  return [...groups.values()].map((g) => ({ ...g.reply, score: round(g.best * (0.5 + 0.5 * (g.votes / total))) }));
}

function tagsOf(near: Neighbour[]): Array<{ tag: string; score: number }> {
  const total = near.reduce((sum, n) => sum + n.similarity ** 2, 0);
  if (!total) return [];
  const votes = new Map<string, number>();
  for (const n of near) for (const tag of new Set(n.tags)) votes.set(tag, (votes.get(tag) ?? 0) + n.similarity ** 2);
  return [...votes.entries()]
    .map(([tag, v]) => ({ tag, score: round(v / total) }))
    .sort((a, b) => b.score - a.score || a.tag.localeCompare(b.tag))
    .slice(0, maxTags);
}

/** Every source's replies by score, one per distinct text (the first source to give it keeps it), at most three. */
function rank(replies: SuggestedReply[]): SuggestedReply[] {
  const seen = new Set<string>();
  const out: SuggestedReply[] = [];
  for (const reply of [...replies].sort((a, b) => b.score - a.score)) {
    const key = normalise(reply.text);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push({ ...reply, score: round(reply.score) });
    if (out.length === maxReplies) break;
  }
  return out;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
