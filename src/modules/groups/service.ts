import { z } from 'zod';
import { badInput, conflict, notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { Group } from '../../generated/prisma/client.js';
import type { DepartmentService } from '../departments/service.js';

export type GroupRecord = Group;

const json = z.record(z.string(), z.unknown());
const members = z.array(z.string().trim().min(1, 'must not be empty')).max(1000, 'must have at most 1000 members');

const createInput = z.object({
  name: z.string().trim().min(1, 'is required').max(200),
  members: members.default([]),
  attributes: json.default({}),
});

const updateInput = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  members: members.optional(),
  attributes: json.optional(),
});

export class GroupService {
  constructor(
    private db: Db,
    private events: EventLog,
    private departments: DepartmentService,
  ) {}

  /** Groups not deleted, oldest first. */
  list(projectId: string) {
    return this.db.group.findMany({
      where: { id_project: projectId, trashed: false },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  /** A group, deleted ones included (they show `trashed: true`). */
  async get(projectId: string, id: string) {
    const group = await this.db.group.findFirst({ where: { id, id_project: projectId } });
    if (!group) throw notFound('group');
    return group;
  }

  private async live(projectId: string, id: string) {
    const group = await this.get(projectId, id);
    if (group.trashed) throw notFound('group');
    return group;
  }

  async create(projectId: string, actorUserId: string, input: unknown) {
    const data = parseInput(createInput, input);
    const memberIds = await this.memberUserIds(projectId, data.members);
    return this.events.transaction(async (tx, emit) => {
      const group = await tx.group.create({
        data: {
          id_project: projectId,
          name: data.name,
          members: memberIds,
          attributes: data.attributes as object,
          createdBy: actorUserId,
        },
      });
      await emit({ projectId, name: 'group.create', subject: group.id });
      return group;
    });
  }

  async update(projectId: string, id: string, input: unknown) {
    const data = parseInput(updateInput, input);
    const current = await this.live(projectId, id);
    const memberIds = data.members && (await this.memberUserIds(projectId, data.members));
    return this.events.transaction(async (tx, emit) => {
      const group = await tx.group.update({
        where: { id: current.id },
        data: { name: data.name, members: memberIds, attributes: data.attributes as object | undefined },
      });
      await emit({ projectId, name: 'group.update', subject: group.id, payload: { fields: Object.keys(data) } });
      return group;
    });
  }

  /** Marks the group trashed; a group some department routes to stays until the department lets go. */
  async remove(projectId: string, id: string) {
    const current = await this.live(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      const [user] = await this.departments.usingGroup(projectId, current.id, tx);
      if (user) throw conflict(`the group is used by department ${user.id} (${user.name})`, 'id');
      const group = await tx.group.update({ where: { id: current.id }, data: { trashed: true } });
      await emit({ projectId, name: 'group.delete', subject: group.id });
      return group;
    });
  }

  /** Members may be named by teammate id or user id; they are stored as user ids, once each. */
  private async memberUserIds(projectId: string, ids: string[]) {
    if (!ids.length) return [];
    const teammates = await this.db.projectUser.findMany({
      where: { id_project: projectId, trashed: false, OR: [{ id: { in: ids } }, { id_user: { in: ids } }] },
      select: { id: true, id_user: true },
    });
    const userIdOf = new Map<string, string>();
    for (const t of teammates) {
      userIdOf.set(t.id, t.id_user);
      userIdOf.set(t.id_user, t.id_user);
    }
    const unknown = ids.find((id) => !userIdOf.has(id));
    if (unknown) throw badInput('members', `members: ${unknown} is not a teammate of this project`);
    return [...new Set(ids.map((id) => userIdOf.get(id)!))];
  }
}
