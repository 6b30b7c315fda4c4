import type { Request as RequestRow } from '../../generated/prisma/client.js';
import { definedArgs } from '../../graphql/args.js';
import { builder } from '../../graphql/builder.js';
import { recordFields } from '../../graphql/record-fields.js';
import type { RestRoutes } from '../../rest/route-config.js';
import { minRole } from '../../graphql/scopes.js';
import { Teammate } from '../teammates/schema.js';
import { readsNotes } from './access.js';
import { actorOf, memberOf } from './actor.js';
import type { RequestPage as Page } from './list.js';
import type { TimelineEntry as Entry } from './timeline.js';
import { botParticipants, humanParticipants } from './participants.js';
import { departmentsOf } from './loaders.js';
import { relationsFor } from './relations.js';
import { Department } from '../departments/schema.js';
import { Lead } from '../leads/schema.js';
import { restView } from '../../rest/selection.js';
import { perContext } from '../../context.js';
import { batched } from './relations.js';
import { hasUnread } from './seen.js';
import { parseUserAgent, type Software } from './user-agent.js';

/** A request as a field returns it. */
export type RequestView = RequestRow;

interface Note {
  _id: string;
  text: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Unread counts of the caller, keyed `<projectId> <request_id>`: one statement per project for an operation's requests. */
const unreadOf = perContext((ctx) =>
  batched<number>(
    async (keys) => {
      const byProject = new Map<string, string[]>();
      for (const key of keys) {
        const [projectId, requestId] = key.split(' ');
        byProject.set(projectId, [...(byProject.get(projectId) ?? []), requestId]);
      }
      const found = new Map<string, number>();
      for (const [projectId, requestIds] of byProject) {
        const member = await ctx.teammate(projectId);
        if (!hasUnread(member)) continue;
        const counts = await ctx.services.seen.unread(projectId, member.id_user, requestIds);
        for (const [requestId, count] of counts) found.set(`${projectId} ${requestId}`, count);
      }
      return found;
    },
    // A subscription's context lives on: each event counts again.
    { remember: false },
  ),
);

const notesOf = (r: RequestRow): Note[] => (Array.isArray(r.notes) ? (r.notes as unknown as Note[]) : []);

const RequestNote = builder.objectRef<Note>('RequestNote').implement({
  description: 'A note agents keep on a request; end users never read them.',
  fields: (t) => ({
    _id: t.exposeString('_id', { nullable: false }),
    text: t.exposeString('text'),
    createdBy: t.exposeString('createdBy', { description: 'The user id of the note\'s author.' }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: (n) => n.createdAt }),
    updatedAt: t.field({ type: 'DateTime', nullable: false, resolve: (n) => n.updatedAt }),
  }),
});

const SoftwareRef = builder.objectRef<Software>('Software').implement({
  description: 'A browser or operating system named by a user agent.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false }),
    version: t.exposeString('version'),
  }),
});

