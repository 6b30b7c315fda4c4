import { auditFields } from '../audit/record.js';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { forbidden, notFound, parseInput } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { Project } from '../../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import { isWithin, parseOperatingHours, type OperatingHours } from './operating-hours.js';
import { TtlCache } from '../../infra/ttl-cache.js';
import { forgetPerRequest, perRequest } from '../../infra/request-scope.js';
import { readProject } from './read.js';

export type ProjectRecord = Project;

const hexColor = z.string().regex(/^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i, 'must be a hex color such as #2a6ac1');
const httpUrl = z.string().url('must be a URL').refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

/** Settings are free-form, except the keys the platform reads (a bad value is refused, nothing stored). */
const settingsInput = z.looseObject({
  assistant: z
    .looseObject({
      // The top suggested tag applies itself at this confidence (src/modules/assistant/auto-tag.ts); null: off.
      auto_tag_threshold: z.number('must be a number from 0 to 1, or null (off)').min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1').nullable().optional(),
    }, 'must be an object')
    .optional(),
});

const createInput = z.object({ name: z.string().trim().min(1, 'is required').max(200) });

const updateInput = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  settings: settingsInput.optional(),
  activeOperatingHours: z.boolean().optional(),
  operatingHours: z.unknown().optional(),
  retention_days: z.number().int('must be a whole number of days').min(0, 'must be 0 (keep forever) or more').max(36_500, 'must be at most 36500').optional(),
  status: z
    .number()
    .refine((n) => n === activeStatus || n === disabledStatus, 'must be 100 (active) or 0 (disabled)')
    .optional(),
});

const widgetInput = z
  .object({
    logoChat: httpUrl.optional(),
    themeColor: hexColor.optional(),
    themeForegroundColor: hexColor.optional(),
    themeColorOpacity: z.number().min(0).max(1).optional(),
    align: z.enum(['left', 'right']).optional(),
    displayOnDesktop: z.boolean().optional(),
    displayOnMobile: z.boolean().optional(),
    onPageChangeVisibilityDesktop: z.enum(['open', 'close', 'last']).optional(),
    onPageChangeVisibilityMobile: z.enum(['open', 'close', 'last']).optional(),
    singleConversation: z.boolean().optional(),
    baloonImage: httpUrl.optional(),
    poweredBy: z.string().max(2000).optional(),
  })
  .catchall(z.unknown());

export const defaultDepartmentName = 'Default Department';

/** Project status (spec States): 100 active, 0 disabled. */
export const activeStatus = 100;
export const disabledStatus = 0;
const disabledMessage = 'project: is disabled; only its owner can enable it again (PUT /v3/projects/:project_id {"status": 100})';

/** Bus channel telling every node that a project's settings changed, so cached copies drop it. */
const projectChangedChannel = 'projects.changed';

export class ProjectService {
  /** Projects by id: read on most requests (settings, operating hours, widget), rarely written. */
  private projects: TtlCache<string, ProjectRecord>;

  constructor(
    private db: Db,
    private events: EventLog,
    cacheMs = 5000,
  ) {
    this.projects = new TtlCache(cacheMs);
    events.bus.subscribe(projectChangedChannel, (m) => this.projects.delete(String(m.projectId)));
  }

  /** Drops this node's cached copy of a project (a reader that learnt of a change from the event log). */
  forget(projectId: string) {
    this.projects.delete(projectId);
    forgetPerRequest(`project:${projectId}`);
  }

  /** Drops a cached project here at once and on the other nodes through the bus. */
  private async changed(projectId: string) {
    this.forget(projectId);
    await this.events.bus.publish(projectChangedChannel, { projectId });
  }

  /** Creates a project; the caller becomes its owner and it gets its default department. */
  async create(principal: Principal, input: unknown) {
    const data = parseInput(createInput, input);
    const created = await this.events.transaction(async (tx, emit) => {
      const project = await tx.project.create({
        data: { name: data.name, createdBy: principal.userId, profile: { name: 'free', type: 'free', agents: 0, trialDays: 0 } },
      });
      const owner = await tx.projectUser.create({
        data: { id_project: project.id, id_user: principal.userId, role: 'owner', createdBy: principal.userId },
      });
      const department = await tx.department.create({
        data: {
          id_project: project.id,
          name: defaultDepartmentName,
          routing: 'assigned',
          default: true,
          createdBy: principal.userId,
        },
      });
      await emit({ projectId: project.id, name: 'project_user.invite', subject: owner.id });
      await emit({ projectId: project.id, name: 'department.create', subject: department.id });
      return project;
    });
    return created;
  }

  /** The caller's memberships, each with its project. */
  memberships(principal: Principal) {
    return this.db.projectUser.findMany({
      where: { id_user: principal.userId, trashed: false, status: 'active', project: { deletedAt: null } },
      include: { project: true },
      orderBy: { createdAt: 'asc' },
    });
  }

