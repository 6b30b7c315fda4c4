import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import { operators, type SegmentFilter as Filter } from './filters.js';
import type { SegmentRecord } from './service.js';

const operatorList = operators.map((o) => `\`${o}\``).join(', ');

const SegmentFilter = builder.objectRef<Filter>('SegmentFilter').implement({
  fields: (t) => ({
    field: t.exposeString('field', { nullable: false, description: 'A lead field or `attributes.<name>`.' }),
    operator: t.exposeString('operator', { nullable: false, description: `One of ${operatorList}.` }),
    value: t.field({ type: 'JSON', resolve: (f) => f.value ?? null }),
  }),
});

const SegmentFilterInput = builder.inputType('SegmentFilterInput', {
  fields: (t) => ({
    field: t.string({
      description: 'lead_id, email, fullname, phone, company, note, streetAddress, city, region, zipcode, country, tags, createdAt, updatedAt or attributes.<name>.',
    }),
    operator: t.string({ description: `One of ${operatorList}.` }),
    value: t.field({ type: 'JSON', description: 'A string, number or boolean; a list for `in`; none for `is null` and `is not null`.' }),
  }),
});

export const Segment = builder.objectRef<SegmentRecord>('Segment').implement({
  description: 'A saved selection of leads: `all` filters must hold, or `any` of them.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    name: t.exposeString('name', { nullable: false }),
    match: t.exposeString('match', { nullable: false, description: '`all` (AND) or `any` (OR).' }),
    filters: t.field({ type: [SegmentFilter], nullable: false, resolve: (s) => s.filters as unknown as Filter[] }),
    createdBy: t.exposeString('createdBy'),
  }),
});

builder.queryFields((t) => ({
  segments: t.field({
    type: [Segment],
    nullable: false,
    description: 'Newest first.',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.segments.list(args.project_id),
  }),
  segment: t.field({
    type: Segment,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.segments.get(args.project_id, args.id),
  }),
}));

builder.mutationFields((t) => {
  const segmentArgs = () => ({
    name: t.arg.string(),
    match: t.arg.string({ description: '`all` (default) or `any`.' }),
    filters: t.arg({ type: [SegmentFilterInput] }),
  });
  return {
    createSegment: t.field({
      type: Segment,
      nullable: false,
      args: { project_id: t.arg.string({ required: true }), ...segmentArgs() },
      authScopes: minRole('agent'),
      resolve: async (_root, { project_id, ...input }, ctx) =>
        ctx.services.segments.create(project_id, (await ctx.principal())!.userId, definedArgs(input)),
    }),
    updateSegment: t.field({
      type: Segment,
      nullable: false,
      description: 'Changes the fields given; `filters` replaces the whole list.',
      args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }), ...segmentArgs() },
      authScopes: minRole('agent'),
      resolve: (_root, { project_id, id, ...input }, ctx) => ctx.services.segments.update(project_id, id, definedArgs(input)),
    }),
    deleteSegment: t.field({
      type: Segment,
      nullable: false,
      args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
      authScopes: minRole('agent'),
      resolve: (_root, args, ctx) => ctx.services.segments.remove(args.project_id, args.id),
    }),
  };
});

export const routes: RestRoutes = {
  'Query.segments': { method: 'GET', path: '/:project_id/segments' },
  'Query.segment': { method: 'GET', path: '/:project_id/segments/:id' },
  'Mutation.createSegment': { method: 'POST', path: '/:project_id/segments' },
  'Mutation.updateSegment': { method: 'PUT', path: '/:project_id/segments/:id' },
  'Mutation.deleteSegment': { method: 'DELETE', path: '/:project_id/segments/:id' },
};
