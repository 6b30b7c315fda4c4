import { z } from 'zod';
import { badInput, notFound, parseInput } from '../../errors.js';
import type { Db, Tx } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { Department } from '../../generated/prisma/client.js';

export type DepartmentRecord = Department;

const json = z.record(z.string(), z.unknown());
const percentage = z.number().min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100');

const groupShares = z
  .array(z.object({ id_group: z.string().trim().min(1, 'is required'), percentage }))
  .max(50, 'must have at most 50 groups')
  .refine((shares) => new Set(shares.map((s) => s.id_group)).size === shares.length, 'must name each group once')
  .refine((shares) => shares.reduce((sum, s) => sum + s.percentage, 0) <= 100, 'percentages must add up to at most 100');

/** Optional text: an empty string clears it like null (REST bodies cannot send null through). */
const clearable = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .transform((v) => v || null)
    .nullable();

const fields = {
  name: z.string().trim().min(1, 'is required').max(200),
  routing: z.enum(['assigned', 'pooled'], { message: 'must be assigned or pooled' }).nullable(),
  id_group: clearable(100),
  id_bot: clearable(100),
  groups: groupShares,
  status: z.union([z.literal(0), z.literal(1)], { message: 'must be 1 (visible) or 0 (invisible)' }),
  online_msg: clearable(2000),
  offline_msg: clearable(2000),
  attributes: json,
};

/** A whole department: what POST creates and PUT replaces with; absent fields take their defaults. */
const fullInput = z.object({
  name: fields.name,
  routing: fields.routing.default('pooled'),
  id_group: fields.id_group.default(null),
  id_bot: fields.id_bot.default(null),
  groups: fields.groups.default([]),
  status: fields.status.default(1),
  online_msg: fields.online_msg.default(null),
  offline_msg: fields.offline_msg.default(null),
  attributes: fields.attributes.default({}),
});

const patchInput = z.object(fields).partial();

type DepartmentChanges = z.infer<typeof patchInput>;

/** What a department answers for `online_msg` / `offline_msg` it has none of (never set, or cleared with null). */
export const defaultOnlineMessage = 'Hello! How can we help you?';
export const defaultOfflineMessage = 'We are offline at the moment. Leave us a message and we will get back to you as soon as we can.';

/** `GET /departments/default` names the project's default department. */
export const defaultDepartmentAlias = 'default';

export class DepartmentService {
  constructor(
    private db: Db,
    private events: EventLog,
  ) {}

  /** All departments, or only the visible ones (status 1), default first then by creation. */
  list(projectId: string, options: { visibleOnly: boolean }) {
    return this.db.department.findMany({
      where: { id_project: projectId, ...(options.visibleOnly ? { status: 1 } : {}) },
      orderBy: [{ default: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async get(projectId: string, id: string) {
    const department = await this.db.department.findFirst({
      where: id === defaultDepartmentAlias ? { id_project: projectId, default: true } : { id, id_project: projectId },
    });
    if (!department) throw notFound('department');
    return department;
  }

  async create(projectId: string, actorUserId: string, input: unknown) {
    const data = parseInput(fullInput, input);
    return this.events.transaction(async (tx, emit) => {
      await this.checkReferences(tx, projectId, data);
      const department = await tx.department.create({
        data: { ...data, attributes: data.attributes as object, id_project: projectId, createdBy: actorUserId },
      });
      await emit({ projectId, name: 'department.create', subject: department.id });
      return department;
    });
  }

  /** PUT: every writable field is replaced; the ones left out go back to their defaults. */
  async replace(projectId: string, id: string, input: unknown) {
    return this.save(projectId, id, parseInput(fullInput, input));
  }

  /** PATCH: only the fields given change. */
  async update(projectId: string, id: string, input: unknown) {
    return this.save(projectId, id, parseInput(patchInput, input));
  }

  private async save(projectId: string, id: string, changes: DepartmentChanges) {
    const current = await this.get(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      await this.checkReferences(tx, projectId, changes);
      const department = await tx.department.update({
        where: { id: current.id },
        data: { ...changes, attributes: changes.attributes as object | undefined },
      });
      await emit({
        projectId,
        name: 'department.update',
        subject: department.id,
        payload: { fields: Object.keys(changes) },
      });
      return department;
    });
  }

  async remove(projectId: string, id: string) {
    const current = await this.get(projectId, id);
    if (current.default) throw badInput('id', 'id: the default department cannot be deleted');
    return this.events.transaction(async (tx, emit) => {
      const department = await tx.department.delete({ where: { id: current.id } });
      await emit({ projectId, name: 'department.delete', subject: department.id });
      return department;
    });
  }

  /** Groups and bots a department points at must exist in the same project. */
  private async checkReferences(tx: Tx, projectId: string, changes: DepartmentChanges) {
    const groupIds = [
      ...(changes.id_group ? [{ id: changes.id_group, field: 'id_group' }] : []),
      ...(changes.groups ?? []).map((share, i) => ({ id: share.id_group, field: `groups.${i}.id_group` })),
    ];
    if (groupIds.length) {
      const found = await tx.group.findMany({
        where: { id_project: projectId, trashed: false, id: { in: groupIds.map((g) => g.id) } },
        select: { id: true },
      });
      const known = new Set(found.map((g) => g.id));
      const missing = groupIds.find((g) => !known.has(g.id));
      if (missing) throw badInput(missing.field, `${missing.field}: no group ${missing.id} in this project`);
    }
    if (changes.id_bot) {
      const bot = await tx.bot.findFirst({ where: { id: changes.id_bot, id_project: projectId, trashed: false } });
      if (!bot) throw badInput('id_bot', `id_bot: no bot ${changes.id_bot} in this project`);
    }
  }

  /** Departments that route to a group, directly or through their load distribution. */
  usingGroup(projectId: string, groupId: string, db: Tx | Db = this.db) {
    return db.department.findMany({
      where: {
        id_project: projectId,
        OR: [{ id_group: groupId }, { groups: { array_contains: [{ id_group: groupId }] } }],
      },
      orderBy: { createdAt: 'asc' },
    });
  }
}