  /** A project row read along with something else in this request: this request's reads of it answer it. */
  know(projectId: string, project: ProjectRecord | null) {
    if (!this.projects.get(projectId)) perRequest(`project:${projectId}`, () => Promise.resolve(project));
  }

  /** The project; 404 once deleted. */
  async get(projectId: string) {
    let project = this.projects.get(projectId);
    if (!project) {
      // Read once per request however many times it asks (a role check, then the resolver).
      const found = await perRequest(`project:${projectId}`, () => readProject(this.db, projectId));
      if (!found) throw notFound('project');
      this.projects.set(projectId, (project = found));
    }
    if (project.deletedAt) throw notFound('project');
    return project;
  }

  /**
   * The one rule of a project's state: a deleted project answers 404 and a disabled one 403 to
   * every call (members', visitors', bots', API keys'), except `ownerCall`: its owner reading it
   * or enabling it again.
   */
  async assertOpen(projectId: string, ownerCall = false) {
    const project = await this.get(projectId);
    if (project.status === disabledStatus && !ownerCall) throw forbidden(disabledMessage);
    return project;
  }

  /** `role`: the caller's; only the owner enables or disables the project. */
  async update(projectId: string, input: unknown, role?: string) {
    const data = parseInput(updateInput, input);
    if (data.status !== undefined && role !== 'owner') throw forbidden('status: only the project owner can enable or disable the project');
    const current = await this.get(projectId);
    if (current.status === disabledStatus && data.status !== activeStatus && role === 'owner') {
      throw forbidden(`${disabledMessage}; enable it in the same call to change anything else`);
    }
    const operatingHours = data.operatingHours === undefined || data.operatingHours === null
      ? undefined
      : parseOperatingHours(data.operatingHours);
    const updated = await this.events.transaction(async (tx, emit) => {
      const project = await tx.project.update({
        where: { id: projectId },
        data: {
          name: data.name,
          settings: data.settings as object | undefined,
          activeOperatingHours: data.activeOperatingHours,
          operatingHours: operatingHours as object | undefined,
          status: data.status,
          retention_days: data.retention_days === undefined ? undefined : data.retention_days || null,
        },
      });
      const fields = Object.keys(data);
      await emit({ projectId, name: 'project.update', subject: projectId, payload: { fields }, audit: { before: auditFields(current, fields), after: auditFields(project, fields) } });
      return project;
    });
    await this.changed(projectId);
    return updated;
  }

  /**
   * Deletes a project for its owner: from this call on it answers 404 to everyone (every node drops
   * its cached copy through the bus), its webhook subscriptions stop, and a `project.delete` event
   * ends its live subscriptions; the data itself goes by a listener on that event (`purge.ts`).
   */
  async remove(projectId: string) {
    const project = await this.get(projectId);
    const removed = await this.events.transaction(async (tx, emit) => {
      const saved = await tx.project.update({ where: { id: projectId }, data: { deletedAt: new Date() } });
      await tx.subscription.updateMany({
        where: { id_project: projectId, enabled: true },
        data: { enabled: false, disabledAt: new Date(), disabledReason: 'the project was deleted' },
      });
      await emit({ projectId, name: 'project.delete', subject: projectId });
      return saved;
    });
    await this.changed(projectId);
    return { ...project, ...removed };
  }

  /** A new secret for the project's custom tokens (256 random bits); the old one stops verifying at once. */
  async rotateJwtSecret(projectId: string): Promise<string> {
    const jwtSecret = randomBytes(32).toString('base64url');
    await this.events.transaction(async (tx, emit) => {
      await tx.project.update({ where: { id: projectId }, data: { jwtSecret } });
      // The event names the field, never its value.
      await emit({ projectId, name: 'project.update', subject: projectId, payload: { fields: ['jwtSecret'] } });
    });
    await this.changed(projectId);
    return jwtSecret;
  }

  /** Open unless operating hours are active and now is outside them. */
  isOpen(project: ProjectRecord, now = new Date()): boolean {
    if (!project.activeOperatingHours || !project.operatingHours) return true;
    return isWithin(project.operatingHours as OperatingHours, now);
  }

  async updateWidget(projectId: string, widget: unknown) {
    const data = parseInput(z.object({ widget: widgetInput }), { widget });
    const updated = await this.events.transaction(async (tx, emit) => {
      const current = await tx.project.findUnique({ where: { id: projectId } });
      if (!current) throw notFound('project');
      const merged = { ...(current.widget as object), ...data.widget } as object;
      const project = await tx.project.update({ where: { id: projectId }, data: { widget: merged } });
      await emit({ projectId, name: 'project.update', subject: projectId, payload: { fields: ['widget'] } });
      return project;
    });
    await this.changed(projectId);
    return updated;
  }
}
