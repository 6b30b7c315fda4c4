import type { Db } from '../../infra/database.js';
import { toLogged, type LoggedEvent } from '../../infra/event-log.js';
import type { Request } from '../../generated/prisma/client.js';
import { botIdOf } from './participants.js';
import { RequestStatus } from './states.js';
import { botSender } from '../auth/bot-identity.js';

// What happened to a conversation, read from the event log (the events whose subject is the
// request) and told in sentences: opened, assigned, re-routed, joined and left, closed, reopened,
// rated, and the changes people made to it. Each event gives its sentences (a re-route that brings
// a bot in gives two), oldest first.

export interface TimelineEntry {
  seq: number;
  name: string;
  at: string;
  /** A user id, `bot_<id>`, or null for the system. */
  actor: string | null;
  actorName: string | null;
  text: string;
}

const timelineEvents = ['request.create', 'request.update', 'request.close', 'message.scheduled_skipped'];

const skipReasons: Record<string, string> = {
  closed: 'the conversation was closed',
  deleted: 'the conversation was deleted',
  sender_left: 'its author left the project',
  sender_cannot_write: 'its author may not write here any more',
};

/** Fields whose change a person reads about, by what they call them (the rest is bookkeeping). */
const describedFields: Record<string, string> = {
  tags: 'the tags',
  notes: 'the notes',
  priority: 'the priority',
  lead: 'the contact',
  first_text: 'the subject',
  language: 'the language',
  sourcePage: 'the source page',
};

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** Names of the users, bots and departments the events mention, read together. */
async function namesFor(db: Db, projectId: string, events: LoggedEvent[]) {
  const people = new Set<string>();
  const departments = new Set<string>();
  for (const { payload } of events) {
    for (const id of [payload.by, ...strings(payload.added), ...strings(payload.removed)]) if (typeof id === 'string') people.add(id);
    if (typeof payload.department_id === 'string') departments.add(payload.department_id);
  }
  const botIds = [...people].flatMap((id) => botIdOf(id) ?? []);
  const userIds = [...people].filter((id) => botIdOf(id) === null);
  const [users, bots, depts] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, firstname: true, lastname: true } }) : [],
    botIds.length ? db.bot.findMany({ where: { id: { in: botIds }, id_project: projectId }, select: { id: true, name: true } }) : [],
    departments.size ? db.department.findMany({ where: { id: { in: [...departments] }, id_project: projectId }, select: { id: true, name: true } }) : [],
  ]);
  const names = new Map<string, string>();
  for (const user of users) names.set(user.id, `${user.firstname} ${user.lastname}`.trim() || 'Someone');
  for (const bot of bots) names.set(botSender(bot.id), bot.name);
  const departmentNames = new Map(depts.map((d) => [d.id, d.name]));
  return {
    of: (id: string) => names.get(id) ?? (botIdOf(id) !== null ? 'a bot' : 'a former teammate'),
    department: (id: string) => departmentNames.get(id) ?? 'a deleted department',
  };
}

type Names = Awaited<ReturnType<typeof namesFor>>;

/** `Bot Ada` for a bot, the person's name otherwise. */
const called = (names: Names, id: string) => (botIdOf(id) !== null ? `Bot ${names.of(id)}` : names.of(id));

/** The sentences of one event; `closed` is whether the request was closed before it. */
function sentences(event: LoggedEvent, names: Names, closed: boolean): string[] {
  const { payload } = event;
  const by = typeof payload.by === 'string' ? payload.by : null;
  const who = by && called(names, by);
  const added = strings(payload.added);
  const removed = strings(payload.removed);
  const fields = strings(payload.fields);
  // Routing chose who joins and who leaves; by hand, the actor did.
  const routed = fields.includes('assignment_reason');
  const said: string[] = [];
  if (event.name === 'request.close') return [who ? `Closed by ${who}` : 'Closed'];
  if (event.name === 'message.scheduled_skipped') {
    return [`A message ${who ?? 'someone'} scheduled was not sent: ${skipReasons[String(payload.reason)] ?? 'it could not be sent'}`];
  }
  if (event.name === 'request.create') said.push(who ? `${who} opened the conversation` : 'The conversation was opened');
  if (event.name === 'request.update' && closed && typeof payload.status === 'number' && payload.status !== RequestStatus.CLOSED) {
    said.push(who ? `Reopened by ${who}` : 'Reopened');
  }
  if (event.name === 'request.update' && typeof payload.department_id === 'string') {
    const department = names.department(payload.department_id);
    said.push(who ? `${who} routed the conversation to ${department}` : `Routed to ${department}`);
  }
  for (const id of added) {
    if (botIdOf(id) !== null) said.push(`${called(names, id)} joined`);
    else if (id === by) said.push(`${who} took the conversation`);
    else if (who && event.name === 'request.update' && !routed) said.push(`${who} assigned the conversation to ${names.of(id)}`);
    else said.push(`Assigned to ${names.of(id)}`);
  }
  for (const id of removed) {
    if (botIdOf(id) !== null) said.push(`${called(names, id)} left`);
    else if (id === by || !who || routed) said.push(`${names.of(id)} left the conversation`);
    else said.push(`${who} removed ${names.of(id)} from the conversation`);
  }
  if (fields.includes('rating') && typeof payload.rating === 'number') {
    const comment = typeof payload.rating_message === 'string' && payload.rating_message.trim() ? `: ${payload.rating_message.trim()}` : '';
    said.push(`Rated ${payload.rating}/5${comment}`);
  }
  const changed = fields.flatMap((field) => describedFields[field] ?? []);
  if (changed.length) said.push(`${who ?? 'The system'} changed ${changed.join(', ')}`);
  return said;
}

/** The timeline of `request` (one the caller may see), oldest first. */
export async function requestTimeline(db: Db, request: Request): Promise<TimelineEntry[]> {
  const rows = await db.domainEvent.findMany({
    where: { id_project: request.id_project, subject: request.id, name: { in: timelineEvents } },
    orderBy: { seq: 'asc' },
  });
  const events = rows.map(toLogged);
  const names = await namesFor(db, request.id_project, events);
  const entries: TimelineEntry[] = [];
  let closed = false;
  for (const event of events) {
    const actor = typeof event.payload.by === 'string' ? event.payload.by : null;
    for (const text of sentences(event, names, closed)) {
      entries.push({ seq: event.seq, name: event.name, at: event.createdAt, actor, actorName: actor && names.of(actor), text });
    }
    if (event.name === 'request.close') closed = true;
    else if (typeof event.payload.status === 'number') closed = event.payload.status === RequestStatus.CLOSED;
  }
  return entries;
}
