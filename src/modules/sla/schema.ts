import { definedArgs } from '../../graphql/args.js';
import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import type { RequestSla } from '../../generated/prisma/client.js';
import { readsNotes } from '../requests/access.js';
import { relationsFor } from '../requests/relations.js';
import { Request } from '../requests/schema.js';
import type { SlaPolicyRecord } from './policies.js';
import type { SlaReport } from './report.js';

export const SlaPolicy = builder.objectRef<SlaPolicyRecord>('SlaPolicy').implement({
  description:
    'Response and resolution targets (seconds, counted in the project\'s operating hours when they are on) for the requests of some departments and priorities (an empty list matches any). When several match a request, the most specific wins: department and priority, then department, then priority, then a catch-all; the oldest among equals.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    name: t.exposeString('name', { nullable: false }),
    departments: t.exposeStringList('departments', { nullable: false, description: 'Department ids; empty: any department.' }),
    priorities: t.exposeStringList('priorities', { nullable: false, description: 'urgent, hight, normal, low; empty: any priority.' }),
    first_response_seconds: t.exposeInt('first_response_seconds', { description: 'Time to the first teammate reply.' }),
    next_response_seconds: t.exposeInt('next_response_seconds', { description: 'Time to answer each later visitor message.' }),
    resolution_seconds: t.exposeInt('resolution_seconds', { description: 'Time to close the request.' }),
  }),
});

const SlaPolicyName = builder.objectRef<{ id: string; name: string | null }>('SlaPolicyName').implement({
  fields: (t) => ({
    _id: t.exposeString('id', { nullable: false }),
    id: t.exposeString('id', { nullable: false }),
    name: t.exposeString('name'),
  }),
});

const RequestSlaRef = builder.objectRef<RequestSla>('RequestSla').implement({
  description:
    'A request\'s SLA: the policy that applies, each target\'s deadline, the targets met and those breached (first_response, next_response, resolution). nextResponseDueAt is set while a visitor message waits for an answer.',
  fields: (t) => ({
    policy: t.field({ type: SlaPolicyName, resolve: (s) => (s.policyId ? { id: s.policyId, name: s.policyName } : null) }),
    firstResponseDueAt: t.field({ type: 'DateTime', resolve: (s) => s.firstResponseDueAt }),
    nextResponseDueAt: t.field({ type: 'DateTime', resolve: (s) => s.nextResponseDueAt }),
    resolutionDueAt: t.field({ type: 'DateTime', resolve: (s) => s.resolutionDueAt }),
    met: t.exposeStringList('met', { nullable: false }),
    breached: t.exposeStringList('breached', { nullable: false }),
  }),
});

builder.objectField(Request, 'sla', (t) =>
  t.field({
    type: RequestSlaRef,
    description: 'The SLA that applies (src/modules/sla), computed as the request changes; null when no policy applies, and for end users.',
    resolve: async (r, _args, ctx) => {
      if (!readsNotes(await ctx.teammate(r.id_project))) return null;
      // Read with the request's other relations (one statement for an operation's requests, none for a post's).
      const sla = (await relationsFor(ctx, r))?.sla;
      return sla?.policyId ? sla : null;
    },
  }),
);

const Count = <N extends string>(name: N, key: string, label: string) =>
  builder.objectRef<Record<string, unknown> & { breaches: number }>(name).implement({
    fields: (t) => ({
      [key]: t.string({ resolve: (r) => (r[key] as string | null) ?? null }),
      [label]: t.string({ resolve: (r) => (r[label] as string | null) ?? null }),
      breaches: t.int({ nullable: false, resolve: (r) => r.breaches }),
    }),
  });

