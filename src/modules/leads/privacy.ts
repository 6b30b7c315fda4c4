import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { FileStore } from '../../infra/file-store.js';
import type { Logger } from '../../infra/logger.js';
import { notFound } from '../../errors.js';
import { questionKey } from '../kb/learning/learning.js';

// A lead's privacy requests. Erasure removes the lead, their conversations with every message,
// the files attached to those conversations or uploaded by their visitor accounts, and what the
// knowledge bases learned from their words (phrasings whose wording is one of their messages,
// feedback given in their conversations). Export gives everything held about them as one JSON
// document. Both are audited (`lead.erase`, `lead.export` in src/events.ts).

/** The storage path a message's `metadata.src` names: a download URL's `?path=`, else the URL's path. */
export function namedPath(src: unknown): string | null {
  if (typeof src !== 'string' || !src) return null;
  try {
    const url = new URL(src, 'http://src.invalid');
    const query = url.searchParams.get('path');
    if (query) return query.replace(/^\/+/, '');
    const at = decodeURIComponent(url.pathname).indexOf('projects/');
    return at >= 0 ? decodeURIComponent(url.pathname).slice(at) : null;
  } catch {
    return null;
  }
}

export class LeadPrivacy {
  constructor(
    private db: Db,
    private events: EventLog,
    private files: FileStore,
    private logger: Logger,
  ) {}

  private async held(projectId: string, leadId: string) {
    const lead = await this.db.lead.findFirst({ where: { id: leadId, id_project: projectId } });
    if (!lead) throw notFound('lead');
    const requests = await this.db.request.findMany({ where: { id_project: projectId, leadId: lead.id }, orderBy: { createdAt: 'asc' } });
    const requestIds = requests.map((r) => r.request_id);
    const messages = requestIds.length
      ? await this.db.message.findMany({ where: { id_project: projectId, request_id: { in: requestIds } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
      : [];
    const requesters = requests.map((r) => r.requester_id).filter((id): id is string => !!id);
    const accounts = requesters.length
      ? (await this.db.projectUser.findMany({ where: { id_project: projectId, id: { in: requesters } }, select: { id_user: true } })).map((m) => m.id_user)
      : [];
    const paths = messages.map((m) => namedPath((m.metadata as { src?: unknown } | null)?.src)).filter((p): p is string => !!p);
    const files = await this.db.storedFile.findMany({
      where: { id_project: projectId, OR: [{ path: { in: paths } }, ...(accounts.length ? [{ createdBy: { in: accounts } }] : [])] },
    });
    // What the visitors wrote, as learning keys their wording.
    const visitorTexts = messages.filter((m) => accounts.includes(m.sender) && m.text.trim()).map((m) => m.text);
    const keys = [...new Set(visitorTexts.map(questionKey).filter(Boolean))];
    const phrasings = keys.length ? await this.db.kbPhrasing.findMany({ where: { id_project: projectId, key: { in: keys } } }) : [];
    const feedback = requestIds.length ? await this.db.kbFeedback.findMany({ where: { id_project: projectId, request_id: { in: requestIds } } }) : [];
    return { lead, requests, messages, files, phrasings, feedback };
  }

  /** Everything held about the lead, as JSON (the file records, not their bytes). */
  async export(projectId: string, leadId: string) {
    const held = await this.held(projectId, leadId);
    await this.events.transaction(async (_tx, emit) => emit({ projectId, name: 'lead.export', subject: held.lead.id }));
    return {
      exportedAt: new Date().toISOString(),
      lead: held.lead,
      requests: held.requests.map(({ search: _search, ...r }: Record<string, unknown>) => r),
      messages: held.messages.map(({ search: _search, ...m }: Record<string, unknown>) => m),
      files: held.files,
      learnedPhrasings: held.phrasings,
      feedback: held.feedback,
    };
  }

  /** Removes the lead and everything held about them; answers what was removed. */
  async erase(projectId: string, leadId: string) {
    const held = await this.held(projectId, leadId);
    const requestIds = held.requests.map((r) => r.request_id);
    const counts = { requests: held.requests.length, messages: held.messages.length, files: held.files.length, phrasings: held.phrasings.length };
    await this.events.transaction(async (tx, emit) => {
      if (requestIds.length) {
        await tx.message.deleteMany({ where: { id_project: projectId, request_id: { in: requestIds } } });
        await tx.requestSeen.deleteMany({ where: { id_project: projectId, request_id: { in: requestIds } } });
        await tx.requestSla.deleteMany({ where: { id_project: projectId, request_id: { in: requestIds } } });
        await tx.slaTimer.deleteMany({ where: { id_project: projectId, request_id: { in: requestIds } } });
        await tx.kbFeedback.deleteMany({ where: { id_project: projectId, request_id: { in: requestIds } } });
        await tx.request.deleteMany({ where: { id_project: projectId, request_id: { in: requestIds } } });
      }
      if (held.phrasings.length) await tx.kbPhrasing.deleteMany({ where: { id: { in: held.phrasings.map((p) => p.id) } } });
      if (held.files.length) await tx.storedFile.deleteMany({ where: { id: { in: held.files.map((f) => f.id) } } });
      await tx.lead.delete({ where: { id: held.lead.id } });
      await emit({ projectId, name: 'lead.erase', subject: held.lead.id, payload: counts, audit: { before: { lead_id: held.lead.lead_id, requests: requestIds } } });
    });
    // The bytes go once the records have: a file left by a crash here is unreachable, and removed by path later.
    for (const file of held.files) {
      for (const path of [file.path, file.thumbnail]) {
        if (path) await this.files.remove(path).catch((error) => this.logger.warn({ err: (error as Error).message, path }, 'could not remove an erased lead\'s file'));
      }
    }
    return { lead: held.lead, counts };
  }
}
