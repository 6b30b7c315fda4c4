import { builder, type RestRoutes } from '../../graphql/record.js';
import { minRole } from '../../graphql/scopes.js';
import { memberOf } from '../requests/actor.js';
import type { SuggestedReply, Suggestions } from './service.js';

const SuggestedReplyType = builder.objectRef<SuggestedReply>('SuggestedReply').implement({
  description: 'A reply an agent may send, with where it comes from.',
  fields: (t) => ({
    text: t.exposeString('text', { nullable: false }),
    source: t.exposeString('source', {
      nullable: false,
      description: '`kb` (the passage of the knowledge base that answers), `history` (what an agent answered to a similar question in a closed conversation), `canned` or `model`.',
    }),
    ref: t.exposeString('ref', { description: 'The content id (kb), the request it was learned from (history) or the canned response id.' }),
    score: t.exposeFloat('score', { nullable: false, description: 'How well it fits, 0 to 1; replies of every source are ranked by it together.' }),
  }),
});

const TagSuggestion = builder.objectRef<{ tag: string; score: number }>('TagSuggestion').implement({
  description: 'A tag agents put on similar closed conversations, with the share of their votes.',
  fields: (t) => ({
    tag: t.exposeString('tag', { nullable: false }),
    score: t.exposeFloat('score', { nullable: false }),
  }),
});

const SuggestionsType = builder.objectRef<Suggestions>('RequestSuggestions').implement({
  description: "The assistant's suggestions for a request's latest visitor messages, and its triage.",
  fields: (t) => ({
    request_id: t.exposeString('request_id', { nullable: false }),
    question: t.exposeString('question', { nullable: false, description: "The visitor's words the replies answer (empty: none yet)." }),
    replies: t.field({ type: [SuggestedReplyType], nullable: false, description: 'At most 3, best first.', resolve: (s) => s.replies }),
    tags: t.field({ type: [TagSuggestion], nullable: false, description: 'At most 3, best first.', resolve: (s) => s.tags }),
    language: t.exposeString('language', { description: "ISO 639-1 code of the visitor's first message, or null when it cannot be told." }),
    sentiment: t.exposeString('sentiment', { nullable: false, description: '`angry`, `negative`, `neutral` or `positive`.' }),
  }),
});

builder.queryFields((t) => ({
  requestSuggestions: t.field({
    type: SuggestionsType,
    nullable: false,
    description:
      "Suggested replies for the visitor's latest messages (knowledge base, the project's closed conversations, canned responses), suggested tags, language and sentiment.",
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: async (_root, args, ctx) => ctx.services.assistant.suggestions(args.project_id, await memberOf(ctx, args.project_id), args.request_id),
  }),
}));

export const routes: RestRoutes = {
  'Query.requestSuggestions': { method: 'GET', path: '/:project_id/requests/:request_id/suggestions' },
};
