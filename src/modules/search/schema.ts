import { builder } from '../../graphql/builder.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import { restView } from '../../rest/selection.js';
import { Lead } from '../leads/schema.js';
import { Message } from '../messages/schema.js';
import { memberOf } from '../requests/actor.js';
import { Request } from '../requests/schema.js';
import type { SearchResults as Results } from './service.js';

const SearchResults = builder.objectRef<Results>('SearchResults').implement({
  description: 'What matches every word of the search (each word as a prefix), best first, within what the caller may see.',
  fields: (t) => ({
    requests: t.field({
      type: [Request],
      nullable: false,
      description: 'By first text, tags, ticket number and the lead\'s name and e-mail (English stems).',
      // As in a list page, REST shows each request's department by its identifier.
      extensions: restView({ asIds: { department: 'department_id' } }),
      resolve: (r) => r.requests,
    }),
    messages: t.field({
      type: [Message],
      nullable: false,
      description: 'By text (English stems); `recipient` names the request, `request` is the request itself.',
      resolve: (r) => r.messages,
    }),
    leads: t.field({
      type: [Lead],
      nullable: false,
      description: 'By the words of name, e-mail and company.',
      resolve: (r) => r.leads,
    }),
  }),
});

builder.queryFields((t) => ({
  search: t.field({
    type: SearchResults,
    nullable: false,
    description: 'Requests, messages and leads of the project matching `q` (ranked; "refun" finds "refunds").',
    args: {
      project_id: t.arg.string({ required: true }),
      // Checked by the service (400 naming q), after the role: a call without it is still refused first.
      q: t.arg.string({ description: 'Words (1 to 200 characters, required); every one must match, each as a prefix.' }),
      limit: t.arg.int({ description: 'Results of each kind, 1 to 50, default 10.' }),
    },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.search.search(project_id, await memberOf(ctx, project_id), definedArgs(input)),
  }),
}));

export const routes: RestRoutes = {
  'Query.search': { method: 'GET', path: '/:project_id/search' },
};
