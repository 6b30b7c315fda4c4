import { Prisma, type Request } from '../../generated/prisma/client.js';
import { forbidden, notFound, type AppError } from '../../errors.js';
import type { Db, Tx } from '../../infra/database.js';
import { roleAtLeast } from '../teammates/roles.js';
import {
  all,
  any,
  column,
  conditionSql,
  contains,
  empty,
  equal,
  holds,
  isNull,
  oneOf,
  param,
  value,
  type Condition,
} from './conditions.js';

// Who may see a request:
// - admins and the owner: every request of the project;
// - agents: requests they take part in or opened, plus requests without a human agent
//   in one of their departments (or in none);
// - users and guests (end users): only the requests they opened. Another visitor's request
//   is not found for them (reading it), so an end user learns nothing about requests not theirs.

export interface Viewer {
  /** ProjectUser id. */
  teammateId: string;
  userId: string;
  role: string;
}

export type Scope =
  | { kind: 'all' }
  | { kind: 'agent'; viewer: Viewer; departmentIds: string[] }
  | { kind: 'own'; viewer: Viewer };

/** Departments an agent works for: those routed to everyone, or to a group the agent is in. */
export async function agentDepartmentIds(db: Db | Tx, projectId: string, userId: string): Promise<string[]> {
  const [departments, groups] = await Promise.all([
    db.department.findMany({ where: { id_project: projectId }, select: { id: true, id_group: true, groups: true } }),
    db.group.findMany({ where: { id_project: projectId, trashed: false, members: { has: userId } }, select: { id: true } }),
  ]);
  const mine = new Set(groups.map((g) => g.id));
  return departments
    .filter((d) => {
      const shares = Array.isArray(d.groups) ? (d.groups as Array<{ id_group?: string }>) : [];
      if (shares.length) return shares.some((s) => s.id_group && mine.has(s.id_group));
      return !d.id_group || mine.has(d.id_group);
    })
    .map((d) => d.id);
}

export async function scopeFor(db: Db | Tx, projectId: string, viewer: Viewer): Promise<Scope> {
  if (roleAtLeast(viewer.role, 'admin')) return { kind: 'all' };
  if (roleAtLeast(viewer.role, 'agent')) {
    return { kind: 'agent', viewer, departmentIds: await agentDepartmentIds(db, projectId, viewer.userId) };
  }
  return { kind: 'own', viewer };
}

/**
 * Who sees a request, once for every reading (see `conditions.ts`). Parameters: `kind` (a
 * `ViewerKind`), `teammateId`, `userId`, and `departmentIds`, the agent's departments.
 */
export const visibility: Condition = any(
  equal(param('kind'), value('admin')),
  equal(column('requester_id'), param('teammateId')),
  all(
    equal(param('kind'), value('agent')),
    any(
      contains('participants', param('userId')),
      all(empty('participatingAgents'), any(isNull(column('departmentId')), oneOf(column('departmentId'), param('departmentIds')))),
    ),
  ),
);

function scopeParams(scope: Scope) {
  if (scope.kind === 'all') return { kind: 'admin', teammateId: null, userId: null, departmentIds: [] };
  const { viewer } = scope;
  return {
    kind: scope.kind === 'agent' ? 'agent' : 'end-user',
    teammateId: viewer.teammateId,
    userId: viewer.userId,
    departmentIds: scope.kind === 'agent' ? scope.departmentIds : [],
  };
}

export function canSee(scope: Scope, request: Request): boolean {
  return holds(visibility, request, scopeParams(scope));
}

/**
 * The answer to reading a request outside the scope: teammates work in the project and are
 * refused (403); end users are told no such request exists (404), as for an unknown id.
 */
export function readRefusal(scope: Scope): AppError {
  return scope.kind === 'own' ? notFound('request') : forbidden('you cannot see this request');
}

/**
 * Notes are written by and for the agents: an end user reads their request without them. No
 * teammate (a webhook payload, a bot) reads them as the request's own record does.
 */
export function readsNotes(viewer: { role: string } | null): boolean {
  return !viewer || viewerKind(viewer.role) !== 'end-user';
}

/** The same rule as `canSee`, as a SQL condition on `r` (the Request table). */
export function scopeCondition(scope: Scope): Prisma.Sql {
  return conditionSql(visibility, scopeParams(scope));
}

/** How `visibility` tells viewers apart: by what their role lets them see. */
export type ViewerKind = 'admin' | 'agent' | 'end-user';

export function viewerKind(role: string): ViewerKind {
  if (roleAtLeast(role, 'admin')) return 'admin';
  return roleAtLeast(role, 'agent') ? 'agent' : 'end-user';
}

/**
 * A viewer's parameters for `visibility` when only who they are is known, not their departments
 * (e.g. row by row of a batch): the rule then holds only where it surely holds, as an agent's
 * departments only ever add requests it sees; where it does not, the full rule decides.
 */
export function withoutDepartments<T>(viewer: { kind: T; teammateId: T; userId: T }) {
  return { ...viewer, departmentIds: [] as string[] };
}
