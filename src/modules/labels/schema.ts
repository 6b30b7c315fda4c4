import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import { labelSet, type LabelRecord, type LabelSet, type LabelsDeleted } from './service.js';

// Reading a project's labels is open to its guests (the widget reads them); changing them needs
// an admin. The pre-translated defaults are public.

const LabelData = builder.objectRef<LabelSet>('LabelData').implement({
  description: 'The translations of one language: keys such as LABEL_PLACEHOLDER mapped to strings.',
  fields: (t) => ({
    lang: t.exposeString('lang', { nullable: false, description: 'Language identifier, lower-case (`en`, `pt-br`).' }),
    data: t.field({ type: 'JSON', nullable: false, resolve: (l) => l.data }),
    category: t.exposeString('category'),
    default: t.exposeBoolean('default', {
      nullable: false,
      description: 'The project\'s default language; among the pre-translated ones, English (the fallback).',
    }),
  }),
});

export const Label = builder.objectRef<LabelRecord>('Label').implement({
  description: 'A project\'s labels for one language.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    data: t.field({ type: LabelData, nullable: false, resolve: labelSet }),
    attributes: t.field({ type: 'JSON', resolve: (l) => l.attributes }),
    createdBy: t.exposeString('createdBy'),
  }),
});

const LabelsDeletedResult = builder.objectRef<LabelsDeleted>('LabelsDeleted').implement({
  fields: (t) => ({
    success: t.exposeBoolean('success', { nullable: false }),
    deleted: t.exposeInt('deleted', { nullable: false, description: 'How many languages were deleted.' }),
  }),
});

builder.queryFields((t) => ({
  labels: t.field({
    type: [Label],
    nullable: false,
    description: 'Every language of the project, the default first.',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('guest'),
    resolve: (_root, args, ctx) => ctx.services.labels.list(args.project_id),
  }),
  label: t.field({
    type: LabelData,
    nullable: false,
    description: 'The labels of a language, falling back to its primary language, the project default, then built-in English.',
    args: { project_id: t.arg.string({ required: true }), lang: t.arg.string({ required: true }) },
    authScopes: minRole('guest'),
    resolve: (_root, args, ctx) => ctx.services.labels.resolve(args.project_id, args.lang),
  }),
  defaultLabels: t.field({
    type: [LabelData],
    nullable: false,
    description: 'Every pre-translated language shipped with the server. Public: nothing in it belongs to a project.',
    args: { project_id: t.arg.string({ required: true }) },
    resolve: (_root, _args, ctx) => ctx.services.labels.builtins(),
  }),
  defaultLabel: t.field({
    type: LabelData,
    nullable: false,
    description: 'A pre-translated language (or its primary language), else English. Public.',
    args: { project_id: t.arg.string({ required: true }), lang: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.labels.builtin(args.lang),
  }),
}));

builder.mutationFields((t) => ({
  saveLabel: t.field({
    type: Label,
    nullable: false,
    description: 'Adds a language or replaces its translations. The first language saved becomes the default.',
    args: {
      project_id: t.arg.string({ required: true }),
      lang: t.arg.string(),
      data: t.arg({ type: 'JSON' }),
      default: t.arg.boolean(),
      category: t.arg.string(),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.labels.save(project_id, (await ctx.principal())!.userId, definedArgs(input, ['category'])),
  }),
  makeLabelDefault: t.field({
    type: Label,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), lang: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.labels.makeDefault(args.project_id, args.lang),
  }),
  deleteLabel: t.field({
    type: Label,
    nullable: false,
    description: 'Deletes a language; the default language cannot be deleted.',
    args: { project_id: t.arg.string({ required: true }), lang: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.labels.remove(args.project_id, args.lang),
  }),
  deleteLabels: t.field({
    type: LabelsDeletedResult,
    nullable: false,
    description: 'Deletes every language of the project.',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.labels.removeAll(args.project_id),
  }),
  cloneDefaultLabel: t.field({
    type: Label,
    nullable: false,
    description: 'Copies a pre-translated language into the project.',
    args: { project_id: t.arg.string({ required: true }), lang: t.arg.string() },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.labels.cloneBuiltin(project_id, (await ctx.principal())!.userId, definedArgs(input)),
  }),
}));

export const routes: RestRoutes = {
  'Query.labels': { method: 'GET', path: '/:project_id/labels' },
  'Query.defaultLabels': { method: 'GET', path: '/:project_id/labels/default' },
  'Query.defaultLabel': { method: 'GET', path: '/:project_id/labels/default/:lang' },
  'Query.label': { method: 'GET', path: '/:project_id/labels/:lang' },
  'Mutation.saveLabel': { method: 'POST', path: '/:project_id/labels' },
  'Mutation.cloneDefaultLabel': { method: 'POST', path: '/:project_id/labels/default/clone' },
  'Mutation.makeLabelDefault': { method: 'PATCH', path: '/:project_id/labels/:lang/default' },
  'Mutation.deleteLabels': { method: 'DELETE', path: '/:project_id/labels' },
  'Mutation.deleteLabel': { method: 'DELETE', path: '/:project_id/labels/:lang' },
};
