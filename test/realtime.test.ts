import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, onlyAvailable, openRequest, send } from './helpers/conversations.js';
import { connect, subscribe } from './helpers/realtime.js';
import { startReceiver } from './helpers/webhook-receiver.js';

let t: TestApp;
let url: string;
beforeAll(async () => {
  // Loopback webhook receivers are allowed (the presence webhook test).
  const started = await createTestServer({ PRESENCE_TTL: '2s', OUTBOUND_ALLOW_PRIVATE: 'true' });
  t = started.client;
  url = started.server.url;
});
afterAll(() => t.close());

const messagesQuery = `subscription($p: String!, $r: String!, $after: Int) {
  requestMessages(project_id: $p, request_id: $r, after: $after) { seq name message { _id text status receipts attributes } }
}`;
const requestsQuery = `subscription($p: String!, $after: Int) {
  projectRequests(project_id: $p, after: $after) { seq name request_id request { request_id status participants } }
}`;
const presenceQuery = `subscription($p: String!, $after: Int) {
  teammatePresence(project_id: $p, after: $after) { seq status changedAt teammate { _id presence { status changedAt } user_available } }
}`;

/** The project's last event sequence: subscribing `after` it misses nothing, however late the server subscribes. */
const lastSeq = async (projectId: string) =>
  Number((await t.infra.database.prisma.project.findUniqueOrThrow({ where: { id: projectId } })).eventSeq);

const clients: Array<{ dispose(): void | Promise<void> }> = [];
const open = (token?: string) => {
  const c = connect(url, token);
  clients.push(c.client);
  return c;
};
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
});

describe('requestMessages subscription', () => {
  let p: SeededProject;
  beforeAll(async () => {
    p = await t.seedProject();
  });

  it('delivers new messages of the request, with their sequence numbers, and no others', async () => {
    const requestId = await openRequest(t, p);
    const other = await openRequest(t, p);
    const sub = subscribe(open(p.admin.token).client, messagesQuery, { p: p.projectId, r: requestId, after: await lastSeq(p.projectId) });
    await send(t, p.projectId, p.guest.token, other, { text: 'elsewhere' });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'one' });
    await send(t, p.projectId, p.admin.token, requestId, { text: 'two' });
    const [a, b] = await sub.take(2);
    expect([a.message.text, b.message.text]).toEqual(['one', 'two']);
    expect(a).toMatchObject({ name: 'message.create', message: { status: 200 } });
    expect(b.seq).toBeGreaterThan(a.seq);
    sub.stop();
  });

  it('gives each of many subscribers of one project exactly its own request\'s messages, in order', async () => {
    const client = open(p.admin.token).client;
    const requests = await Promise.all(Array.from({ length: 6 }, () => openRequest(t, p)));
    const after = await lastSeq(p.projectId);
    const subs = requests.map((r) => subscribe(client, messagesQuery, { p: p.projectId, r, after }));
    for (let round = 0; round < 3; round++) {
      await Promise.all(requests.map((r, i) => send(t, p.projectId, p.admin.token, r, { text: `${i}-${round}` })));
    }
    for (const [i, sub] of subs.entries()) {
      const events = await sub.take(3);
      expect(events.map((e) => e.message.text)).toEqual([`${i}-0`, `${i}-1`, `${i}-2`]);
      expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));
      sub.stop();
    }
  });

  it('without after, starts where the project stood when it arrived: a message written while it is being checked still comes', async () => {
    const requestId = await openRequest(t, p);
    // The subscription's checks read the request: held until a message has been committed.
    const { requests } = t.services;
    const get = requests.get;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let checking!: () => void;
    const checked = new Promise<void>((resolve) => (checking = resolve));
    requests.get = async (...args: Parameters<typeof get>) => {
      if (args[2] === requestId) (checking(), await held);
      return get.apply(requests, args);
    };
    try {
      const sub = subscribe(open(p.guest.token).client, messagesQuery, { p: p.projectId, r: requestId });
      await checked;
      await send(t, p.projectId, p.admin.token, requestId, { text: 'while you were being checked' });
      release();
      const [event] = await sub.take(1);
      expect(event.message.text).toBe('while you were being checked');
      sub.stop();
    } finally {
      requests.get = get;
    }
  });

  it('delivers receipt updates', async () => {
    const requestId = await openRequest(t, p);
    const sub = subscribe(open(p.guest.token).client, messagesQuery, { p: p.projectId, r: requestId, after: await lastSeq(p.projectId) });
    const sent = await send(t, p.projectId, p.guest.token, requestId, { text: 'seen?' });
    await t.put(`/v3/${p.projectId}/requests/${requestId}/messages/${sent.body._id}/status`, { token: p.admin.token, body: { status: 300 } });
    const update = await sub.waitFor((e) => e.name === 'message.update');
    expect(update.message).toMatchObject({ _id: sent.body._id, status: 300, receipts: { [p.admin.userId]: 300 } });
    sub.stop();
  });

  it('keeps hidden messages from the end user', async () => {
    const requestId = await openRequest(t, p);
    const sub = subscribe(open(p.guest.token).client, messagesQuery, { p: p.projectId, r: requestId, after: await lastSeq(p.projectId) });
    await send(t, p.projectId, p.admin.token, requestId, { text: 'note to self', attributes: { hidden: true } });
    await send(t, p.projectId, p.admin.token, requestId, { text: 'visible' });
    const [first] = await sub.take(1);
    expect(first.message.text).toBe('visible');
    sub.stop();
  });

  it('replays what was missed after `after`, then continues live, without gap or duplicate', async () => {
    const requestId = await openRequest(t, p);
    const before = await lastSeq(p.projectId);
    for (const text of ['m1', 'm2', 'm3']) await send(t, p.projectId, p.guest.token, requestId, { text });
    const sub = subscribe(open(p.admin.token).client, messagesQuery, { p: p.projectId, r: requestId, after: before });
    await sub.take(3);
    await send(t, p.projectId, p.guest.token, requestId, { text: 'm4' });
    const events = await sub.take(4);
    expect(events.map((e) => e.message.text)).toEqual(['m1', 'm2', 'm3', 'm4']);
    sub.stop();
  });

  it('lets a client that disconnected resume from its last sequence and miss nothing', async () => {
    const requestId = await openRequest(t, p);
    const first = open(p.admin.token);
    const sub = subscribe(first.client, messagesQuery, { p: p.projectId, r: requestId, after: await lastSeq(p.projectId) });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'a' });
    const [seen] = await sub.take(1);
    await first.client.dispose();
    for (const text of ['b', 'c']) await send(t, p.projectId, p.guest.token, requestId, { text });
    const resumed = subscribe(open(p.admin.token).client, messagesQuery, { p: p.projectId, r: requestId, after: seen.seq });
    await resumed.take(2);
    await send(t, p.projectId, p.guest.token, requestId, { text: 'd' });
    const events = await resumed.take(3);
    expect(events.map((e) => e.message.text)).toEqual(['b', 'c', 'd']);
    expect(new Set(events.map((e) => e.seq)).size).toBe(3);
    resumed.stop();
  });

  it('refuses a guest subscribing to someone else\'s request as if it did not exist', async () => {
    const requestId = await openRequest(t, p);
    const other = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Eve' } });
    const sub = subscribe(open(other.body.token).client, messagesQuery, { p: p.projectId, r: requestId });
    expect(JSON.stringify(await sub.failure())).toMatch(/NOT_FOUND/);
  });

  it('answers an unknown request with NOT_FOUND', async () => {
    const sub = subscribe(open(p.admin.token).client, messagesQuery, { p: p.projectId, r: newRequestId() });
    expect(JSON.stringify(await sub.failure())).toMatch(/NOT_FOUND/);
  });
});

