import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';
import type { Context } from '../../context.js';
import type { ProposalView } from './proposals.js';

// The knowledge loop's fields (proposals.ts): agents read the gaps, admins decide, since accepting
// publishes content every visitor is answered from (the role that creates knowledge-base content).

const actorId = async (ctx: Context) => (await ctx.principal())!.userId;

const KbProposal = builder.objectRef<ProposalView>('KbProposal').implement({
  description:
    'A question the knowledge base could not answer and agents did, in closed conversations: similar visitor questions grouped, with the answer agents gave most often.',
  fields: (t) => ({
    ...recordFields(t),
    namespace: t.exposeString('namespace', { nullable: false, description: 'The knowledge base that could not answer (accepting adds the FAQ there by default).' }),
    question: t.exposeString('question', { nullable: false, description: 'The first visitor question of the cluster on one line, or as an admin edited it.' }),
    answer: t.exposeString('answer', { nullable: false, description: "The agents' answer given most often, or as an admin edited it." }),
    count: t.exposeInt('count', { nullable: false, description: 'How many closed conversations asked it.' }),
    examples: t.exposeStringList('examples', { nullable: false, description: "Visitors' questions of the cluster, newest first (at most 5)." }),
    request_ids: t.exposeStringList('request_ids', { nullable: false, description: 'The conversations it was learned from, newest first (at most 5).' }),
    status: t.exposeString('status', { nullable: false, description: '`open`, `accepted` or `dismissed`.' }),
    edited: t.exposeBoolean('edited', { nullable: false }),
    content_id: t.exposeString('content_id', { description: 'The FAQ content it became (accepted).' }),
    decidedBy: t.exposeString('decidedBy'),
    decidedAt: t.field({ type: 'DateTime', resolve: (p) => p.decidedAt }),
  }),
});

builder.queryFields((t) => ({
  kbProposals: t.field({
    type: [KbProposal],
    nullable: false,
    description: 'The knowledge gaps of the project, the most asked first.',
    args: {
      project_id: t.arg.string({ required: true }),
      status: t.arg.string({ description: '`open` (default), `accepted` or `dismissed`.' }),
      namespace: t.arg.string({ description: 'Only the proposals of this knowledge base.' }),
      limit: t.arg.int({ description: '1 to 100, default 20.' }),
    },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, ...input }, ctx) => ctx.services.proposals.list(project_id, await actorId(ctx), definedArgs(input)),
  }),
}));

builder.mutationFields((t) => ({
  acceptKbProposal: t.field({
    type: KbProposal,
    nullable: false,
    description:
      'Makes an open proposal FAQ content (its question, or `question`, on the first line; its answer, or `answer`, below) of its knowledge base (or `namespace`), queued for indexing.',
    args: {
      project_id: t.arg.string({ required: true }),
      proposal_id: t.arg.string({ required: true }),
      question: t.arg.string(),
      answer: t.arg.string(),
      namespace: t.arg.string(),
    },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, proposal_id, ...input }, ctx) =>
      ctx.services.proposals.accept(project_id, await actorId(ctx), proposal_id, definedArgs(input)),
  }),
  updateKbProposal: t.field({
    type: KbProposal,
    nullable: false,
    description: "Edits an open proposal's question or answer.",
    args: {
      project_id: t.arg.string({ required: true }),
      proposal_id: t.arg.string({ required: true }),
      question: t.arg.string(),
      answer: t.arg.string(),
    },
    authScopes: minRole('admin'),
    resolve: (_root, { project_id, proposal_id, ...input }, ctx) => ctx.services.proposals.edit(project_id, proposal_id, definedArgs(input)),
  }),
  dismissKbProposal: t.field({
    type: KbProposal,
    nullable: false,
    description: 'Dismisses an open proposal; later conversations asking the same stay with it, out of the open list.',
    args: { project_id: t.arg.string({ required: true }), proposal_id: t.arg.string({ required: true }) },
    authScopes: minRole('admin'),
    resolve: async (_root, { project_id, proposal_id }, ctx) => ctx.services.proposals.dismiss(project_id, await actorId(ctx), proposal_id),
  }),
}));

export const routes: RestRoutes = {
  'Query.kbProposals': { method: 'GET', path: '/:project_id/kb/proposals' },
  'Mutation.acceptKbProposal': { method: 'POST', path: '/:project_id/kb/proposals/:proposal_id/accept' },
  'Mutation.updateKbProposal': { method: 'PATCH', path: '/:project_id/kb/proposals/:proposal_id' },
  'Mutation.dismissKbProposal': { method: 'POST', path: '/:project_id/kb/proposals/:proposal_id/dismiss' },
};
