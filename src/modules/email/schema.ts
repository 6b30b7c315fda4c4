import { builder } from '../../graphql/builder.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { definedArgs } from '../../graphql/args.js';

const EmailQueued = builder.objectRef<{ queued: boolean }>('EmailQueued').implement({
  description: 'The message is queued: it is sent (with retries) by the job queue.',
  fields: (t) => ({ queued: t.exposeBoolean('queued', { nullable: false }) }),
});

builder.mutationField('sendInternalEmail', (t) =>
  t.field({
    type: EmailQueued,
    nullable: false,
    description:
      'Sends an e-mail from the project. `to` is an address, `@` and a role (`@admins`: owners and admins; `@agents`: ' +
      'every agent and above) or the name of a group of the project (its members). Limited per project (429).',
    args: {
      project_id: t.arg.string({ required: true }),
      to: t.arg.string(),
      subject: t.arg.string(),
      text: t.arg.string(),
      request_id: t.arg.string({ description: 'The conversation the message is about (named in it).' }),
      replyto: t.arg.string({ description: 'Reply-To address; the sender\'s e-mail when absent.' }),
    },
    authScopes: minRole('agent'),
    resolve: async (_root, { project_id, ...input }, ctx) =>
      ctx.services.email.internal.send(project_id, (await ctx.teammate(project_id))!, definedArgs(input)),
  }),
);

export const routes: RestRoutes = {
  'Mutation.sendInternalEmail': { method: 'POST', path: '/:project_id/emails/internal/send' },
};
