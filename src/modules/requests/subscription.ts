import type { Request as RequestRow } from '../../generated/prisma/client.js';
import { builder } from '../../graphql/builder.js';
import { minRole } from '../../graphql/scopes.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import { mapEvents, projectEvents } from '../../realtime/event-stream.js';
import { canSee, scopeFor, type Scope } from './access.js';
import { memberOf } from './actor.js';
import { Request } from './schema.js';
import { viewerOf } from './request-rows.js';

// Agent consoles follow a project's requests: creations, updates and closes of the requests the
// subscriber may see. A request that leaves their view (taken by someone else) comes once more,
// without its record, so the console can drop it. `request.seen` (a teammate marked a request
// read) goes only to that teammate's own subscriptions, with the request and its `unread` for them.

const requestEvents = new Set(['request.create', 'request.update', 'request.close', 'request.delete']);

/** Whether an event may change which requests the teammate `teammateId` sees. */
const changesScope = (event: LoggedEvent, teammateId: string) =>
  ((event.name === 'project_user.update' || event.name === 'project_user.delete') && event.subject === teammateId) ||
  /^(department|group)\./.test(event.name);

interface RequestEventShape {
  event: LoggedEvent;
  request: RequestRow | null;
}

const RequestEvent = builder.objectRef<RequestEventShape>('RequestEvent').implement({
  description: 'Pass the last `seq` you saw as `after` to resume without a gap.',
  fields: (t) => ({
    seq: t.int({ nullable: false, resolve: ({ event }) => event.seq }),
    name: t.string({
      nullable: false,
      description: 'request.create, request.update, request.close, request.delete, or request.seen (the subscriber marked the request read elsewhere)', resolve: ({ event }) => event.name }),
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
      const { infra, requests } = ctx.services;
      const db = infra.database.prisma;
      const events = projectEvents(infra, args.project_id, args.after);
      const member = await memberOf(ctx, args.project_id);
      let scope: Scope | null = await scopeFor(db, args.project_id, viewerOf(member));
      // What the subscriber sees follows its role, departments and groups: read again (not from a
      // cache), in the order of the events, when one of them changes. A teammate no longer active
      // sees nothing more (and the subscription ends: realtime/live-access.ts).
      const rescope = async () => {
        const current = await db.projectUser.findUnique({ where: { id: member.id }, include: { user: true } });
        const active = current && !current.trashed && current.status === 'active';
        scope = active ? await scopeFor(db, args.project_id, viewerOf(current)) : null;
      };
      const stream = events.stream(
        (event) =>
          requestEvents.has(event.name) ||
          (event.name === 'request.seen' && event.payload.id_user === member.id_user) ||
          changesScope(event, member.id),
      );
      const shown = new Set<string>();
      return mapEvents<RequestEventShape>(stream, async (event) => {
        if (event.name === 'request.seen') {
          const request = await requests.fromEvent(event);
          return request && scope && canSee(scope, request) ? { event, request } : undefined;
        }
        if (!requestEvents.has(event.name)) {
          await rescope();
          return undefined;
        }
        const request = event.name === 'request.delete' ? null : await requests.fromEvent(event);
        const visible = !!request && !!scope && canSee(scope, request);
        if (visible) shown.add(event.subject);
        else if (!shown.delete(event.subject)) return undefined;
        return { event, request: visible ? request : null };
      });
    },
    resolve: (shape: RequestEventShape) => shape,
  }),
);
