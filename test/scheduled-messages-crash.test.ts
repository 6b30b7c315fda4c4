import { once } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { TestApp, testEnvironment } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { loadEmbeddedImage } from './helpers/data-dir.js';
import { productionMode } from './helpers/environment.js';
import { nodeProcessEnv, runScript } from './helpers/script-process.js';

// A scheduled message is sent exactly once: a node killed (SIGKILL) in the middle of sending it
// (message written and row claimed, not committed) leaves it to the next node, which sends it
// once; two nodes sweeping the same database never both send one, and lose none.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function nodeEnvironment(extra: Record<string, string> = {}) {
  const environment = await testEnvironment({ TIMER_SWEEP_INTERVAL: '200ms', ...extra });
  cleanups.push(() => environment.dispose());
  const { config } = environment;
  if (!config.databaseUrl) await loadEmbeddedImage(path.join(config.dataDir, 'db'));
  return nodeProcessEnv(config, { TIMER_SWEEP_INTERVAL: '200ms' });
}

async function inProcessNode(env: Record<string, string>) {
  const started = await startServer(loadConfig(env), { inMemory: false });
  cleanups.push(() => started.close());
  return new TestApp(started.app, async () => {}, started.url);
}

/** A project with an open conversation the owner can schedule in. */
async function conversation(client: TestApp) {
  const owner = await client.newUser('owner');
  const project = await client.post('/v3/projects', { token: owner.token, body: { name: 'Timers' } });
  const projectId = project.body._id as string;
  const requestId = newRequestId();
  expect((await send(client, projectId, owner.token, requestId, { text: 'opening' })).status).toBe(200);
  return { token: owner.token, projectId, requestId };
}

async function textsIn(client: TestApp, c: { token: string; projectId: string; requestId: string }) {
  const listed = await client.get(`/v3/${c.projectId}/requests/${c.requestId}/messages?limit=100`, { token: c.token });
  expect(listed.status).toBe(200);
  return (listed.body as Array<{ text: string }>).map((m) => m.text);
}

describe('a node killed while it sends a scheduled message', () => {
  it('sends it once, from the next node', async () => {
    const env = await nodeEnvironment();
    const node = runScript('test/helpers/timer-node-process.ts', { ...env, STALL_SCHEDULED: 'written' });
    cleanups.push(() => node.kill());
    const url = await node.until(() => node.lines().find((line) => typeof line.url === 'string')?.url as string | undefined, 180_000);
    const client = new TestApp(undefined as unknown as App, async () => {}, url);
    const c = await conversation(client);
    const scheduled = await client.post(`/v3/${c.projectId}/requests/${c.requestId}/scheduled_messages`, {
      token: c.token,
      body: { text: 'sent across a crash', scheduled_at: new Date(Date.now() + 1000).toISOString() },
    });
    expect(scheduled.status).toBe(200);
    await node.until(() => node.lines().some((line) => line.stalled === 'written'), 60_000);
    node.child.kill('SIGKILL');
    await once(node.child, 'exit');

    const next = await inProcessNode(env);
    const row = await eventually(async () => {
      const rows = (await next.get(`/v3/${c.projectId}/requests/${c.requestId}/scheduled_messages`, { token: c.token })).body;
      return rows[0]?.status === 'sent' ? rows[0] : null;
    }, 60_000);
    expect(row.message_id).toBeTruthy();
    expect((await textsIn(next, c)).filter((text) => text === 'sent across a crash')).toHaveLength(1);
  }, 300_000);
});

describe('two nodes sweeping the same database', () => {
  // Two processes share a database only on PostgreSQL (PGlite is one process's).
  it.skipIf(!productionMode)('send each due message exactly once and lose none', async () => {
    const env = await nodeEnvironment();
    const [a, b] = [await inProcessNode(env), await inProcessNode(env)];
    const c = await conversation(a);
    // All due at one instant, a little after they are all written.
    const at = new Date(Date.now() + 15_000).toISOString();
    const texts = Array.from({ length: 30 }, (_, i) => `due together ${i}`);
    const created = await Promise.all(
      texts.map((text, i) => (i % 2 ? a : b).post(`/v3/${c.projectId}/requests/${c.requestId}/scheduled_messages`, { token: c.token, body: { text, scheduled_at: at } })),
    );
    expect(created.map((res) => res.status)).toEqual(texts.map(() => 200));
    await eventually(async () => {
      const rows = (await b.get(`/v3/${c.projectId}/requests/${c.requestId}/scheduled_messages`, { token: c.token })).body as Array<{ status: string }>;
      return rows.every((r) => r.status === 'sent') ? true : null;
    }, 60_000);
    const sent = (await textsIn(a, c)).filter((text) => text.startsWith('due together'));
    expect(sent.sort()).toEqual([...texts].sort());
  }, 300_000);

  it('two sweeps of one node racing over the same rows send each once', async () => {
    const env = await nodeEnvironment();
    const node = await inProcessNode(env);
    const c = await conversation(node);
    const texts = Array.from({ length: 10 }, (_, i) => `raced ${i}`);
    for (const text of texts) {
      await node.post(`/v3/${c.projectId}/requests/${c.requestId}/scheduled_messages`, {
        token: c.token,
        body: { text, scheduled_at: new Date(Date.now() + 60_000).toISOString() },
      });
    }
    // Both sweeps look a minute ahead, at once: they find the same rows.
    const later = new Date(Date.now() + 120_000);
    const counts = await Promise.all([node.services.scheduledMessages.sendDue(later), node.services.scheduledMessages.sendDue(later)]);
    expect(counts[0] + counts[1]).toBe(10);
    const sent = (await textsIn(node, c)).filter((text) => text.startsWith('raced'));
    expect(sent.sort()).toEqual([...texts].sort());
  }, 300_000);
});