describe('projectRequests subscription', () => {
  it('shows an agent the requests they may see, and drops one that leaves their view', async () => {
    const p = await t.seedProject();
    await onlyAvailable(t, p, [p.owner]);
    const pool = (await t.post(`/v3/${p.projectId}/departments`, { token: p.admin.token, body: { name: 'Pool', routing: 'pooled' } })).body._id;
    const sub = subscribe(open(p.agent.token).client, requestsQuery, { p: p.projectId, after: await lastSeq(p.projectId) });
    const servedByOwner = await openRequest(t, p);
    const pooled = await openRequest(t, p, { departmentid: pool });
    const created = await sub.waitFor((e) => e.name === 'request.create');
    expect(created).toMatchObject({ request_id: pooled, request: { status: 100 } });
    await t.post(`/v3/${p.projectId}/requests/${pooled}/participants`, { token: p.admin.token, body: { member: p.owner.userId } });
    const gone = await sub.waitFor((e) => e.request_id === pooled && e.name === 'request.update');
    expect(gone.request).toBeNull();
    expect(sub.events.some((e) => e.request_id === servedByOwner)).toBe(false);
    sub.stop();
  });

  it('shows an admin every request', async () => {
    const p = await t.seedProject();
    const sub = subscribe(open(p.admin.token).client, requestsQuery, { p: p.projectId, after: await lastSeq(p.projectId) });
    const requestId = await openRequest(t, p);
    await t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.owner.token });
    const closed = await sub.waitFor((e) => e.name === 'request.close');
    expect(closed).toMatchObject({ request_id: requestId, request: { status: 1000 } });
    sub.stop();
  });

  it('needs the agent role', async () => {
    const p = await t.seedProject();
    const sub = subscribe(open(p.guest.token).client, requestsQuery, { p: p.projectId });
    expect(JSON.stringify(await sub.failure())).toMatch(/FORBIDDEN/);
  });
});

