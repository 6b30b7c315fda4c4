import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, openRequest, send } from './helpers/conversations.js';
import { connect, subscribe } from './helpers/realtime.js';
import { errorCodes, rawSocket, type RawSocket, type ServerMessage } from './helpers/raw-socket.js';

// A live subscription lasts only as long as the access it was granted on: removal, a role too low,
// a deleted account, an expired token or a request out of view end it with an error, and nothing
// of the project reaches the client after that. Cached lookups live for ten minutes here, so only
// the change itself can explain a subscription ending within seconds.

let t: TestApp;
let url: string;
let jwtSecret: string;
let p: SeededProject;
let requestId: string;
let namespace: string;
const closers: Array<() => unknown> = [];

beforeAll(async () => {
  const started = await createTestServer({ AUTH_CACHE_MS: '600000' });
  t = started.client;
  url = started.server.url;
  jwtSecret = started.config.jwtSecret;
  p = await t.seedProject();
  requestId = await openRequest(t, p);
  namespace = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Followed' } })).body.id;
});
afterAll(async () => {
  for (const close of closers) await close();
  await t.close();
});

/** A new account that joins the project with `role`. */
async function member(role: 'admin' | 'agent') {
  const account = await t.newUser(role);
  const teammate = await t.addMember(p.projectId, p.owner.token, account, role);
  return { token: account.token, userId: account.user._id, teammateId: teammate._id as string };
}

async function socketOf(token: string) {
  const socket = await rawSocket(url, token);
  closers.push(() => socket.close());
  return socket;
}

const isEnd = (id: string) => (m: ServerMessage) => m.id === id && (m.type === 'error' || (m.type === 'next' && !!m.payload?.errors));
const isEvent = (id: string) => (m: ServerMessage) => m.id === id && m.type === 'next' && !m.payload?.errors;

/** Runs `poke` every 50 ms until `done` holds (bounded), then waits for the pokes in flight. */
async function pokeUntil(poke: () => Promise<unknown>, done: () => boolean) {
  const pokes: Promise<unknown>[] = [];
  const timer = setInterval(() => pokes.push(poke().catch(() => undefined)), 50);
  try {
    await eventually(async () => done(), 10_000);
  } finally {
    clearInterval(timer);
    await Promise.all(pokes);
  }
}

/** Emits a knowledge-base event of the followed namespace, as indexing does. */
const kbEvent = () =>
  t.infra.eventLog.transaction((_tx, emit) =>
    emit({ projectId: p.projectId, name: 'kb.content.status', subject: 'content', payload: { namespace, status: 100 } }),
  );

/** Each subscription field, with what makes it deliver something. */
const fields: Record<string, { query: string; poke: () => Promise<unknown> }> = {
  projectEvents: {
    query: 'subscription($p: String!) { projectEvents(project_id: $p) { seq name } }',
    poke: () => t.put(`/v3/${p.projectId}/project_users/`, { token: p.owner.token, body: { attributes: { at: Date.now() } } }),
  },
  projectRequests: {
    query: 'subscription($p: String!) { projectRequests(project_id: $p) { seq name } }',
    poke: () => openRequest(t, p),
  },
  teammatePresence: {
    query: 'subscription($p: String!) { teammatePresence(project_id: $p) { seq status } }',
    poke: async () => {
      const socket = connect(url, p.agent.token);
      await socket.ready;
      await socket.client.dispose();
    },
  },
  requestMessages: {
    query: 'subscription($p: String!, $r: String!) { requestMessages(project_id: $p, request_id: $r) { seq name } }',
    poke: () => send(t, p.projectId, p.guest.token, requestId, { text: 'still there?' }),
  },
  typing: {
    query: 'subscription($p: String!, $r: String!) { typing(project_id: $p, request_id: $r) { request_id typing } }',
    poke: () =>
      t.gql('mutation($p: String!, $r: String!) { sendTyping(project_id: $p, request_id: $r) { typing } }', { p: p.projectId, r: requestId }, p.guest.token),
  },
  kbIndexing: {
    query: 'subscription($p: String!, $n: String!) { kbIndexing(project_id: $p, namespace: $n) { seq name } }',
    poke: kbEvent,
  },
};

const variables = () => ({ p: p.projectId, r: requestId, n: namespace });

/** Subscribes `id` on the socket and pokes until it has delivered something: it is live. */
async function liveSubscription(socket: RawSocket, id: string, field: keyof typeof fields, query = fields[field].query) {
  socket.subscribe(id, query, variables());
  await pokeUntil(fields[field].poke, () => socket.messages.some(isEvent(id)));
}

/** Pokes until the owner, subscribed to the same field, hears something new: the field still delivers. */
async function ownerHearsMore(field: keyof typeof fields) {
  const witness = subscribe(connect(url, p.owner.token).client, fields[field].query, variables());
  closers.push(() => witness.stop());
  await pokeUntil(fields[field].poke, () => witness.events.length > 0);
}

describe('a subscription of a teammate who is removed from the project', () => {
  it.each(Object.keys(fields))('%s ends with FORBIDDEN, and nothing follows', async (field) => {
    const leaver = await member('admin');
    const socket = await socketOf(leaver.token);
    await liveSubscription(socket, 'followed', field);
    const removed = await t.delete(`/v3/${p.projectId}/project_users/${leaver.teammateId}`, { token: p.owner.token });
    expect(removed.status).toBe(200);
    const end = await socket.waitFor(isEnd('followed'));
    expect(errorCodes(end)).toEqual(['FORBIDDEN']);
    await ownerHearsMore(field);
    const after = socket.of('followed').slice(socket.of('followed').indexOf(end) + 1);
    expect(after.filter((m) => m.type !== 'complete')).toEqual([]);
    expect(socket.closed).toBeNull();
  });
});

