import type { Request as RequestRow } from '../../generated/prisma/client.js';
import { builder } from '../../graphql/record.js';
import { minRole } from '../../graphql/scopes.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import { projectEventStream } from '../../realtime/event-stream.js';
import { canSee, scopeFor } from './access.js';
import { memberOf } from './actor.js';
import { Request } from './schema.js';
import { viewerOf } from './store.js';

// Agent consoles follow a project's requests: creations, updates and closes of the requests the
// subscriber may see. A request that leaves their view (taken by someone else) comes once more,
// without its record, so the console can drop it.

const requestEvents = new Set(['request.create', 'request.update', 'request.close', 'request.delete']);

interface RequestEventShape {
  event: LoggedEvent;
  request: RequestRow | null;
}

const RequestEvent = builder.objectRef<RequestEventShape>('RequestEvent').implement({
  description: 'Pass the last `seq` you saw as `after` to resume without a gap.',
  fields: (t) => ({
    seq: t.int({ nullable: false, resolve: ({ event }) => event.seq }),
    name: t.string({ nullable: false, description: 'request.create, request.update, request.close or request.delete', resolve: ({ event }) => event.name }),
    request_id: t.string({ resolve: ({ event }) => (event.payload.request_id as string | undefined) ?? null }),
    request: t.field({
      type: Request,
      description: 'Null when the request is gone or no longer visible to the subscriber.',
      resolve: ({ request }) => request,
    }),
  }),
});

builder.subscriptionField('projectRequests', (t) =>
  t.field({
    type: RequestEvent,
    nullable: false,
    description: 'New and updated requests of the project that the subscriber may see.',
    args: { project_id: t.arg.string({ required: true }), after: t.arg.int() },
    authScopes: minRole('agent'),
    subscribe: async (_root, args, ctx) => {
      const member = await memberOf(ctx, args.project_id);
      const { infra, requests } = ctx.services;
      const scope = await scopeFor(infra.database.prisma, args.project_id, viewerOf(member));
      const stream = projectEventStream(
        { db: infra.database.prisma, bus: infra.bus, eventLog: infra.eventLog },
        args.project_id,
        args.after,
        (event) => requestEvents.has(event.name),
      );
      const shown = new Set<string>();
      return (async function* () {
        for await (const event of stream) {
          const request = event.name === 'request.delete' ? null : await requests.fromEvent(event);
          const visible = !!request && canSee(scope, request);
          if (visible) shown.add(event.subject);
          else if (!shown.delete(event.subject)) continue;
          yield { event, request: visible ? request : null };
        }
      })();
    },
    resolve: (shape: RequestEventShape) => shape,
  }),
);
