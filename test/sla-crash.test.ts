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

// An SLA timer fires exactly once: a node killed (SIGKILL) while it fires a breach (timer claimed,
// breach recorded, not committed) leaves it to the next node, which fires it once; two nodes
// sweeping the same database never both fire one, and lose none. As test/scheduled-messages-crash.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function nodeEnvironment() {
  const environment = await testEnvironment({ TIMER_SWEEP_INTERVAL: '200ms' });
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

/** A project whose policy gives every request `seconds` to a first response. */
async function projectWithPolicy(client: TestApp, seconds: number) {
  const owner = await client.newUser('owner');
  const project = await client.post('/v3/projects', { token: owner.token, body: { name: 'Timers' } });
  const projectId = project.body._id as string;
  const policy = await client.post(`/v3/${projectId}/sla_policies`, { token: owner.token, body: { name: 'Tight', first_response: seconds } });
  expect(policy.status).toBe(200);
  return { token: owner.token, projectId };
}

/** A request opened by the owner (as its requester, whose own messages are no response). */
async function open(client: TestApp, c: { token: string; projectId: string }) {
  const requestId = newRequestId();
  expect((await send(client, c.projectId, c.token, requestId, { text: 'opening' })).status).toBe(200);
  return requestId;
}

async function slaEvents(client: TestApp, projectId: string) {
  const rows = await client.services.infra.database.prisma.domainEvent.findMany({ where: { id_project: projectId, name: { in: ['sla.warning', 'sla.breach'] } } });
  return rows.map((e) => `${e.name} ${(e.payload as { request_id: string }).request_id}`);
}

describe('a node killed while it fires an SLA breach', () => {
  it('fires it once, from the next node', async () => {
    const env = await nodeEnvironment();
    const node = runScript('test/helpers/timer-node-process.ts', { ...env, STALL_SLA: 'breach' });
    cleanups.push(() => node.kill());
    const url = await node.until(() => node.lines().find((line) => typeof line.url === 'string')?.url as string | undefined, 180_000);
    const client = new TestApp(undefined as unknown as App, async () => {}, url);
    const c = await projectWithPolicy(client, 2);
    const requestId = await open(client, c);
    await node.until(() => node.lines().some((line) => line.stalled === 'breach'), 60_000);
    node.child.kill('SIGKILL');
    await once(node.child, 'exit');

    const next = await inProcessNode(env);
    const request = await eventually(async () => {
      const body = (await next.get(`/v3/${c.projectId}/requests/${requestId}`, { token: c.token })).body;
      return body.sla?.breached.includes('first_response') ? body : null;
    }, 60_000);
    expect(request.sla.breached).toEqual(['first_response']);
    expect((await slaEvents(next, c.projectId)).sort()).toEqual([`sla.breach ${requestId}`, `sla.warning ${requestId}`]);
    expect(await next.services.infra.database.prisma.slaBreach.count({ where: { id_project: c.projectId } })).toBe(1);
  }, 300_000);
});

describe('two nodes sweeping the same database', () => {
  // Two processes share a database only on PostgreSQL (PGlite is one process's).
  it.skipIf(!productionMode)('fire each warning and breach exactly once and lose none', async () => {
    const env = await nodeEnvironment();
    const [a, b] = [await inProcessNode(env), await inProcessNode(env)];
    const c = await projectWithPolicy(a, 3);
    const requestIds: string[] = [];
    for (let i = 0; i < 20; i++) requestIds.push(await open(i % 2 ? a : b, c));
    await eventually(async () => (await slaEvents(b, c.projectId)).length >= 40 || null, 60_000);
    // Swept a few more times by both: still one of each.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const expected = requestIds.flatMap((id) => [`sla.breach ${id}`, `sla.warning ${id}`]);
    expect((await slaEvents(a, c.projectId)).sort()).toEqual(expected.sort());
  }, 300_000);

  it('two sweeps of one node racing over the same timers fire each once', async () => {
    const env = await nodeEnvironment();
    const node = await inProcessNode(env);
    const c = await projectWithPolicy(node, 60);
    const requestIds: string[] = [];
    for (let i = 0; i < 5; i++) requestIds.push(await open(node, c));
    const db = node.services.infra.database.prisma;
    await eventually(async () => (await db.slaTimer.count({ where: { id_project: c.projectId, status: 'pending' } })) === 10 || null, 30_000);
    // Both sweeps look two minutes ahead, at once: they find the same timers.
    const later = new Date(Date.now() + 120_000);
    const counts = await Promise.all([node.services.slaTimers.fireDue(later), node.services.slaTimers.fireDue(later)]);
    expect(counts[0] + counts[1]).toBe(10);
    expect((await slaEvents(node, c.projectId)).length).toBe(10);
  }, 300_000);
});
