import { describe, expect, it } from 'vitest';
import type { Request } from '../../src/generated/prisma/client.js';
import type { Db } from '../../src/infra/database.js';
import {
  agentDepartmentIds,
  canSee,
  readRefusal,
  readsNotes,
  scopeCondition,
  scopeFor,
  viewerKind,
  visibility,
  withoutDepartments,
  type Scope,
  type Viewer,
} from '../../src/modules/requests/access.js';
import { holds } from '../../src/modules/requests/conditions.js';
import { roles } from '../../src/modules/teammates/roles.js';
import { idsWhere, rows } from './both-readings.js';

// Who may see a request, without an app: admins and the owner see every request of the project;
// agents those they take part in or opened, and those without a human agent in one of their
// departments or in none; end users (user, guest) only those they opened. `canSee` decides on a
// loaded row, `scopeCondition` is the same rule as SQL for lists, and the two must agree.

const viewer = (role: string, teammateId = 't1', userId = 'u1'): Viewer => ({ teammateId, userId, role });
const agent: Scope = { kind: 'agent', viewer: viewer('agent'), departmentIds: ['d1'] };
const endUser: Scope = { kind: 'own', viewer: viewer('user') };

const request = (fields: Partial<Request>) =>
  ({ requester_id: 'someone', departmentId: null, participants: [], participatingAgents: [], ...fields }) as Request;

/** The database calls `agentDepartmentIds` makes, answered from lists, honouring their filters. */
function fakeDb(departments: Array<{ id: string; id_project?: string; id_group: string | null; groups: unknown }>, groups: Array<{ id: string; members: string[]; trashed?: boolean; id_project?: string }>) {
  return {
    department: {
      findMany: async ({ where }: { where: { id_project: string } }) =>
        departments.filter((d) => (d.id_project ?? 'p1') === where.id_project).map(({ id, id_group, groups }) => ({ id, id_group, groups })),
    },
    group: {
      findMany: async ({ where }: { where: { id_project: string; trashed: boolean; members: { has: string } } }) =>
        groups
          .filter((g) => (g.id_project ?? 'p1') === where.id_project && (g.trashed ?? false) === where.trashed && g.members.includes(where.members.has))
          .map(({ id }) => ({ id })),
    },
  } as unknown as Db;
}

const noDatabase = new Proxy(
  {},
  {
    get: () => {
      throw new Error('no database call expected');
    },
  },
) as Db;

describe('viewer kinds', () => {
  it('tells roles apart by what they see: owner and admin all, agent its own, user and guest their requests', () => {
    expect(Object.fromEntries(roles.map((role) => [role, viewerKind(role)]))).toEqual({
      owner: 'admin',
      admin: 'admin',
      agent: 'agent',
      user: 'end-user',
      guest: 'end-user',
    });
  });

  it('reads an unknown role as an end user (the least it may see)', () => {
    expect(viewerKind('superuser')).toBe('end-user');
    expect(viewerKind('')).toBe('end-user');
  });
});

describe('scopes', () => {
  it('gives owners and admins every request without reading the database', async () => {
    expect(await scopeFor(noDatabase, 'p1', viewer('owner'))).toEqual({ kind: 'all' });
    expect(await scopeFor(noDatabase, 'p1', viewer('admin'))).toEqual({ kind: 'all' });
  });

  it('gives users and guests their own requests without reading the database', async () => {
    expect(await scopeFor(noDatabase, 'p1', viewer('user'))).toEqual({ kind: 'own', viewer: viewer('user') });
    expect(await scopeFor(noDatabase, 'p1', viewer('guest'))).toEqual({ kind: 'own', viewer: viewer('guest') });
  });

  it('gives an agent the departments it works for', async () => {
    const db = fakeDb([{ id: 'd1', id_group: 'g1', groups: [] }, { id: 'd2', id_group: 'g2', groups: [] }], [{ id: 'g1', members: ['u1'] }]);
    expect(await scopeFor(db, 'p1', viewer('agent'))).toEqual({ kind: 'agent', viewer: viewer('agent'), departmentIds: ['d1'] });
  });

  it("counts a department routed to everyone (no group) as every agent's", async () => {
    expect(await agentDepartmentIds(fakeDb([{ id: 'd1', id_group: null, groups: [] }], []), 'p1', 'u1')).toEqual(['d1']);
  });

  it("counts a department by its group shares when it has any, whatever its own group: the agent's if one share is a group it is in", async () => {
    const db = fakeDb(
      [
        { id: 'shared', id_group: 'other', groups: [{ id_group: 'g9', percentage: 50 }, { id_group: 'g1', percentage: 50 }] },
        { id: 'notShared', id_group: 'g1', groups: [{ id_group: 'g9', percentage: 100 }] },
      ],
      [{ id: 'g1', members: ['u1'] }, { id: 'g9', members: ['u2'] }],
    );
    expect(await agentDepartmentIds(db, 'p1', 'u1')).toEqual(['shared']);
  });

  it('ignores a trashed group, a group of another project and malformed shares', async () => {
    const db = fakeDb(
      [
        { id: 'trashed', id_group: 'gt', groups: [] },
        { id: 'elsewhere', id_group: 'gx', groups: [] },
        { id: 'malformed', id_group: 'g1', groups: 'not a list' },
        { id: 'otherProject', id_project: 'p2', id_group: null, groups: [] },
      ],
      [
        { id: 'gt', members: ['u1'], trashed: true },
        { id: 'gx', members: ['u1'], id_project: 'p2' },
        { id: 'g1', members: ['u1'] },
      ],
    );
    // Malformed shares read as none, so the department's own group decides.
    expect(await agentDepartmentIds(db, 'p1', 'u1')).toEqual(['malformed']);
  });
});

