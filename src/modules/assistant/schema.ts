import { builder } from '../../graphql/builder.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { memberOf } from '../requests/actor.js';
import type { DraftPiece } from './draft.js';
import type { SuggestedReply, Suggestions } from './service.js';
import type { SummaryRecord } from './summaries.js';
import { relationsFor } from '../requests/relations.js';
import { Request } from '../requests/schema.js';

const Citation = builder.objectRef<{ source: string; ref: string | null }>('SuggestionCitation').implement({
  description: 'A suggestion a drafted reply was written from.',
  fields: (t) => ({
    source: t.exposeString('source', { nullable: false }),
    ref: t.exposeString('ref'),
  }),
});

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
    cites: t.field({
      type: [Citation],
      nullable: false,
      description: 'For a `model` reply: the suggestions it was written from and cited; empty for the others.',
      resolve: (r) => r.cites ?? [],
    }),
  }),
});

const DraftPieceType = builder.objectRef<DraftPiece>('SuggestionDraftPiece').implement({
  description: 'A piece of a model-drafted reply: `delta` to append, then one piece with `done` and the whole `reply` (null: no draft).',
  fields: (t) => ({
    delta: t.string({ resolve: (p) => p.delta ?? null }),
    done: t.boolean({ nullable: false, resolve: (p) => p.delta === undefined }),
    reply: t.field({ type: SuggestedReplyType, nullable: true, resolve: (p) => p.reply ?? null }),
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

builder.subscriptionFields((t) => ({
  requestSuggestionDraft: t.field({
    type: DraftPieceType,
    nullable: false,
    description:
      "The configured chat model's reply for the request's latest visitor messages, as it is written, grounded in the suggestions of the other sources. Without a model (or sources) one piece: done, reply null.",
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    subscribe: async (_root, args, ctx) => {
      const pieces = ctx.services.assistant.draftStream(args.project_id, await memberOf(ctx, args.project_id), args.request_id);
      // The first piece is awaited here, so a request the caller cannot see is refused as the subscription starts.
      const first = await pieces.next();
      return (async function* () {
        if (!first.done) yield first.value;
        yield* pieces;
      })();
    },
    resolve: (piece: DraftPiece) => piece,
  }),
}));

const RequestSummary = builder.objectRef<SummaryRecord>('RequestSummary').implement({
  description: "The assistant's latest summary of a conversation.",
  fields: (t) => ({
    request_id: t.exposeString('request_id', { nullable: false }),
    summary: t.exposeString('summary', { nullable: false }),
    method: t.exposeString('method', { nullable: false, description: '`model` (written by the configured chat model) or `extractive`.' }),
    by: t.exposeString('by', { description: 'Who asked for it; null when it was made on a bot\'s hand-over.' }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: (s) => s.createdAt }),
  }),
});

builder.objectField(Request, 'summary', (t) =>
  t.field({
    type: RequestSummary,
    nullable: true,
    description: "The assistant's latest summary (POST .../summary, or made when a bot handed the conversation over), or null.",
    // Read with the request's other relations (one statement for an operation's requests, none for a post's).
    resolve: async (request, _args, ctx) => (await relationsFor(ctx, request))?.summary ?? null,
  }),
);

builder.queryFields((t) => ({
  requestSummary: t.field({
    type: RequestSummary,
    nullable: true,
    description: "The request's latest summary, or null when none was made.",
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: async (_root, args, ctx) => ctx.services.assistantSummaries.latest(args.project_id, await memberOf(ctx, args.project_id), args.request_id),
  }),
}));

builder.mutationFields((t) => ({
  summarizeRequest: t.field({
    type: RequestSummary,
    nullable: false,
    description:
      'Summarises the conversation now and stores it: with a chat model, what the visitor wants, what was tried and what is open; without one (or method `extractive`), the visitor\'s key sentences, the bot\'s last answer and the timeline.',
    args: {
      project_id: t.arg.string({ required: true }),
      request_id: t.arg.string({ required: true }),
      method: t.arg.string({ description: '`auto` (default: the model when one is configured) or `extractive`.' }),
    },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, request_id, method }, ctx) =>
      ctx.services.assistantSummaries.summarise(project_id, await memberOf(ctx, project_id), request_id, method ? { method } : {}),
  }),
}));

export const routes: RestRoutes = {
  'Query.requestSuggestions': { method: 'GET', path: '/:project_id/requests/:request_id/suggestions' },
  'Query.requestSummary': { method: 'GET', path: '/:project_id/requests/:request_id/summary' },
  'Mutation.summarizeRequest': { method: 'POST', path: '/:project_id/requests/:request_id/summary' },
};
