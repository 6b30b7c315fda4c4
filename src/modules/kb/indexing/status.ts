import type { Tx } from '../../../infra/database.js';

// Content indexing states, with the spec's exact numbers.
export const contentStatus = {
  notQueued: -1,
  queued: 100,
  indexing: 200,
  indexed: 300,
  failed: 400,
} as const;

export type ContentStatus = (typeof contentStatus)[keyof typeof contentStatus];

export const statusValues = Object.values(contentStatus) as number[];

export const kbEvents = {
  status: 'kb.content.status',
  indexed: 'kb.content.indexed',
  contentDelete: 'kb.content.delete',
  namespaceCreate: 'kb.namespace.create',
  namespaceUpdate: 'kb.namespace.update',
  namespaceDelete: 'kb.namespace.delete',
} as const;

/** Event payloads stay small: an error text is cut, the record holds all of it. */
export function statusEvent(
  content: { id: string; id_project: string; namespace: string },
  status: ContentStatus,
  error?: string | null,
) {
  return {
    projectId: content.id_project,
    name: kbEvents.status,
    subject: content.id,
    payload: { namespace: content.namespace, status, ...(error ? { error: error.slice(0, 500) } : {}) },
  };
}

/**
 * Every knowledge-base write takes the project row lock first. Appending an event locks the same
 * row, so taking it up front keeps one lock order (project, then contents) and no deadlocks.
 */
export async function lockProject(tx: Tx, projectId: string) {
  await tx.$queryRaw`SELECT 1 FROM "Project" WHERE "id" = ${projectId} FOR UPDATE`;
}
