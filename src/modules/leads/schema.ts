import type { ArgBuilder } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import { recordFields, type Types } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { LeadPage as LeadPageShape, LeadRecord } from './service.js';
import { Segment } from '../segments/schema.js';

export const Lead = builder.objectRef<LeadRecord>('Lead').implement({
  description: 'A contact: the person behind requests.',
  fields: (t) => ({
    ...recordFields(t),
    id_project: t.exposeString('id_project', { nullable: false }),
    lead_id: t.exposeString('lead_id', { description: 'External identifier, unique in the project.' }),
    email: t.exposeString('email'),
    fullname: t.exposeString('fullname'),
    phone: t.exposeString('phone'),
    company: t.exposeString('company'),
    note: t.exposeString('note'),
    streetAddress: t.exposeString('streetAddress'),
    city: t.exposeString('city'),
    region: t.exposeString('region'),
    zipcode: t.exposeString('zipcode'),
    country: t.exposeString('country'),
    tags: t.exposeStringList('tags', { nullable: false }),
    attributes: t.field({ type: 'JSON', resolve: (l) => l.attributes }),
    createdBy: t.exposeString('createdBy'),
  }),
});

export const LeadPage = builder.objectRef<LeadPageShape>('LeadPage').implement({
  fields: (t) => ({
    perPage: t.exposeInt('perPage', { nullable: false, description: 'The page size used.' }),
    count: t.exposeInt('count', { nullable: false, description: 'Leads matching, over all pages.' }),
    leads: t.field({ type: [Lead], nullable: false, resolve: (p) => p.leads }),
  }),
});

/** Paging and sorting arguments of every lead list. */
export const leadPageArgs = (arg: ArgBuilder<Types>) => ({
  sortField: arg.string({ description: '`createdAt` (default), `updatedAt`, `fullname`, `email`, `lead_id` or `company`.' }),
  direction: arg.int({ description: '1 ascending, -1 descending (default).' }),
  page: arg.int({ description: '0 is the first page (default).' }),
  limit: arg.int({ description: 'Page size, 40 by default, at most 100.' }),
});

builder.queryFields((t) => ({
  leadExport: t.field({
    type: 'JSON',
    nullable: false,
    description: 'Everything held about a lead (admins and owners): the lead, their conversations, messages, file records, learned phrasings and feedback. Audited as `lead.export`.',
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: (_root, args, ctx) => ctx.services.leadPrivacy.export(args.project_id, args.id),
  }),
}));

builder.queryFields((t) => ({
  leads: t.field({
    type: LeadPage,
    nullable: false,
    args: {
      project_id: t.arg.string({ required: true }),
      ...leadPageArgs(t.arg),
      email: t.arg.string({ description: 'The beginning of the e-mail (or all of it), any case.' }),
      full_text: t.arg.string({ description: 'Words that must each begin a word of the name, e-mail or company.' }),
      tags: t.arg.stringList({ description: 'Tags a lead must all carry; repeated or comma-separated.' }),
      segment: t.arg.string({ description: 'A segment id: only the leads it matches.' }),
    },
    authScopes: minRole('agent'),
    resolve: (_root, { project_id, ...query }, ctx) => ctx.services.leads.list(project_id, definedArgs(query)),
  }),
  lead: t.field({
    type: Lead,
    nullable: false,
    args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: (_root, args, ctx) => ctx.services.leads.get(args.project_id, args.id),
  }),
}));

builder.mutationFields((t) => {
  const contactArgs = () => ({
    email: t.arg.string(),
    fullname: t.arg.string(),
    phone: t.arg.string(),
    company: t.arg.string(),
    note: t.arg.string(),
    streetAddress: t.arg.string(),
    city: t.arg.string(),
    region: t.arg.string(),
    zipcode: t.arg.string(),
    country: t.arg.string(),
    tags: t.arg.stringList(),
    attributes: t.arg({ type: 'JSON', description: 'Replaces the custom attributes.' }),
  });
  // An explicit null (or empty string) clears a contact field.
  const clearable = ['email', 'fullname', 'phone', 'company', 'note', 'streetAddress', 'city', 'region', 'zipcode', 'country'];
  return {
    createLead: t.field({
      type: Lead,
      nullable: false,
      description: 'With a lead_id the project already has, that lead is updated instead.',
      args: { project_id: t.arg.string({ required: true }), lead_id: t.arg.string(), ...contactArgs() },
      authScopes: minRole('agent'),
      resolve: async (_root, { project_id, ...input }, ctx) =>
        ctx.services.leads.create(project_id, (await ctx.principal())!.userId, definedArgs(input)),
    }),
    updateLead: t.field({
      type: Lead,
      nullable: false,
      args: { project_id: t.arg.string({ required: true }), id: t.arg.string({ required: true }), ...contactArgs() },
      authScopes: minRole('agent'),
      resolve: (_root, { project_id, id, ...input }, ctx) =>
        ctx.services.leads.update(project_id, id, definedArgs(input, clearable)),
    }),
    deleteLead: t.field({
      type: Lead,
      nullable: false,
      description:
        'With `erase: true` (admins and owners): a privacy erasure, removing the lead\'s conversations, messages, files and learned phrasings too (audited as `lead.erase`).',
      args: {
        project_id: t.arg.string({ required: true }),
        id: t.arg.string({ required: true }),
        erase: t.arg.boolean({ description: 'Erase everything held about the lead (admin or above).' }),
      },
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) => {
        if (!args.erase) return ctx.services.leads.remove(args.project_id, args.id);
        await ctx.requireRole(args.project_id, 'admin');
        return (await ctx.services.leadPrivacy.erase(args.project_id, args.id)).lead;
      },
    }),
  };
});

// A segment's leads: a field of Segment (src/modules/segments), answered here, by the leads.
builder.objectField(Segment, 'leads', (t) =>
  t.field({
    type: LeadPage,
    nullable: false,
    description: 'The leads the segment matches now, a page at a time. Not part of REST segment bodies: use GET /leads?segment=<id>.',
    args: leadPageArgs(t.arg),
    resolve: (segment, query, ctx) => ctx.services.leads.list(segment.id_project, definedArgs(query), segment),
  }),
);

export const routes: RestRoutes = {
  'Query.leads': { method: 'GET', path: '/:project_id/leads' },
  'Query.lead': { method: 'GET', path: '/:project_id/leads/:id' },
  'Mutation.createLead': { method: 'POST', path: '/:project_id/leads' },
  'Mutation.updateLead': { method: 'PUT', path: '/:project_id/leads/:id' },
  'Mutation.deleteLead': { method: 'DELETE', path: '/:project_id/leads/:id', queryToo: ['erase'] },
  'Query.leadExport': { method: 'GET', path: '/:project_id/leads/:id/export' },
};
