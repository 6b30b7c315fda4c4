import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, openRequest, send } from './helpers/conversations.js';
import { productionMode } from './helpers/environment.js';
import { connect, subscribe } from './helpers/realtime.js';
import { errorCodes, rawSocket } from './helpers/raw-socket.js';

// Several server nodes sharing one database and one Redis prefix (production mode only).

let a: { client: TestApp; url: string; config: Config };
let b: { client: TestApp; url: string };
let p: SeededProject;
const ttl = '1s';

beforeAll(async () => {
  if (!productionMode) return;
  // Cached lookups live long enough here that only the bus's invalidation can explain a fresh read.
  const first = await createTestServer({ PRESENCE_TTL: ttl, AUTH_CACHE_MS: '600000', PROJECT_CACHE_MS: '600000' });
  a = { client: first.client, url: first.server.url, config: first.config };
  const second = await createTestServer({ PRESENCE_TTL: ttl, AUTH_CACHE_MS: '600000', PROJECT_CACHE_MS: '600000' }, { databaseUrl: first.config.databaseUrl, prefix: first.config.redisPrefix });
  b = { client: second.client, url: second.server.url };
  p = await a.client.seedProject();
});
afterAll(async () => {
  if (!productionMode) return;
  await b.client.close();
  await a.client.close();
});

const lastSeq = async () => Number((await a.client.infra.database.prisma.project.findUniqueOrThrow({ where: { id: p.projectId } })).eventSeq);
const presenceQuery = `subscription($p: String!, $after: Int) { teammatePresence(project_id: $p, after: $after) { status teammate { _id } } }`;

/** Starts a node in a child process on the shared database and Redis prefix. */
async function spawnNode(): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/node-process.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sp-node-')),
      JWT_SECRET: a.config.jwtSecret,
      BCRYPT_ROUNDS: '4',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: a.config.databaseUrl,
      REDIS_PREFIX: a.config.redisPrefix,
      PRESENCE_TTL: ttl,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line).url));
    child.once('exit', (code) => reject(new Error(`node exited with ${code}`)));
  });
  return { url, process: child };
}

describe.skipIf(!productionMode)('two nodes sharing Redis', () => {
  it('deliver a message posted on node B to a subscriber on node A', async () => {
    const requestId = await openRequest(a.client, p);
    const sub = subscribe(connect(a.url, p.admin.token).client, `subscription($p: String!, $r: String!, $after: Int) {
      requestMessages(project_id: $p, request_id: $r, after: $after) { seq message { text } } }`, { p: p.projectId, r: requestId, after: await lastSeq() });
    await send(b.client, p.projectId, p.guest.token, requestId, { text: 'from B' });
    const [event] = await sub.take(1);
    expect(event.message.text).toBe('from B');
    sub.stop();
  });

  it('show a project renamed on node A when it is read on node B', async () => {
    const path = `/v3/projects/${p.projectId}`;
    expect((await b.client.get(path, { token: p.agent.token })).body.name).toBe('Acme');
    await a.client.put(path, { token: p.owner.token, body: { name: 'Acme renamed' } });
    await eventually(async () => (await b.client.get(path, { token: p.agent.token })).body.name === 'Acme renamed');
    await a.client.put(path, { token: p.owner.token, body: { name: 'Acme' } });
  });

  it('end a removed teammate\'s access on node B at once', async () => {
    const member = await a.client.newUser('leaver');
    const teammate = await a.client.addMember(p.projectId, p.owner.token, member);
    const path = `/v3/projects/${p.projectId}`;
    expect((await b.client.get(path, { token: member.token })).status).toBe(200);
    await a.client.delete(`/v3/${p.projectId}/project_users/${teammate._id}`, { token: p.owner.token });
    await eventually(async () => (await b.client.get(path, { token: member.token })).status === 403);
  });

  it('end a removed teammate\'s subscription on node A within seconds of node B removing them', async () => {
    const account = await a.client.newUser('leaver');
    const teammate = await a.client.addMember(p.projectId, p.owner.token, account, 'agent');
    const socket = await rawSocket(a.url, account.token);
    try {
      socket.subscribe('events', 'subscription($p: String!) { projectEvents(project_id: $p) { seq } }', { p: p.projectId });
      // Live once it has delivered an event (changes made on node B).
      const pokes: Promise<unknown>[] = [];
      const poke = setInterval(() => pokes.push(b.client.put(`/v3/${p.projectId}/project_users/`, { token: p.admin.token, body: { attributes: { at: Date.now() } } })), 50);
      await socket.waitFor((m) => m.id === 'events' && m.type === 'next').finally(() => clearInterval(poke));
      await Promise.all(pokes);
      const started = Date.now();
      await b.client.delete(`/v3/${p.projectId}/project_users/${teammate._id}`, { token: p.owner.token });
      const end = await socket.waitFor((m) => m.id === 'events' && (m.type === 'error' || !!m.payload?.errors));
      expect(errorCodes(end)).toEqual(['FORBIDDEN']);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      socket.close();
    }
  });

  it('keep a teammate online until their last socket closes, whichever node holds it', async () => {
    const watcher = subscribe(connect(a.url, p.admin.token).client, presenceQuery, { p: p.projectId, after: await lastSeq() });
    const onA = connect(a.url, p.agent.token);
    const onB = connect(b.url, p.agent.token);
    await Promise.all([onA.ready, onB.ready]);
    await watcher.waitFor((e) => e.teammate._id === p.agent.teammateId && e.status === 'online');
    await onA.client.dispose();
    await eventually(async () => (await b.client.services.presence.liveConnections(p.agent.userId)) === 1);
    const teammate = await a.client.services.teammates.get(p.projectId, p.agent.teammateId);
    expect(teammate.presence).toMatchObject({ status: 'online' });
    await onB.client.dispose();
    await watcher.waitFor((e) => e.teammate._id === p.agent.teammateId && e.status === 'offline');
    watcher.stop();
  });

  it('take a teammate offline when the node holding their socket dies', async () => {
    const watcher = subscribe(connect(a.url, p.admin.token).client, presenceQuery, { p: p.projectId, after: await lastSeq() });
    const node = await spawnNode();
    try {
      const socket = connect(node.url, p.user.token);
      await socket.ready;
      await watcher.waitFor((e) => e.teammate._id === p.user.teammateId && e.status === 'online');
      node.process.kill('SIGKILL');
      const offline = await watcher.waitFor((e) => e.teammate._id === p.user.teammateId && e.status === 'offline', 15_000);
      expect(offline.status).toBe('offline');
      await socket.client.dispose();
    } finally {
      node.process.kill('SIGKILL');
      watcher.stop();
    }
  });
});
