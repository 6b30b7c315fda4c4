import type { Db } from '../../infra/database.js';
import type { LoggedEvent } from '../../infra/event-log.js';
import { type RecordRenderer, type RestRecord } from './render.js';
import { restRecord, type RecordView } from '../../rest/shape.js';
import { presenceEvent } from '../presence/service.js';
import { customEventPrefix, isCustomEventName, type DomainEventName, type WebhookEventName } from '../../events.js';

// The webhook event catalogue: the names a subscription may ask for and how each event's payload
// is rendered. A payload is the record the event is about, as REST returns it. Renderers batch:
// a burst of events of one name costs one query per table.
//
// Records with a GraphQL type go through it (`typed`); a record REST shows without one is shaped
// from its row with the same field names (`row`).
//
// Its names are the domain events marked `webhook` in src/events.ts: one left out here is a type
// error, not a webhook silently never sent.

export interface RenderTools {
  db: Db;
  records: RecordRenderer;
}

/** Renders the payloads of events that share a name, keyed by event id. */
export type Renderer = (events: LoggedEvent[], tools: RenderTools) => Promise<Map<string, RestRecord>>;

export interface CatalogueEntry {
  description: string;
  render: Renderer;
  /** The GraphQL types `render` renders records through: the payload's JSON Schema is made from them (event-schemas.ts). */
  types: readonly string[];
  /** Properties `render` adds to the record, with their JSON Schemas. */
  extra?: Record<string, Record<string, unknown>>;
}

type Row = { id: string } & Record<string, unknown>;
type Loader = (db: Db, projectId: string, ids: string[]) => Promise<Row[]>;

/** The record is gone (a hard delete): the receiver still learns which one. */
function identifiers(event: LoggedEvent): RestRecord {
  return { _id: event.subject, id: event.subject, id_project: event.projectId, deleted: true };
}

function byProject(events: LoggedEvent[]) {
  const groups = new Map<string, LoggedEvent[]>();
  for (const event of events) {
    const group = groups.get(event.projectId) ?? [];
    group.push(event);
    groups.set(event.projectId, group);
  }
  return groups;
}

/** Loads the subjects and renders each with `shape`; a missing row becomes its identifiers. */
function rendered(load: Loader, shape: (row: Row, tools: RenderTools) => Promise<RestRecord | null>): Renderer {
  return async (events, tools) => {
    const out = new Map<string, RestRecord>();
    for (const [projectId, group] of byProject(events)) {
      const rows = await load(tools.db, projectId, [...new Set(group.map((e) => e.subject))]);
      const found = new Map(rows.map((r) => [r.id, r]));
      for (const event of group) {
        const row = found.get(event.subject);
        out.set(event.id, (row && (await shape(row, tools))) || identifiers(event));
      }
    }
    return out;
  };
}

/** Through the module's GraphQL type, as its REST routes show it (from the row if the type is gone). */
const typed = (typeName: string, load: Loader): Renderer =>
  rendered(load, async (r, { records }) => (records.hasType(typeName) ? records.render(typeName, r) : (restRecord(r) as RestRecord)));

/** From the row, for records whose module has no GraphQL type yet. */
const row = (load: Loader, view: RecordView = {}): Renderer => rendered(load, async (r) => restRecord(r, view) as RestRecord);

const load = {
  teammates: ((db, projectId, ids) =>
    db.projectUser.findMany({ where: { id_project: projectId, id: { in: ids } }, include: { user: true } })) as Loader,
  invitations: ((db, projectId, ids) =>
    db.invitation.findMany({ where: { id_project: projectId, id: { in: ids } } })) as Loader,
  departments: ((db, projectId, ids) =>
    db.department.findMany({ where: { id_project: projectId, id: { in: ids } } })) as Loader,
  bots: ((db, projectId, ids) => db.bot.findMany({ where: { id_project: projectId, id: { in: ids } } })) as Loader,
  leads: ((db, projectId, ids) => db.lead.findMany({ where: { id_project: projectId, id: { in: ids } } })) as Loader,
  requests: ((db, projectId, ids) =>
    db.request.findMany({ where: { id_project: projectId, id: { in: ids } } })) as Loader,
  messages: ((db, projectId, ids) =>
    db.message.findMany({ where: { id_project: projectId, id: { in: ids } } })) as Loader,
  contents: ((db, projectId, ids) =>
    db.kbContent.findMany({ where: { id_project: projectId, id: { in: ids } } })) as Loader,
  customEvents: ((db, projectId, ids) =>
    db.customEvent.findMany({ where: { id_project: projectId, id: { in: ids } } })) as Loader,
  subscriptions: ((db, projectId, ids) =>
    db.subscription.findMany({ where: { id_project: projectId, id: { in: ids } } })) as Loader,
};

// A message (with the request it belongs to) and a request are rendered through their GraphQL
// types, as REST's GET shows them: a column never leaves unless the type exposes it.
const renderRequests = typed('Request', load.requests);
const renderMessages = typed('Message', load.messages);

/** project_user.invite names a pending invitation (payload.pending) or a teammate who joined (an invitee accepting, among others). */
const renderTeammates = typed('Teammate', load.teammates);
const renderInvitations = typed('PendingInvitation', load.invitations);
const renderTeammateInvites: Renderer = async (events, tools) => {
  const pending = events.filter((e) => e.payload.pending === true);
  const members = events.filter((e) => e.payload.pending !== true);
  return new Map([...(await renderInvitations(pending, tools)), ...(await renderTeammates(members, tools))]);
};

