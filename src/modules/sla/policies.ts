import { z } from 'zod';
import { badInput, notFound, parseInput } from '../../errors.js';
import type { SlaPolicy } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import { targetSeconds } from './durations.js';

// SLA policies: a name, up to three targets (first response, next response, resolution) and the
// requests they apply to (departments and priorities; an empty list matches any).
//
// Precedence, when several policies match a request: the most specific wins. A policy naming both
// the request's department and its priority beats one naming its department only, which beats one
// naming its priority only, which beats a catch-all (both lists empty). Between equally specific
// ones, the oldest (created first) wins.

export const slaTargets = ['first_response', 'next_response', 'resolution'] as const;
export type SlaTarget = (typeof slaTargets)[number];
export const slaPriorities = ['urgent', 'hight', 'normal', 'low'] as const;
export const maxPolicies = 100;

const name = z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters');
const ids = z.array(z.string().trim().min(1, 'must not be empty')).max(500, 'must list at most 500');
const priorities = z.array(z.enum(slaPriorities, { message: `must each be one of ${slaPriorities.join(', ')}` }));
const createInput = z.object({ name, departments: ids.default([]), priorities: priorities.default([]) });
const updateInput = z.object({ name: name.optional(), departments: ids.optional(), priorities: priorities.optional() });

export type SlaPolicyRecord = SlaPolicy;

/** The seconds of each target in `input` (first_response, next_response, resolution), validated. */
function targetsOf(input: Record<string, unknown>) {
  return {
    first_response_seconds: targetSeconds('first_response', input.first_response),
    next_response_seconds: targetSeconds('next_response', input.next_response),
    resolution_seconds: targetSeconds('resolution', input.resolution),
  };
}

const specificity = (p: SlaPolicy) => (p.departments.length ? 2 : 0) + (p.priorities.length ? 1 : 0);

/** The policy that applies to a request of this department and priority, by the precedence above. */
export function matchPolicy(policies: SlaPolicy[], departmentId: string | null, priority: string): SlaPolicy | null {
  const matching = policies.filter(
    (p) => (!p.departments.length || (departmentId !== null && p.departments.includes(departmentId))) && (!p.priorities.length || p.priorities.includes(priority)),
  );
  matching.sort((a, b) => specificity(b) - specificity(a) || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  return matching[0] ?? null;
}

export class SlaPolicyService {
  constructor(
    private db: Db,
    private events: EventLog,
  ) {}

  list(projectId: string) {
    return this.db.slaPolicy.findMany({ where: { id_project: projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  async get(projectId: string, id: string) {
    const policy = await this.db.slaPolicy.findFirst({ where: { id, id_project: projectId } });
    if (!policy) throw notFound('SLA policy');
    return policy;
  }

  private async checkDepartments(projectId: string, departments: string[] | undefined) {
    if (!departments?.length) return;
    const found = await this.db.department.findMany({ where: { id_project: projectId, id: { in: departments } }, select: { id: true } });
    const known = new Set(found.map((d) => d.id));
    const missing = departments.find((d) => !known.has(d));
    if (missing) throw badInput('departments', `departments: no department ${missing} in this project`);
  }

  async create(projectId: string, input: Record<string, unknown>) {
    const data = parseInput(createInput, input);
    const targets = targetsOf(input);
    if (targets.first_response_seconds == null && targets.next_response_seconds == null && targets.resolution_seconds == null) {
      throw badInput('first_response', 'first_response, next_response or resolution: give at least one target');
    }
    await this.checkDepartments(projectId, data.departments);
    if ((await this.db.slaPolicy.count({ where: { id_project: projectId } })) >= maxPolicies) throw badInput('name', `name: a project has at most ${maxPolicies} SLA policies`);
    return this.events.transaction(async (tx, emit) => {
      const policy = await tx.slaPolicy.create({
        data: { id_project: projectId, name: data.name, departments: [...new Set(data.departments)], priorities: [...new Set(data.priorities)], ...targets },
      });
      await emit({ projectId, name: 'sla_policy.create', subject: policy.id, audit: { after: auditView(policy) } });
      return policy;
    });
  }

  async update(projectId: string, id: string, input: Record<string, unknown>) {
    const data = parseInput(updateInput, input);
    const targets = Object.fromEntries(Object.entries(targetsOf(input)).filter(([, v]) => v !== undefined));
    await this.checkDepartments(projectId, data.departments);
    const current = await this.get(projectId, id);
    const next = { ...current, ...targets };
    if (next.first_response_seconds == null && next.next_response_seconds == null && next.resolution_seconds == null) {
      throw badInput('first_response', 'first_response, next_response or resolution: a policy keeps at least one target');
    }
    return this.events.transaction(async (tx, emit) => {
      const policy = await tx.slaPolicy.update({
        where: { id: current.id },
        data: {
          name: data.name,
          departments: data.departments && [...new Set(data.departments)],
          priorities: data.priorities && [...new Set(data.priorities)],
          ...targets,
        },
      });
      const fields = [...Object.keys(data).filter((k) => data[k as keyof typeof data] !== undefined), ...Object.keys(targets)];
      await emit({ projectId, name: 'sla_policy.update', subject: policy.id, payload: { fields }, audit: { before: auditView(current), after: auditView(policy) } });
      return policy;
    });
  }

  async delete(projectId: string, id: string) {
    const current = await this.get(projectId, id);
    return this.events.transaction(async (tx, emit) => {
      await tx.slaPolicy.delete({ where: { id: current.id } });
      await emit({ projectId, name: 'sla_policy.delete', subject: current.id, audit: { before: auditView(current) } });
      return current;
    });
  }
}

function auditView(p: SlaPolicy) {
  return {
    name: p.name,
    departments: p.departments,
    priorities: p.priorities,
    first_response_seconds: p.first_response_seconds,
    next_response_seconds: p.next_response_seconds,
    resolution_seconds: p.resolution_seconds,
  };
}
