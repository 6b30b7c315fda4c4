import { z } from 'zod';
import { parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { Logger } from '../../infra/logger.js';
import type { AssistantSummary, Request } from '../../generated/prisma/client.js';
import { ModelEndpointError, type ChatAnswerer } from '../kb/answering/answer.js';
import type { KbService } from '../kb/service.js';
import { requestTimeline } from '../requests/timeline.js';
import type { RequestService } from '../requests/service.js';
import type { TeammateRecord } from '../teammates/service.js';
import { termsOf } from './history.js';
import { authorOf } from './service.js';

// A conversation summed up for the agent who takes it: without a model, honestly extractive (the
// visitor's key sentences, the bot's last answer, what the timeline says happened); with one, the
// model's own words on what the visitor wants, what was tried and what is open, from the same
// transcript. The latest summary of a request is stored and shown on the request (and so in
// request.update webhooks, which a new summary sends).

export type SummaryRecord = AssistantSummary;

const keySentences = 3;
const longestQuote = 400;
const transcriptMessages = 60;
const summaryInput = z.object({ method: z.enum(['auto', 'extractive']).default('auto') });

const modelInstruction =
  'Summarise this support conversation for the agent who takes it over, in three short lines: ' +
  '1. what the visitor wants, 2. what was tried (by the bot or agents), 3. what is still open.';

interface Line {
  author: 'visitor' | 'bot' | 'system' | 'agent';
  text: string;
}

const quote = (text: string) => {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > longestQuote ? `${clean.slice(0, longestQuote - 1)}…` : clean;
};

/** The visitor's sentences that say the most (most distinct meaningful words), in the order written. */
export function keySentencesOf(lines: Line[]): string[] {
  const sentences = lines
    .filter((l) => l.author === 'visitor')
    .flatMap((l) => l.text.split(/(?<=[.!?])\s+|\n+/))
    .map((s) => s.trim())
    .filter(Boolean);
  const weighed = sentences.map((s, i) => ({ s, i, weight: termsOf(s).length }));
  // A greeting or an "ok" says nothing when the visitor said more.
  const floor = weighed.some((x) => x.weight >= 2) ? 2 : 1;
  const ranked = weighed.filter((x) => x.weight >= floor);
  const kept = new Set(ranked.sort((a, b) => b.weight - a.weight || a.i - b.i).slice(0, keySentences).map((x) => x.i));
  return sentences.filter((_, i) => kept.has(i)).map(quote);
}

export function extractiveSummary(lines: Line[], timeline: string[]): string {
  const parts: string[] = [];
  const said = keySentencesOf(lines);
  parts.push(said.length ? `The visitor wrote: ${said.map((s) => `"${s}"`).join(' ')}` : 'The visitor has not written yet.');
  const bot = [...lines].reverse().find((l) => l.author === 'bot' && l.text.trim());
  if (bot) parts.push(`The bot last answered: "${quote(bot.text)}"`);
  const agent = [...lines].reverse().find((l) => l.author === 'agent' && l.text.trim());
  if (agent) parts.push(`An agent last wrote: "${quote(agent.text)}"`);
  if (timeline.length) parts.push(`What happened: ${timeline.join('; ')}.`);
  return parts.join('\n');
}

export class SummaryService {
  constructor(
    private db: Db,
    private events: EventLog,
    private requests: RequestService,
    private kb: KbService,
    private answerer: ChatAnswerer | null,
    private logger: Logger,
  ) {}

  /** Summarises the request now (as a member who can see it), stores and answers the summary. */
  async summarise(projectId: string, member: TeammateRecord, requestId: string, input: unknown = {}): Promise<SummaryRecord> {
    const { method } = parseInput(summaryInput, input);
    const request = await this.requests.get(projectId, member, requestId);
    return this.make(request, member.id_user, method === 'auto');
  }

  /** The request's latest summary, or null. */
  async latest(projectId: string, member: TeammateRecord, requestId: string): Promise<SummaryRecord | null> {
    const request = await this.requests.get(projectId, member, requestId);
    return this.db.assistantSummary.findUnique({ where: { id_project_request_id: { id_project: projectId, request_id: request.request_id } } });
  }

  /** Makes and stores the summary (`by` null: made by the platform, on a hand-over), with a request.update event. */
  async make(request: Request, by: string | null, useModel = true): Promise<SummaryRecord> {
    const visitor = await this.requests.requesterUserId(this.db, request);
    const rows = await this.db.message.findMany({
      where: { id_project: request.id_project, request_id: request.request_id },
      orderBy: { createdAt: 'desc' },
      select: { sender: true, text: true, attributes: true },
      take: transcriptMessages,
    });
    const lines: Line[] = rows.reverse().map((m) => ({ author: authorOf(m, visitor), text: m.text }));
    const timeline = (await requestTimeline(this.db, request)).map((e) => e.text);
    const written = useModel ? await this.modelSummary(request, lines, timeline) : null;
    const summary = written ?? extractiveSummary(lines, timeline);
    const method = written ? 'model' : 'extractive';
    return this.events.transaction(async (tx, emit) => {
      const key = { id_project_request_id: { id_project: request.id_project, request_id: request.request_id } };
      const stored = await tx.assistantSummary.upsert({
        where: key,
        create: { id_project: request.id_project, request_id: request.request_id, summary, method, by },
        update: { summary, method, by, createdAt: new Date() },
      });
      await emit({ projectId: request.id_project, name: 'request.update', subject: request.id, payload: { request_id: request.request_id, fields: ['summary'] } });
      return stored;
    });
  }

  private async modelSummary(request: Request, lines: Line[], timeline: string[]): Promise<string | null> {
    if (!this.answerer || !lines.some((l) => l.author === 'visitor')) return null;
    const kb = await this.kb.namespaces.resolve(request.id_project, undefined, request.createdBy);
    const defaults = this.kb.namespaces.settings(kb);
    const passages = [
      ...lines.filter((l) => l.author !== 'system').map((l) => ({ title: l.author === 'visitor' ? 'Visitor' : l.author === 'bot' ? 'Bot' : 'Agent', text: l.text })),
      ...(timeline.length ? [{ title: 'Timeline', text: timeline.join('\n') }] : []),
    ];
    try {
      const answer = await this.answerer.answer(modelInstruction, [], passages, {
        model: defaults.model,
        max_tokens: defaults.max_tokens,
        temperature: defaults.temperature,
        system_context: 'You help support agents: you summarise conversations between visitors, bots and agents.',
      });
      return answer.noAnswer || !answer.text.trim() ? null : answer.text.trim();
    } catch (error) {
      if (!(error instanceof ModelEndpointError)) throw error;
      this.logger.warn({ err: error.message, projectId: request.id_project }, 'assistant: the summary failed at the model endpoint; extractive instead');
      return null;
    }
  }
}