const ByDepartment = Count('SlaBreachesByDepartment', 'department_id', 'name');
const ByAgent = Count('SlaBreachesByAgent', 'id_user', 'fullname');
const ByWeek = builder.objectRef<{ week: string; breaches: number }>('SlaBreachesByWeek').implement({
  fields: (t) => ({ week: t.exposeString('week', { nullable: false, description: 'The Monday (UTC) starting the week.' }), breaches: t.exposeInt('breaches', { nullable: false }) }),
});
const ByTarget = builder.objectRef<{ target: string; breaches: number }>('SlaBreachesByTarget').implement({
  fields: (t) => ({ target: t.exposeString('target', { nullable: false }), breaches: t.exposeInt('breaches', { nullable: false }) }),
});
const Report = builder.objectRef<SlaReport>('SlaReport').implement({
  description: 'SLA breaches of a period, by target, department, agent (the teammates serving the request when it breached) and week.',
  fields: (t) => ({
    from: t.field({ type: 'DateTime', nullable: false, resolve: (r) => r.from }),
    to: t.field({ type: 'DateTime', nullable: false, resolve: (r) => r.to }),
    total: t.exposeInt('total', { nullable: false }),
    byTarget: t.field({ type: [ByTarget], nullable: false, resolve: (r) => r.byTarget }),
    byDepartment: t.field({ type: [ByDepartment], nullable: false, resolve: (r) => r.byDepartment }),
    byAgent: t.field({ type: [ByAgent], nullable: false, resolve: (r) => r.byAgent }),
    byWeek: t.field({ type: [ByWeek], nullable: false, resolve: (r) => r.byWeek }),
  }),
});

builder.queryFields((t) => ({
  slaPolicies: t.field({
    type: [SlaPolicy],
    nullable: false,
    description: 'The project\'s SLA policies, oldest first (agents may read them).',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.slaPolicies.list(args.project_id),
  }),
  slaPolicy: t.field({
    type: SlaPolicy,
    nullable: false,
    description: 'One SLA policy of the project (agents may read it); another project\'s answers 404.',
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.slaPolicies.get(args.project_id, args.id),
  }),
  analyticsSla: t.field({
    type: Report,
    nullable: false,
    description: 'SLA breaches by target, department, agent and week between `from` and `to` (ISO-8601; default: the last 12 weeks).',
    args: { project_id: t.arg.string({ required: true }), from: t.arg.string(), to: t.arg.string() },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, ...query }, ctx) => ctx.services.slaReports.breaches(project_id, definedArgs(query)),
  }),
}));

builder.mutationFields((t) => {
  const policyArgs = () => ({
    name: t.arg.string(),
    departments: t.arg.stringList({ description: 'Department ids; empty or absent: any department.' }),
    priorities: t.arg.stringList({ description: 'urgent, hight, normal, low; empty or absent: any priority.' }),
    first_response: t.arg({ type: 'JSON', description: 'A duration: seconds, or text such as "30m", "4h", "1d 2h" or "PT4H"; null, false or "none" removes the target (REST drops null keys: say false or "none").' }),
    next_response: t.arg({ type: 'JSON', description: 'A duration, as first_response.' }),
    resolution: t.arg({ type: 'JSON', description: 'A duration, as first_response.' }),
  });
  return {
  createSlaPolicy: t.field({
    type: SlaPolicy,
    nullable: false,
    description: 'Creates an SLA policy (at least one target). Audited.',
    args: { project_id: t.arg.string({ required: true }), ...policyArgs() },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, ...input }, ctx) => ctx.services.slaPolicies.create(project_id, definedArgs(input)),
  }),
  updateSlaPolicy: t.field({
    type: SlaPolicy,
    nullable: false,
    description: 'Changes an SLA policy; open requests are computed again. Audited.',
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }), ...policyArgs() },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, id, ...input }, ctx) => ctx.services.slaPolicies.update(project_id, id, definedArgs(input, ['first_response', 'next_response', 'resolution'])),
  }),
  deleteSlaPolicy: t.field({
    type: SlaPolicy,
    nullable: false,
    description: 'Deletes an SLA policy; open requests are computed again (breaches already recorded stay). Audited.',
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.slaPolicies.delete(args.project_id, args.id),
  }),
  };
});

export const routes: RestRoutes = {
  'Query.slaPolicies': { method: 'GET', path: '/:project_id/sla_policies' },
  'Query.slaPolicy': { method: 'GET', path: '/:project_id/sla_policies/:id' },
  'Mutation.createSlaPolicy': { method: 'POST', path: '/:project_id/sla_policies' },
  'Mutation.updateSlaPolicy': { method: 'PATCH', path: '/:project_id/sla_policies/:id' },
  'Mutation.deleteSlaPolicy': { method: 'DELETE', path: '/:project_id/sla_policies/:id' },
  'Query.analyticsSla': { method: 'GET', path: '/:project_id/analytics/sla' },
};
