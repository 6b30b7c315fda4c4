import { builder } from '../../graphql/builder.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { AuditEntryRecord } from './service.js';

export const AuditEntry = builder.objectRef<AuditEntryRecord>('AuditEntry').implement({
  description: 'One change to a project, as its audit log keeps it: never changed or deleted through the API.',
  fields: (t) => ({
    _id: t.exposeString('id', { nullable: false }),
    id: t.exposeString('id', { nullable: false }),
    id_project: t.exposeString('id_project', { nullable: false }),
    action: t.exposeString('action', { nullable: false, description: 'The event name, e.g. `project.update`, `request.merge`, `lead.erase`.' }),
    target: t.exposeString('target', { nullable: false, description: 'Identifier of the record acted on.' }),
    targetType: t.exposeString('targetType', { nullable: false, description: 'Its kind: `project`, `project_user`, `api_key`, `subscription`, `request`, `lead`...' }),
    actor: t.field({
      type: AuditActor,
      nullable: false,
      resolve: (entry) => ({ kind: entry.actorKind, id: entry.actorId, name: entry.actorName }),
    }),
    address: t.exposeString('address', { description: 'The client address the change came from; null for background work.' }),
    before: t.field({ type: 'JSON', description: 'The changed fields before (settings, roles); null when not recorded.', resolve: (entry) => entry.before }),
    after: t.field({ type: 'JSON', description: 'The changed fields after.', resolve: (entry) => entry.after }),
    details: t.field({ type: 'JSON', nullable: false, description: 'What the event said (changed field names, counts).', resolve: (entry) => entry.details }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: (entry) => entry.createdAt }),
  }),
});

interface ActorShape {
  kind: string;
  id: string | null;
  name: string | null;
}

const AuditActor = builder.objectRef<ActorShape>('AuditActor').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { nullable: false, description: '`account`, `api_key`, `bot` or `system` (a background job).' }),
    id: t.exposeString('id', { description: 'The account\'s user id, the API key\'s or the bot\'s id; null for `system`.' }),
    name: t.exposeString('name', { description: 'The account\'s e-mail, or the key\'s or bot\'s name.' }),
  }),
});

builder.queryFields((t) => ({
  audit: t.field({
    type: [AuditEntry],
    nullable: false,
    description: 'The project\'s audit log (admins and owners), newest first.',
    args: {
      project_id: t.arg.string({ required: true }),
      actor: t.arg.string({ description: 'Only this actor\'s entries (user id, API key id or bot id).' }),
      actorKind: t.arg.string({ description: '`account`, `api_key`, `bot` or `system`.' }),
      action: t.arg.stringList({ description: 'Only these actions (event names); REST also takes them comma-separated.' }),
      target: t.arg.string({ description: 'Only entries about this record.' }),
      targetType: t.arg.string({ description: 'Only entries about this kind of record.' }),
      from: t.arg.string({ description: 'ISO-8601: entries at or after.' }),
      to: t.arg.string({ description: 'ISO-8601: entries at or before.' }),
      sortField: t.arg.string({ description: '`createdAt` (default) or `action`.' }),
      direction: t.arg.int({ description: '1 ascending, -1 descending (default).' }),
      page: t.arg.int({ description: '0 is the first page (default).' }),
      limit: t.arg.int({ description: 'Page size, 40 by default, at most 100.' }),
    },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, ...query }, ctx) => ctx.services.audit.list(project_id, definedArgs(query)),
  }),
  auditCount: t.field({
    type: 'Int',
    nullable: false,
    description: 'How many entries the same filters match.',
    args: {
      project_id: t.arg.string({ required: true }),
      actor: t.arg.string(),
      actorKind: t.arg.string(),
      action: t.arg.stringList(),
      target: t.arg.string(),
      targetType: t.arg.string(),
      from: t.arg.string(),
      to: t.arg.string(),
    },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, ...query }, ctx) => ctx.services.audit.count(project_id, definedArgs(query)),
  }),
}));

export const routes: RestRoutes = {
  'Query.audit': { method: 'GET', path: '/:project_id/audit' },
  'Query.auditCount': { method: 'GET', path: '/:project_id/audit/count' },
};