export const Request = builder.objectRef<RequestView>('Request').implement({
  description: 'A conversation or ticket. Status: TEMPORARY 50, UNSERVED 100, ABANDONED 150, SERVED 200, CLOSED 1000.',
  fields: (t) => ({
    ...recordFields(t),
    request_id: t.exposeString('request_id', { nullable: false }),
    id_project: t.exposeString('id_project', { nullable: false }),
    ticket_id: t.string({ nullable: false, description: 'Per-project ticket number.', resolve: (r) => String(r.ticket_id) }),
    first_text: t.exposeString('first_text'),
    status: t.exposeInt('status', { nullable: false }),
    department: t.field({
      type: Department,
      description: 'The department the request is routed through (REST list pages show its identifier).',
      resolve: async (r, _args, ctx) => {
        if (!r.departmentId) return null;
        const relations = await relationsFor(ctx, r);
        // A deleted request (the DELETE answer) has no relations row left; its department does.
        return relations ? relations.department : departmentsOf(ctx)(`${r.id_project} ${r.departmentId}`);
      },
    }),
    department_id: t.exposeString('departmentId', {
      description: 'The department\'s identifier (what REST list pages show as `department`).',
      extensions: restView({ omit: true }),
    }),
    lead: t.field({
      type: Lead,
      description: 'The contact behind the request.',
      resolve: async (r, _args, ctx) => (r.leadId ? ((await relationsFor(ctx, r))?.lead ?? null) : null),
    }),
    requester: t.field({
      type: Teammate,
      description: 'The teammate (project user) who opened the request.',
      resolve: async (r, _args, ctx) => (r.requester_id ? ((await relationsFor(ctx, r))?.requester ?? null) : null),
    }),
    requester_id: t.exposeString('requester_id'),
    participants: t.exposeStringList('participants', {
      nullable: false,
      description: 'User ids and `bot_<id>` of those taking part, in the order they joined.',
    }),
    participantsAgents: t.stringList({
      nullable: false,
      description: 'User ids of the human participants, in join order.',
      resolve: (r) => humanParticipants(r.participants),
    }),
    participantsBots: t.stringList({
      nullable: false,
      description: 'Bot ids (without `bot_`) of the bot participants, in join order.',
      resolve: (r) => botParticipants(r.participants),
    }),
    participatingAgents: t.exposeStringList('participatingAgents', { nullable: false }),
    participatingBots: t.exposeStringList('participatingBots', { nullable: false }),
    agents: t.field({
      type: [Teammate],
      nullable: false,
      description: 'The teammates serving the request.',
      resolve: async (r, _args, ctx) => (r.participatingAgents.length ? ((await relationsFor(ctx, r))?.agents ?? []) : []),
    }),
    hasBot: t.exposeBoolean('hasBot', { nullable: false }),
    sourcePage: t.exposeString('sourcePage'),
    language: t.exposeString('language'),
    userAgent: t.exposeString('userAgent'),
    browser: t.field({
      type: SoftwareRef,
      description: 'The browser `userAgent` names (e.g. {name: "Chrome", version: "120.0.0.0"}), null when unknown.',
      resolve: (r) => parseUserAgent(r.userAgent)?.browser ?? null,
    }),
    os: t.field({
      type: SoftwareRef,
      description: 'The operating system `userAgent` names (e.g. {name: "iOS", version: "17.2"}), null when unknown.',
      resolve: (r) => parseUserAgent(r.userAgent)?.os ?? null,
    }),
    device: t.string({
      description: 'The kind of device `userAgent` names: desktop, mobile, tablet, tv or bot; null when unknown.',
      resolve: (r) => parseUserAgent(r.userAgent)?.device ?? null,
    }),
    tags: t.field({ type: 'JSON', description: 'Array of {tag, color?}.', resolve: (r) => r.tags }),
    merged_into: t.exposeString('merged_into', {
      description: 'The request_id of the request this one was merged into (this one is then closed); null otherwise. A client of this conversation continues there.',
    }),
    notes: t.field({
      type: [RequestNote],
      nullable: false,
      description: 'Array of {_id, text, createdBy, createdAt, updatedAt}; empty for end users (users and guests).',
      resolve: async (r, _args, ctx) => (readsNotes(await ctx.teammate(r.id_project)) ? notesOf(r) : []),
    }),
    unread: t.int({
      description:
        'For a teammate (agent and up): messages from others since the caller last marked the request seen (`markRequestSeen`), all of them before that. Null for end users.',
      resolve: async (r, _args, ctx) => (hasUnread(await ctx.teammate(r.id_project)) ? unreadOf(ctx)(`${r.id_project} ${r.request_id}`) : null),
    }),
    rating: t.exposeFloat('rating', { description: 'The visitor\'s rating, a number from 0 to 5 (4.5 included).' }),
    rating_message: t.exposeString('rating_message'),
    waiting_time: t.exposeFloat('waiting_time', { description: 'Milliseconds from the first visitor message to the first agent message.' }),
    transcript: t.exposeString('transcript'),
    attributes: t.field({ type: 'JSON', resolve: (r) => r.attributes }),
    channel: t.field({ type: 'JSON', resolve: (r) => r.channel }),
    assigned_at: t.field({ type: 'DateTime', resolve: (r) => r.assigned_at }),
    first_response_at: t.field({ type: 'DateTime', resolve: (r) => r.first_response_at }),
    closed_at: t.field({ type: 'DateTime', resolve: (r) => r.closed_at }),
    closed_by: t.exposeString('closed_by'),
    createdBy: t.exposeString('createdBy'),
    preflight: t.exposeBoolean('preflight', { nullable: false }),
    priority: t.exposeString('priority', { nullable: false }),
    location: t.field({
      type: 'JSON',
      description:
        '{country, region, city, ll: [latitude, longitude]} of the address that opened the request (an offline GeoLite2 lookup; behind a proxy see TRUST_PROXY); null for a private or unknown address.',
      resolve: (r) => r.location,
    }),
    snapshot: t.field({ type: 'JSON', resolve: (r) => r.snapshot }),
    assignment_reason: t.exposeString('assignment_reason', {
      description: 'Why routing decided as it did: least_loaded, bot, pooled or no_agent_available.',
    }),
  }),
});