describe('who sees a request (canSee)', () => {
  it('lets an admin see every request', () => {
    expect(canSee({ kind: 'all' }, request({ departmentId: 'd9', participatingAgents: ['u9'], participants: ['u9'] }))).toBe(true);
  });

  it('lets an end user see the requests they opened, and no other', () => {
    expect(canSee(endUser, request({ requester_id: 't1' }))).toBe(true);
    expect(canSee(endUser, request({ requester_id: 't2' }))).toBe(false);
    expect(canSee(endUser, request({ requester_id: null }))).toBe(false);
  });

  it('does not let an end user see an unassigned request, nor one they take part in without having opened it', () => {
    expect(canSee(endUser, request({ departmentId: null }))).toBe(false);
    expect(canSee(endUser, request({ participants: ['u1'] }))).toBe(false);
  });

  it('lets an agent see a request it opened or takes part in, whatever its department and agents', () => {
    expect(canSee(agent, request({ requester_id: 't1', departmentId: 'd9', participatingAgents: ['u9'] }))).toBe(true);
    expect(canSee(agent, request({ participants: ['u9', 'u1'], departmentId: 'd9', participatingAgents: ['u9'] }))).toBe(true);
  });

  it('lets an agent see a request with no human agent in one of its departments or in none', () => {
    expect(canSee(agent, request({ departmentId: 'd1' }))).toBe(true);
    expect(canSee(agent, request({ departmentId: null }))).toBe(true);
  });

  it("does not let an agent see another department's request, nor one another agent has taken", () => {
    expect(canSee(agent, request({ departmentId: 'd2' }))).toBe(false);
    expect(canSee(agent, request({ departmentId: 'd1', participatingAgents: ['u9'] }))).toBe(false);
    expect(canSee(agent, request({ departmentId: null, participatingAgents: ['u9'] }))).toBe(false);
  });
});

describe('the list condition (scopeCondition)', () => {
  it('is TRUE for an admin', () => {
    expect(scopeCondition({ kind: 'all' }).sql).toBe('TRUE');
  });

  it("is the plain, indexable requester comparison for an end user", () => {
    const written = scopeCondition(endUser);
    expect({ sql: written.sql, values: written.values }).toEqual({ sql: 'r."requester_id" = ?', values: ['t1'] });
  });

  it("lists an agent's departments as parameters", () => {
    const written = scopeCondition({ ...agent, departmentIds: ['d1', 'd2'] });
    expect(written.sql).toBe(
      '(r."requester_id" = ? OR (? = ANY(r."participants") OR (cardinality(r."participatingAgents") = 0 AND (r."departmentId" IS NULL OR r."departmentId" IN (?,?)))))',
    );
    expect(written.values).toEqual(['t1', 'u1', 'd1', 'd2']);
  });

  const scopes: Array<[string, Scope]> = [
    ['an admin', { kind: 'all' }],
    ['an agent of one department', agent],
    ['an agent of two departments', { ...agent, departmentIds: ['d1', 'd2'] }],
    ['an agent of no department', { ...agent, departmentIds: [] }],
    ['an agent who opened requests too', { kind: 'agent', viewer: viewer('agent', 't2', 'u2'), departmentIds: ['d2'] }],
    ['an end user', endUser],
    ['a guest', { kind: 'own', viewer: viewer('guest', 't2', 'u2') }],
  ];
  for (const [name, scope] of scopes) {
    it(`selects the requests canSee lets ${name} see`, async () => {
      const seen = rows.filter((row) => canSee(scope, row as Request)).map((row) => row.id);
      expect(seen.length).toBeGreaterThan(0);
      expect(await idsWhere(scopeCondition(scope))).toEqual(seen);
    });
  }
});

describe('notes and refusals', () => {
  it('refuses an end user a request not theirs as not found, as for an unknown id (they learn nothing of it)', () => {
    expect(readRefusal(endUser)).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('refuses a teammate a request it cannot see as forbidden (403)', () => {
    expect(readRefusal(agent)).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  it("lets teammates and readers that are no teammate (webhooks, bots) read a request's notes, not end users", () => {
    expect(readsNotes(null)).toBe(true);
    for (const role of ['owner', 'admin', 'agent']) expect(readsNotes({ role }), role).toBe(true);
    for (const role of ['user', 'guest']) expect(readsNotes({ role }), role).toBe(false);
  });
});

describe('visibility without departments (row by row in a batch)', () => {
  it('holds only where the full rule holds, whatever departments the agent has', () => {
    const who = { kind: 'agent', teammateId: 't2', userId: 'u1' };
    for (const departmentIds of [[], ['d1'], ['d2'], ['d1', 'd2']]) {
      for (const row of rows) {
        if (holds(visibility, row as Request, withoutDepartments(who))) {
          expect(holds(visibility, row as Request, { ...who, departmentIds }), row.id).toBe(true);
        }
      }
    }
  });

  it('still lets an agent see a request with no department and no human agent', () => {
    const who = withoutDepartments({ kind: 'agent', teammateId: 't2', userId: 'u9' });
    expect(holds(visibility, request({ departmentId: null }), who)).toBe(true);
    expect(holds(visibility, request({ departmentId: 'd1' }), who)).toBe(false);
  });
});
