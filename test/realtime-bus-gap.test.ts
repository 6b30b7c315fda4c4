import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { openRequest, send } from './helpers/conversations.js';
import { productionMode } from './helpers/environment.js';
import { startRedisOnFreePort } from './helpers/redis-server.js';
import { connect, subscribe } from './helpers/realtime.js';
import { errorCodes, rawSocket } from './helpers/raw-socket.js';

// Subscriptions across a lost Redis pub/sub connection (production mode, on a redis-server of this
// file's own, so that cutting its connections disturbs no other test): what was published meanwhile
// is gone, and the node catches up from the event log and checks every subscription's access again.

const ports = [6381, 6382, 6383, 6384];


describe.skipIf(!productionMode)('a node whose Redis pub/sub connection is cut', () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let t: TestApp;
  let url: string;
  let p: SeededProject;
  const closers: Array<() => unknown> = [];

  beforeAll(async () => {
    ({ redis, port } = await startRedisOnFreePort(ports));
    const started = await createTestServer({ REDIS_URL: `redis://127.0.0.1:${port}`, AUTH_CACHE_MS: '1000' });
    t = started.client;
    url = started.server.url;
    p = await t.seedProject();
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await t?.close();
    redis?.kill('SIGKILL');
  });

  /** Cuts every pub/sub connection of the file's Redis; the node reconnects by itself. */
  async function cutPubSub() {
    const admin = new Redis({ port, host: '127.0.0.1' });
    try {
      await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    } finally {
      admin.disconnect();
    }
  }

  const lastSeq = async () => Number((await t.infra.database.prisma.project.findUniqueOrThrow({ where: { id: p.projectId } })).eventSeq);

  it('misses no message published while the connection was down', async () => {
    const requestId = await openRequest(t, p);
    const client = connect(url, p.admin.token).client;
    closers.push(() => client.dispose());
    const sub = subscribe(
      client,
      `subscription($p: String!, $r: String!, $after: Int) { requestMessages(project_id: $p, request_id: $r, after: $after) { message { text } } }`,
      { p: p.projectId, r: requestId, after: await lastSeq() },
    );
    await send(t, p.projectId, p.guest.token, requestId, { text: 'before' });
    await sub.take(1);
    await cutPubSub();
    for (const text of ['during-1', 'during-2', 'during-3']) await send(t, p.projectId, p.guest.token, requestId, { text });
    const events = await sub.take(4, 20_000);
    expect(events.map((e) => e.message.text)).toEqual(['before', 'during-1', 'during-2', 'during-3']);
    sub.stop();
  });

  it('ends the subscription of a teammate whose removal was not heard, once the connection is back', async () => {
    const account = await t.newUser('unheard');
    const teammate = await t.addMember(p.projectId, p.owner.token, account, 'agent');
    const socket = await rawSocket(url, account.token);
    closers.push(() => socket.close());
    socket.subscribe('events', 'subscription($p: String!) { projectEvents(project_id: $p) { seq } }', { p: p.projectId });
    const pokes: Promise<unknown>[] = [];
    const poke = setInterval(() => pokes.push(t.put(`/v3/${p.projectId}/project_users/`, { token: p.owner.token, body: { attributes: { at: Date.now() } } })), 50);
    await socket.waitFor((m) => m.id === 'events' && m.type === 'next').finally(() => clearInterval(poke));
    await Promise.all(pokes);
    // Removed with no word on the bus, as if its message had been lost with the connection.
    await t.infra.database.prisma.projectUser.update({ where: { id: teammate._id }, data: { trashed: true } });
    await cutPubSub();
    const end = await socket.waitFor((m) => m.id === 'events' && (m.type === 'error' || !!m.payload?.errors));
    expect(errorCodes(end)).toEqual(['FORBIDDEN']);
  });
});