const TimelineEntry = builder.objectRef<Entry>('TimelineEntry').implement({
  description: 'One thing that happened to a conversation, from its event log, told as a sentence.',
  fields: (t) => ({
    seq: t.exposeInt('seq', { nullable: false, description: 'The event\'s per-project sequence number (an event may tell several entries).' }),
    name: t.exposeString('name', { nullable: false, description: 'The event: request.create, request.update or request.close.' }),
    at: t.field({ type: 'DateTime', nullable: false, resolve: (e) => e.at }),
    actor: t.exposeString('actor', { description: 'Who did it: a user id, `bot_<id>`, or null for the system.' }),
    actorName: t.exposeString('actorName', { description: 'The actor\'s name (a bot\'s name for a bot).' }),
    text: t.exposeString('text', {
      nullable: false,
      description: 'A sentence such as "Ann assigned the conversation to Bob", "Routed to Sales", "Closed by Ann", "Rated 4/5: great help", "Bot Ada joined".',
    }),
  }),
});

const RequestPage = builder.objectRef<Page>('RequestPage').implement({
  fields: (t) => ({
    perPage: t.exposeInt('perPage', { nullable: false }),
    count: t.exposeInt('count', { nullable: false }),
    requests: t.field({
      type: [Request],
      nullable: false,
      // REST list pages show each request's department by its identifier (the spec's list shape).
      extensions: restView({ asIds: { department: 'department_id' } }),
      resolve: (page) => page.requests,
    }),
  }),
});

builder.queryFields((t) => ({
  requests: t.field({
    type: RequestPage,
    nullable: false,
    description:
      'Requests the caller may see: admins all, agents those they take part in or opened plus unassigned ones of their departments, users and guests the ones they opened.',
    args: {
      project_id: t.arg.string({ required: true }),
      sortField: t.arg.string({
        description:
          'createdAt (default), updatedAt, ticket_id, status, priority (by rank: urgent, hight, normal, low), rating, waiting_time, assigned_at, first_response_at, closed_at, last_activity (the newest message) or waiting_since (the requester\'s oldest unanswered message; direction 1: longest waiting first, answered ones last).',
      }),
      direction: t.arg.int(),
      page: t.arg.int(),
      limit: t.arg.int(),
      full_text: t.arg.string(),
      status: t.arg.string({ description: '100, 150, 1000, `all`, or a comma list; default: below 1000.' }),
      start_date: t.arg.string({ description: 'DD/MM/YYYY' }),
      end_date: t.arg.string({ description: 'DD/MM/YYYY (inclusive)' }),
      ticket_id: t.arg.string({ description: 'A ticket number, 1 to 2147483647.' }),
      dept_id: t.arg.string(),
      lead: t.arg.string({ description: 'A lead id: that contact\'s conversations (with status=all, all of them).' }),
      assignee: t.arg.string({ description: 'A teammate\'s user id, `me` (the caller) or `none` (no human agent serves it).' }),
      hasBot: t.arg.boolean({ description: 'true: requests a chatbot takes part in; false: the others.' }),
      tags: t.arg.string({ description: 'A tag name or a comma list (any of them).' }),
      rating: t.arg.float({ description: 'The rating given, 0 to 5.' }),
      active_date: t.arg.string({ description: 'DD/MM/YYYY: conversations with at least one message that day (UTC).' }),
      priority: t.arg.stringList({ description: 'urgent, hight, normal or low; repeated or comma-separated (any of them).' }),
      channel: t.arg.string(),
      snap_lead_email: t.arg.string(),
      snap_lead_lead_id: t.arg.string(),
    },
    authScopes: minRole('guest'),
    resolve: async (_root, { project_id, ...query }, ctx) =>
      ctx.services.requests.list(project_id, await memberOf(ctx, project_id), definedArgs(query)),
  }),
  request: t.field({
    type: Request,
    nullable: false,
    description: 'One request the caller may see (see `requests`); another visitor\'s request is not found for an end user.',
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) },
    authScopes: minRole('guest'),
    resolve: async (_root, args, ctx) => ctx.services.requests.get(args.project_id, await memberOf(ctx, args.project_id), args.request_id),
  }),
  requestTimeline: t.field({
    type: [TimelineEntry],
    nullable: false,
    description:
      'What happened to the conversation, oldest first: opened, assigned, re-routed, bots joining, participants leaving, closed, reopened, rated, and the changes teammates made.',
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) },
    authScopes: minRole('agent'),
    resolve: async (_root, args, ctx) => ctx.services.requests.timeline(args.project_id, await memberOf(ctx, args.project_id), args.request_id),
  }),
  requestChatbotParameters: t.field({
    type: 'JSON',
    nullable: false,
    description: 'What bots stored on the request (attributes.chatbot_parameters), or an empty object.',
    args: { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) },
    authScopes: minRole('guest'),
    resolve: async (_root, args, ctx) =>
      ctx.services.requests.chatbotParameters(args.project_id, await memberOf(ctx, args.project_id), args.request_id),
  }),
}));