describe('teammate presence', () => {
  it('is online while a websocket is open and offline when the last one closes', async () => {
    const p = await t.seedProject();
    const watcher = subscribe(open(p.admin.token).client, presenceQuery, { p: p.projectId, after: await lastSeq(p.projectId) });
    const first = open(p.agent.token);
    const second = open(p.agent.token);
    await Promise.all([first.ready, second.ready]);
    const online = await watcher.waitFor((e) => e.teammate._id === p.agent.teammateId && e.status === 'online');
    expect(online.teammate).toMatchObject({ presence: { status: 'online' }, user_available: true });
    await first.client.dispose();
    await eventually(async () => (await t.services.presence.liveConnections(p.agent.userId)) === 1);
    const teammate = await t.get(`/v3/${p.projectId}/project_users/${p.agent.teammateId}`, { token: p.admin.token });
    expect(teammate.body.presence).toMatchObject({ status: 'online', changedAt: expect.any(String) });
    await second.client.dispose();
    const offline = await watcher.waitFor((e) => e.teammate._id === p.agent.teammateId && e.status === 'offline');
    expect(offline.teammate.user_available).toBe(true);
    watcher.stop();
  });

  it('is delivered by webhook as project_user.presence, online then offline', async () => {
    const p = await t.seedProject();
    const receiver = await startReceiver();
    try {
      const hook = await t.post(`/v3/${p.projectId}/subscriptions`, {
        token: p.owner.token,
        body: { event: 'project_user.presence', target: receiver.url },
      });
      expect(hook.status).toBe(200);
      const agent = open(p.agent.token);
      await agent.ready;
      const mine = () => receiver.received.filter((r) => r.json?.payload?._id === p.agent.teammateId);
      const online = await eventually(async () => mine()[0]);
      expect(online.json.hook).toMatchObject({ event: 'project_user.presence' });
      expect(online.json.payload).toMatchObject({ _id: p.agent.teammateId, presence: { status: 'online' }, id_user: { _id: p.agent.userId } });
      await agent.client.dispose();
      const offline = await eventually(async () => mine()[1]);
      expect(offline.json.payload.presence.status).toBe('offline');
    } finally {
      await receiver.close();
    }
  });

  it('is not a project_user.update', async () => {
    const p = await t.seedProject();
    const before = await lastSeq(p.projectId);
    const agent = open(p.agent.token);
    await agent.ready;
    await eventually(async () => (await t.get(`/v3/${p.projectId}/project_users/${p.agent.teammateId}`, { token: p.admin.token })).body.presence.status === 'online');
    const names = (await t.infra.eventLog.readAfter(p.projectId, before)).map((e) => e.name);
    expect(names).toEqual(['project_user.presence']);
    await agent.client.dispose();
  });

  it('ignores anonymous end users', async () => {
    const p = await t.seedProject();
    const guest = open(p.guest.token);
    await guest.ready;
    const membership = await t.services.teammates.get(p.projectId, p.guest.teammateId);
    expect(membership.presence).toEqual({ status: 'offline' });
  });
});

describe('typing indicators', () => {
  it('reach the subscribers of the request and are not stored', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p);
    const logged = () => t.infra.database.prisma.domainEvent.count({ where: { id_project: p.projectId, name: { not: 'project_user.presence' } } });
    const events = await logged();
    const sub = subscribe(open(p.admin.token).client, `subscription($p: String!, $r: String!) { typing(project_id: $p, request_id: $r) { request_id user_id fullname typing } }`, {
      p: p.projectId,
      r: requestId,
    });
    const typing = `mutation($p: String!, $r: String!) { sendTyping(project_id: $p, request_id: $r) { typing } }`;
    // Typing is live only: keep signalling until the subscription (set up asynchronously) hears one.
    const heard = await eventually(async () => {
      await t.gql(typing, { p: p.projectId, r: requestId }, p.guest.token);
      return sub.events[0];
    });
    expect(heard).toEqual({ request_id: requestId, user_id: p.guest.userId, fullname: 'Visitor', typing: true });
    expect(await logged()).toBe(events);
    sub.stop();
  });

  it('refuses a guest typing in someone else\'s request as if it did not exist', async () => {
    const p = await t.seedProject();
    const requestId = await openRequest(t, p);
    const other = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Eve' } });
    const res = await t.gql(`mutation($p: String!, $r: String!) { sendTyping(project_id: $p, request_id: $r) { typing } }`, { p: p.projectId, r: requestId }, other.body.token);
    expect(res.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
