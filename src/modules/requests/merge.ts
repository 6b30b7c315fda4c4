import { z } from 'zod';
import { AppError, badInput, conflict, notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { RequestRouting } from './routing-port.js';
import type { TeammateRecord } from '../teammates/service.js';
import { asArray, type RequestService } from './service.js';
import { RequestStatus } from './states.js';
import { lockRequest, transactionWithRetry } from './request-rows.js';

// Merging conversations of the same person: the messages (and so the attachments they carry),
// tags and notes of the others move into one request, where they read in time order (messages
// and notes are ordered by their own times); the others close with `merged_into` pointing at it,
// which is what the widget of a merged-away conversation follows. One `request.merge` event
// (audited, in the webhook catalogue); each other that was still open also logs its close.

const mergeInput = z.object({
  from: z
    .array(z.string().trim().min(1, 'must not contain an empty id'), { message: 'must be an array of request ids' })
    .min(1, 'must name at least one request')
    .max(20, 'must name at most 20 requests'),
});

interface Note {
  createdAt?: string;
}

export class RequestMerge {
  constructor(
    private db: Db,
    private events: EventLog,
    private requests: RequestService,
    private routing: RequestRouting,
  ) {}

  async merge(projectId: string, member: TeammateRecord, requestId: string, input: unknown) {
    const { from } = parseInput(mergeInput, input);
    if (new Set(from).size !== from.length) throw badInput('from', 'from: names a request twice');
    if (from.includes(requestId)) throw badInput('from', 'from: cannot merge a request into itself');
    const result = await transactionWithRetry(this.events, async (tx, emit) => {
      // Locked in one order (ids sorted), so two merges over the same requests cannot deadlock.
      const locked = new Map<string, Awaited<ReturnType<typeof lockRequest>>>();
      for (const id of [requestId, ...from].sort()) locked.set(id, await lockRequest(tx, projectId, id));
      const target = locked.get(requestId);
      if (!target) throw notFound('request');
      await this.requests.assertCanSee(tx, projectId, member, target);
      if (target.merged_into) throw conflict(`request_id: this request was merged into ${target.merged_into}`, 'request_id');
      const sources = [];
      for (const id of from) {
        const source = locked.get(id);
        if (!source) throw new AppError('NOT_FOUND', `from: no request ${id} in this project`, { field: 'from' });
        await this.requests.assertCanSee(tx, projectId, member, source);
        if (source.merged_into) throw conflict(`from: request ${id} was already merged into ${source.merged_into}`, 'from');
        sources.push(source);
      }

      const moved = await tx.message.updateMany({ where: { id_project: projectId, request_id: { in: from } }, data: { request_id: requestId } });
      const tags = asArray(target.tags) as Array<{ tag: string }>;
      const names = new Set(tags.map((t) => t.tag));
      const notes = [...(asArray(target.notes) as Note[])];
      for (const source of sources) {
        for (const tag of asArray(source.tags) as Array<{ tag: string }>) if (!names.has(tag.tag) && names.add(tag.tag)) tags.push(tag);
        notes.push(...(asArray(source.notes) as Note[]));
      }
      notes.sort((a, b) => String(a.createdAt ?? '').localeCompare(String(b.createdAt ?? '')));
      // The surviving request began with the earliest of them.
      const earliest = [target, ...sources].reduce((a, b) => (b.createdAt < a.createdAt ? b : a));
      const merged = await tx.request.update({
        where: { id: target.id },
        data: { tags: tags as object[], notes: notes as object[], first_text: earliest.first_text || target.first_text },
      });

      const freed: string[] = [];
      for (const source of sources) {
        const open = source.status !== RequestStatus.CLOSED;
        const now = new Date();
        await tx.request.update({
          where: { id: source.id },
          data: {
            merged_into: requestId,
            tags: [],
            notes: [],
            ...(open ? { status: RequestStatus.CLOSED, closed_at: now, closed_by: member.id_user, transcript: `merged into ${requestId}` } : {}),
          },
        });
        await tx.requestSeen.deleteMany({ where: { id_project: projectId, request_id: source.request_id } });
        if (open) {
          freed.push(...source.participatingAgents);
          await emit({
            projectId,
            name: 'request.close',
            subject: source.id,
            payload: { request_id: source.request_id, fields: ['status', 'closed_at', 'closed_by', 'merged_into'], status: RequestStatus.CLOSED },
          });
        }
      }
      if (freed.length) await this.routing.syncLoads(tx, projectId, [...new Set(freed)]);
      await emit({
        projectId,
        name: 'request.merge',
        subject: merged.id,
        payload: { request_id: requestId, from, messages: moved.count },
        audit: { before: { from, statuses: Object.fromEntries(sources.map((s) => [s.request_id, s.status])) }, after: { request_id: requestId, messages: moved.count } },
      });
      return merged;
    });
    // Agents freed by the closed ones: their request.close events have waiting requests offered again (routing/waiting-offers.ts).
    return result;
  }
}