builder.mutationFields((t) => {
  const target = { project_id: t.arg.string({ required: true }), request_id: t.arg.string({ required: true }) };
  return {
    createRequest: t.field({
      type: Request,
      nullable: false,
      description: 'An empty conversation, e.g. for a mass import of its messages; `preflight` ones wait for a first message to be routed.',
      args: {
        project_id: t.arg.string({ required: true }),
        request_id: t.arg.string(),
        first_text: t.arg.string(),
        departmentid: t.arg.string(),
        language: t.arg.string(),
        sourcePage: t.arg.string(),
        userAgent: t.arg.string(),
        channel: t.arg({ type: 'JSON' }),
        attributes: t.arg({ type: 'JSON' }),
        priority: t.arg.string(),
        preflight: t.arg.boolean(),
        sender: t.arg.string({ description: 'Accepted and ignored: the caller opens the request.' }),
      },
      authScopes: minRole('guest'),
      resolve: async (_root, { project_id, sender: _sender, ...input }, ctx) =>
        ctx.services.requests.create(project_id, await memberOf(ctx, project_id), definedArgs(input), ctx.clientAddress),
    }),
    updateRequest: t.field({
      type: Request,
      nullable: false,
      description: 'Status moves through the state machine (illegal moves answer 409); attributes are merged.',
      args: {
        ...target,
        first_text: t.arg.string(),
        lead: t.arg.string(),
        status: t.arg.int(),
        tags: t.arg({ type: 'JSON' }),
        rating: t.arg.float(),
        rating_message: t.arg.string(),
        language: t.arg.string(),
        sourcePage: t.arg.string(),
        priority: t.arg.string(),
        attributes: t.arg({ type: 'JSON' }),
      },
      authScopes: minRole('agent', { botsInRequest: true }),
      resolve: async (_root, { project_id, request_id, ...input }, ctx) =>
        ctx.services.requests.update(project_id, await actorOf(ctx, project_id), request_id, definedArgs(input)),
    }),
    closeRequest: t.field({
      type: Request,
      nullable: false,
      description: 'The requester may close their own request.',
      args: target,
      authScopes: minRole('guest'),
      resolve: async (_root, args, ctx) =>
        ctx.services.requests.close(args.project_id, await memberOf(ctx, args.project_id), args.request_id),
    }),
    mergeRequests: t.field({
      type: Request,
      nullable: false,
      description:
        'Moves the messages (with their attachments), tags and notes of the requests named in `from` into this one, in time order; each of them closes with `merged_into` pointing here. One `request.merge` event.',
      args: { ...target, from: t.arg.stringList({ required: false, description: 'The request_ids to merge into this one (1 to 20; required: checked after the caller\'s role, so a stranger learns nothing of the input).' }) },
      authScopes: minRole('agent'),
      resolve: async (_root, { project_id, request_id, from }, ctx) =>
        ctx.services.requestMerge.merge(project_id, await memberOf(ctx, project_id), request_id, { from }),
    }),
    reopenRequest: t.field({
      type: Request,
      nullable: false,
      args: target,
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) =>
        ctx.services.requests.reopen(args.project_id, await memberOf(ctx, args.project_id), args.request_id),
    }),
    addRequestNote: t.field({
      type: Request,
      nullable: false,
      args: { ...target, text: t.arg.string() },
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) =>
        ctx.services.requests.addNote(args.project_id, await memberOf(ctx, args.project_id), args.request_id, args.text ?? undefined),
    }),
    removeRequestNote: t.field({
      type: Request,
      nullable: false,
      args: { ...target, note_id: t.arg.string() },
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) =>
        ctx.services.requests.removeNote(args.project_id, await memberOf(ctx, args.project_id), args.request_id, args.note_id ?? undefined),
    }),
    addRequestTags: t.field({
      type: Request,
      nullable: false,
      description: 'Adds `tag` (a name, or {tag, color}) and/or `tags` (an array of them); tags already there are kept.',
      args: { ...target, tag: t.arg({ type: 'JSON' }), color: t.arg.string(), tags: t.arg({ type: 'JSON' }) },
      authScopes: minRole('agent'),
      resolve: async (_root, { project_id, request_id, ...input }, ctx) =>
        ctx.services.requests.addTags(project_id, await memberOf(ctx, project_id), request_id, definedArgs(input)),
    }),
    removeRequestTag: t.field({
      type: Request,
      nullable: false,
      args: { ...target, tag: t.arg.string({ required: true }) },
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) =>
        ctx.services.requests.removeTag(args.project_id, await memberOf(ctx, args.project_id), args.request_id, args.tag),
    }),
    rateRequest: t.field({
      type: Request,
      nullable: false,
      description: 'Accepts `rate`/`rate_message` (field table) and `rating`/`rating_message` (sample); 0 to 5.',
      args: {
        ...target,
        rate: t.arg.float(),
        rate_message: t.arg.string(),
        rating: t.arg.float(),
        rating_message: t.arg.string(),
      },
      authScopes: minRole('guest'),
      resolve: async (_root, { project_id, request_id, ...input }, ctx) =>
        ctx.services.requests.rate(project_id, await memberOf(ctx, project_id), request_id, definedArgs(input)),
    }),
    markRequestSeen: t.field({
      type: Request,
      nullable: false,
      description:
        'Records that the caller has read the request up to now: its `unread` for them counts from here. The caller\'s other `projectRequests` subscriptions receive `request.seen` with the request.',
      args: target,
      authScopes: minRole('agent'),
      resolve: async (_root, args, ctx) =>
        ctx.services.seen.markSeen(args.project_id, await memberOf(ctx, args.project_id), args.request_id),
    }),
    deleteRequest: t.field({
      type: Request,
      nullable: false,
      description: 'Deletes the request and its messages.',
      args: target,
      authScopes: minRole('owner'),
      resolve: (_root, args, ctx) => ctx.services.requests.remove(args.project_id, args.request_id),
    }),
  };
});

