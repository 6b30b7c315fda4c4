import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import { defaultOfflineMessage, defaultOnlineMessage, type DepartmentRecord } from './service.js';

interface GroupShare {
  id_group: string;
  percentage: number;
}

const DepartmentGroup = builder.objectRef<GroupShare>('DepartmentGroup').implement({
  description: 'A group and the share of the department\'s requests it receives.',
  fields: (t) => ({
    id_group: t.exposeString('id_group', { nullable: false }),
    percentage: t.exposeFloat('percentage', { nullable: false }),
  }),
});

const DepartmentGroupInput = builder.inputType('DepartmentGroupInput', {
  fields: (t) => ({
    id_group: t.string(),
    percentage: t.float({ description: '0 to 100; the shares of a department add up to at most 100.' }),
  }),
});

export const Department = builder.objectRef<DepartmentRecord>('Department').implement({
  description: 'Routes requests to teammates: everyone available, one group, or groups by percentage.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    name: t.exposeString('name', { nullable: false }),
    routing: t.exposeString('routing', { description: '`assigned`, `pooled`, or null (set so by the client; routes as pooled).' }),
    id_group: t.exposeString('id_group'),
    id_bot: t.exposeString('id_bot'),
    groups: t.field({
      type: [DepartmentGroup],
      nullable: false,
      resolve: (d) => d.groups as unknown as GroupShare[],
    }),
    default: t.exposeBoolean('default', { nullable: false }),
    status: t.exposeInt('status', { nullable: false, description: '1 visible, 0 invisible.' }),
    online_msg: t.string({
      nullable: false,
      description: `Shown while the department's teammates are available; \`${defaultOnlineMessage}\` unless set.`,
      resolve: (d) => d.online_msg ?? defaultOnlineMessage,
    }),
    offline_msg: t.string({
      nullable: false,
      description: `Shown while nobody is available; \`${defaultOfflineMessage}\` unless set.`,
      resolve: (d) => d.offline_msg ?? defaultOfflineMessage,
    }),
    attributes: t.field({ type: 'JSON', resolve: (d) => d.attributes }),
    createdBy: t.exposeString('createdBy'),
  }),
});

builder.queryFields((t) => ({
  departments: t.field({
    type: [Department],
    nullable: false,
    description: 'The visible departments (status 1). Guests may read them: the widget offers them to visitors.',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('guest'),
    resolve: (_root, args, ctx) => ctx.services.departments.list(args.project_id, { visibleOnly: true }),
  }),
  // REST matches param paths in field order, which is alphabetical: this name sorts before
  // `department`, so /departments/allstatus is not read as a department id.
  allDepartments: t.field({
    type: [Department],
    nullable: false,
    description: 'Every department, visible or not.',
    args: { project_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.departments.list(args.project_id, { visibleOnly: false }),
  }),
  department: t.field({
    type: Department,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      id: t.arg.string({ required: true, description: 'A department id, or `default` for the default department.' }),
    },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.departments.get(args.project_id, args.id),
  }),
}));

builder.mutationFields((t) => {
  const departmentArgs = () => ({
    project_id: t.arg.string({ required: true }),
    name: t.arg.string(),
    routing: t.arg.string({ description: '`assigned` or `pooled` (default when absent); null is kept and routes as pooled.' }),
    id_group: t.arg.string({ description: 'Without it, requests go to every available teammate.' }),
    id_bot: t.arg.string(),
    groups: t.arg({ type: [DepartmentGroupInput] }),
    status: t.arg.int(),
    online_msg: t.arg.string(),
    offline_msg: t.arg.string(),
    attributes: t.arg({ type: 'JSON' }),
  });
  // An explicit null clears these (REST too: see `keepsNull` below); elsewhere null means "not given".
  const clearable = ['routing', 'id_group', 'id_bot', 'online_msg', 'offline_msg'];
  return {
    createDepartment: t.field({
      type: Department,
      nullable: false,
      args: departmentArgs(),
      authScopes: minRole('admin'),
      resolve: async (_root, { project_id, ...input }, ctx) =>
        ctx.services.departments.create(project_id, (await ctx.principal())!.userId, definedArgs(input, clearable)),
    }),
    replaceDepartment: t.field({
      type: Department,
      nullable: false,
      description: 'Replaces the department: fields left out return to their defaults.',
      args: { ...departmentArgs(), id: t.arg.string({ required: true }) },
      authScopes: minRole('admin'),
      resolve: (_root, { project_id, id, ...input }, ctx) =>
        ctx.services.departments.replace(project_id, id, definedArgs(input, clearable)),
    }),
    updateDepartment: t.field({
      type: Department,
      nullable: false,
      description: 'Changes only the fields given; null clears routing, id_group, id_bot, online_msg and offline_msg (the messages return to their defaults).',
      args: { ...departmentArgs(), id: t.arg.string({ required: true }) },
      authScopes: minRole('admin'),
      resolve: (_root, { project_id, id, ...input }, ctx) =>
        ctx.services.departments.update(project_id, id, definedArgs(input, clearable)),
    }),
    deleteDepartment: t.field({
      type: Department,
      nullable: false,
      description: 'The default department cannot be deleted.',
      args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
      authScopes: minRole('admin'),
      resolve: (_root, args, ctx) => ctx.services.departments.remove(args.project_id, args.id),
    }),
  };
});

const keepsNull = ['routing', 'id_group', 'id_bot', 'online_msg', 'offline_msg'];

export const routes: RestRoutes = {
  'Query.departments': { method: 'GET', path: '/:project_id/departments' },
  'Query.allDepartments': { method: 'GET', path: '/:project_id/departments/allstatus' },
  'Query.department': { method: 'GET', path: '/:project_id/departments/:id' },
  'Mutation.createDepartment': { method: 'POST', path: '/:project_id/departments', keepsNull },
  'Mutation.replaceDepartment': { method: 'PUT', path: '/:project_id/departments/:id', keepsNull },
  'Mutation.updateDepartment': { method: 'PATCH', path: '/:project_id/departments/:id', keepsNull },
  'Mutation.deleteDepartment': { method: 'DELETE', path: '/:project_id/departments/:id' },
};