describe('a live subscription', () => {
  it('ends with FORBIDDEN when the role no longer allows it, while the socket\'s others go on', async () => {
    const demoted = await member('admin');
    const socket = await socketOf(demoted.token);
    await liveSubscription(socket, 'kb', 'kbIndexing');
    await liveSubscription(socket, 'events', 'projectEvents');
    await t.put(`/v3/${p.projectId}/project_users/${demoted.teammateId}`, { token: p.owner.token, body: { role: 'agent' } });
    expect(errorCodes(await socket.waitFor(isEnd('kb')))).toEqual(['FORBIDDEN']);
    const seen = socket.of('events').length;
    await pokeUntil(fields.projectEvents.poke, () => socket.of('events').length > seen);
    expect(socket.of('events').filter((m) => m.type !== 'next' || m.payload.errors)).toEqual([]);
  });

  it('ends with UNAUTHENTICATED when the account is deleted', async () => {
    const deleted = await member('agent');
    const socket = await socketOf(deleted.token);
    await liveSubscription(socket, 'events', 'projectEvents');
    await t.services.accounts.deleteAccount(deleted.userId);
    expect(errorCodes(await socket.waitFor(isEnd('events')))).toEqual(['UNAUTHENTICATED']);
  });

  it('ends with UNAUTHENTICATED when the token of its socket expires', async () => {
    const expiring = await member('agent');
    const token = `JWT ${jwt.sign({ anonymous: false }, jwtSecret, { algorithm: 'HS256', subject: expiring.userId, expiresIn: 2 })}`;
    const socket = await socketOf(token);
    await liveSubscription(socket, 'events', 'projectEvents');
    const end = await socket.waitFor(isEnd('events'));
    expect(errorCodes(end)).toEqual(['UNAUTHENTICATED']);
    expect(end.payload.errors?.[0]?.message ?? end.payload[0]?.message).toMatch(/expired/);
  });

  it('stops keeping its teammate online when the token of its socket expires', async () => {
    const expiring = await member('agent');
    const after = Number((await t.infra.database.prisma.project.findUniqueOrThrow({ where: { id: p.projectId } })).eventSeq);
    const watcher = subscribe(
      connect(url, p.owner.token).client,
      'subscription($p: String!, $after: Int) { teammatePresence(project_id: $p, after: $after) { status teammate { _id } } }',
      { p: p.projectId, after },
    );
    closers.push(() => watcher.stop());
    const token = `JWT ${jwt.sign({ anonymous: false }, jwtSecret, { algorithm: 'HS256', subject: expiring.userId, expiresIn: 2 })}`;
    await socketOf(token);
    await watcher.waitFor((e) => e.teammate._id === expiring.teammateId && e.status === 'online');
    const offline = await watcher.waitFor((e) => e.teammate._id === expiring.teammateId && e.status === 'offline');
    expect(offline.status).toBe('offline');
  });

  it('of an agent ends with FORBIDDEN when the request it follows leaves their view', async () => {
    const agent = await member('agent');
    const pool = (await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: 'Pool', routing: 'pooled' } })).body._id;
    const pooled = await openRequest(t, p, { departmentid: pool });
    const socket = await socketOf(agent.token);
    socket.subscribe('messages', fields.requestMessages.query, { p: p.projectId, r: pooled });
    await pokeUntil(() => send(t, p.projectId, p.guest.token, pooled, { text: 'anyone?' }), () => socket.messages.some(isEvent('messages')));
    await t.post(`/v3/${p.projectId}/requests/${pooled}/participants`, { token: p.admin.token, body: { member: p.owner.userId } });
    expect(errorCodes(await socket.waitFor(isEnd('messages')))).toEqual(['FORBIDDEN']);
  });

  it('over server-sent events ends with FORBIDDEN when the teammate is removed', async () => {
    const leaver = await member('agent');
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { authorization: leaver.token, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: fields.projectEvents.query, variables: { p: p.projectId } }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const reading = (async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    })();
    await pokeUntil(fields.projectEvents.poke, () => text.includes('event: next'));
    await t.delete(`/v3/${p.projectId}/project_users/${leaver.teammateId}`, { token: p.owner.token });
    await eventually(async () => text.includes('event: complete'));
    await reading;
    const results = text.split('event: next\ndata: ').slice(1).map((part) => JSON.parse(part.split('\n')[0]));
    expect(results.at(-1).errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('projectRequests', () => {
  it('shows a demoted admin only what an agent sees from then on', async () => {
    const query = 'subscription($p: String!) { projectRequests(project_id: $p) { seq name request_id request { request_id } } }';
    const demoted = await member('admin');
    const pool = (await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: 'Queue', routing: 'pooled' } })).body._id;
    const socket = await socketOf(demoted.token);
    await liveSubscription(socket, 'requests', 'projectRequests', query);
    await t.put(`/v3/${p.projectId}/project_users/${demoted.teammateId}`, { token: p.owner.token, body: { role: 'agent' } });
    const pooled = await openRequest(t, p, { departmentid: pool });
    const of = (name: string) => (m: ServerMessage) =>
      m.id === 'requests' && m.payload?.data?.projectRequests?.request_id === pooled && m.payload.data.projectRequests.name === name;
    expect((await socket.waitFor(of('request.create'))).payload.data.projectRequests.request).toEqual({ request_id: pooled });
    // Taken by the owner: out of an agent's view (an admin would still see it), so it comes once
    // more without its record.
    await t.post(`/v3/${p.projectId}/requests/${pooled}/participants`, { token: p.admin.token, body: { member: p.owner.userId } });
    expect((await socket.waitFor(of('request.update'))).payload.data.projectRequests.request).toBeNull();
  });
});