export const routes: RestRoutes = {
  'Query.requests': { method: 'GET', path: '/:project_id/requests' },
  'Query.request': { method: 'GET', path: '/:project_id/requests/:request_id' },
  'Query.requestChatbotParameters': { method: 'GET', path: '/:project_id/requests/:request_id/chatbot/parameters' },
  'Query.requestTimeline': { method: 'GET', path: '/:project_id/requests/:request_id/timeline' },
  'Mutation.createRequest': { method: 'POST', path: '/:project_id/requests' },
  'Mutation.updateRequest': { method: 'PATCH', path: '/:project_id/requests/:request_id' },
  'Mutation.closeRequest': { method: 'PUT', path: '/:project_id/requests/:request_id/close' },
  'Mutation.mergeRequests': { method: 'POST', path: '/:project_id/requests/:request_id/merge' },
  'Mutation.reopenRequest': { method: 'PUT', path: '/:project_id/requests/:request_id/reopen' },
  'Mutation.addRequestNote': { method: 'POST', path: '/:project_id/requests/:request_id/notes' },
  'Mutation.removeRequestNote': { method: 'DELETE', path: '/:project_id/requests/:request_id/notes' },
  'Mutation.addRequestTags': { method: 'PUT', path: '/:project_id/requests/:request_id/tag' },
  'Mutation.removeRequestTag': { method: 'DELETE', path: '/:project_id/requests/:request_id/tag/:tag' },
  'Mutation.rateRequest': { method: 'PATCH', path: '/:project_id/requests/:request_id/rating' },
  'Mutation.markRequestSeen': { method: 'PUT', path: '/:project_id/requests/:request_id/seen' },
  'Mutation.deleteRequest': { method: 'DELETE', path: '/:project_id/requests/:request_id' },
};