const renderDepartments = typed('Department', load.departments);
const renderBots = typed('Bot', load.bots);
const renderLeads = typed('Lead', load.leads);
const renderCustomEvents = typed('CustomEvent', load.customEvents);
const renderContents = typed('KbContent', load.contents);

/** The subscription, without its secrets, plus why it was disabled. */
const renderDisabledSubscriptions: Renderer = async (events, tools) => {
  const base = await typed('WebhookSubscription', load.subscriptions)(events, tools);
  for (const event of events) {
    const record = base.get(event.id);
    if (record) base.set(event.id, { ...record, reason: event.payload.reason ?? null });
  }
  return base;
};

/** The request, as REST shows it (with its `sla`), plus which target fired and its deadline. */
const renderSlaEvents: Renderer = async (events, tools) => {
  const base = await renderRequests(events, tools);
  for (const event of events) {
    const record = base.get(event.id);
    if (record) base.set(event.id, { ...record, sla_target: event.payload.target ?? null, sla_due_at: event.payload.due_at ?? null });
  }
  return base;
};
const slaExtra = {
  sla_target: { type: ['string', 'null'], description: 'The target: first_response, next_response or resolution.' },
  sla_due_at: { type: ['string', 'null'], description: "The target's deadline (ISO-8601)." },
};

export { customEventPrefix };
/** A subscription to this name receives every custom event. */
export const anyCustomEvent = 'event.emit';

/** A name a subscription may ask for: a catalogued event, any custom event, or one custom event. */
export type SubscribableName = WebhookEventName | typeof anyCustomEvent;

export const catalogue: Record<SubscribableName, CatalogueEntry> = {
  'message.create': { description: 'A message was added to a request (visitor, agent or bot).', render: renderMessages, types: ['Message'] },
  'request.create': { description: 'A request (conversation or ticket) was opened.', render: renderRequests, types: ['Request'] },
  'request.update': { description: 'A request changed (assignment, status, attributes...).', render: renderRequests, types: ['Request'] },
  'request.close': { description: 'A request was closed.', render: renderRequests, types: ['Request'] },
  'request.merge': {
    description: 'Other requests were merged into this one (payload: the surviving request; the event names the merged ones in `from`).',
    render: renderRequests,
    types: ['Request'],
  },
  'sla.warning': {
    description: "80% of an SLA target's time went by and the target is not met (payload: the request, `sla_target`, `sla_due_at`).",
    render: renderSlaEvents,
    types: ['Request'],
    extra: slaExtra,
  },
  'sla.breach': {
    description: 'An SLA target was missed (payload: the request, `sla_target`, `sla_due_at`). Once per target and deadline.',
    render: renderSlaEvents,
    types: ['Request'],
    extra: slaExtra,
  },
  'lead.create': { description: 'A lead (contact) was created.', render: renderLeads, types: ['Lead'] },
  'lead.update': { description: 'A lead changed.', render: renderLeads, types: ['Lead'] },
  'project_user.invite': {
    description: 'An e-mail was invited (payload: the pending invitation), or a teammate joined, e.g. an invitee accepting (payload: the teammate).',
    render: renderTeammateInvites,
    types: ['PendingInvitation', 'Teammate'],
  },
  'project_user.update': { description: 'A teammate changed (role, availability...).', render: renderTeammates, types: ['Teammate'] },
  'project_user.delete': { description: 'A teammate was removed from the project.', render: renderTeammates, types: ['Teammate'] },
  [presenceEvent]: {
    description: 'A teammate went online or offline (`presence.status`): their first messaging app opened, or their last one closed.',
    render: renderTeammates,
    types: ['Teammate'],
  },
  'department.create': { description: 'A department was created.', render: renderDepartments, types: ['Department'] },
  'department.update': { description: 'A department changed.', render: renderDepartments, types: ['Department'] },
  'department.delete': { description: 'A department was deleted (payload: its identifiers).', render: renderDepartments, types: ['Department'] },
  'bot.create': { description: 'A chatbot was created.', render: renderBots, types: ['Bot'] },
  'bot.update': { description: 'A chatbot changed.', render: renderBots, types: ['Bot'] },
  'bot.delete': { description: 'A chatbot was deleted (trashed).', render: renderBots, types: ['Bot'] },
  'kb.content.indexed': { description: 'A knowledge-base content finished indexing.', render: renderContents, types: ['KbContent'] },
  'subscription.disabled': {
    description: 'A webhook subscription was disabled after failing (410 Gone, or failing too long).',
    render: renderDisabledSubscriptions,
    types: ['WebhookSubscription'],
    extra: { reason: { type: ['string', 'null'], description: 'Why it was disabled.' } },
  },
  [anyCustomEvent]: { description: 'Every custom event (`event.emit.<NAME>`).', render: renderCustomEvents, types: ['CustomEvent'] },
};

/** The catalogue entry for an event name; every `event.emit.<NAME>` shares the custom-event one. */
export function catalogueEntry(name: string): CatalogueEntry | undefined {
  if (isCustomEventName(name)) return catalogue[anyCustomEvent];
  return Object.hasOwn(catalogue, name) ? catalogue[name as SubscribableName] : undefined;
}

/** Whether a subscription to `subscribed` receives an event named `eventName`. */
export function subscriptionMatches(subscribed: string, eventName: DomainEventName): boolean {
  return subscribed === eventName || (subscribed === anyCustomEvent && eventName.startsWith(customEventPrefix));
}
