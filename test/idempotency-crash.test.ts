import { once } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { TestApp, testEnvironment } from './helpers/app.js';
import { newRequestId, send } from './helpers/conversations.js';
import { loadEmbeddedImage } from './helpers/data-dir.js';
import { nodeProcessEnv, runScript } from './helpers/script-process.js';

// Idempotency-Key is exactly-once across a crash: a node killed (SIGKILL) while a keyed request
// runs, at the worst instants (its write made but its answer not kept yet; its answer kept but
// not sent), leaves a key whose retry, on the next node, runs the request once or answers the
// first answer. The killed node is a process of its own; the next one runs in this process on the
// same database (embedded mode: the same PGlite data directory, opened once the first is dead).

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function nodeEnvironment() {
  const environment = await testEnvironment();
  cleanups.push(() => environment.dispose());
  const { config } = environment;
  if (!config.databaseUrl) await loadEmbeddedImage(path.join(config.dataDir, 'db'));
  return nodeProcessEnv(config);
}

/** A node in its own process that stalls keyed requests at `stall`; its clients' calls go to it. */
async function stallingNode(env: Record<string, string>, stall: 'written' | 'kept') {
  const node = runScript('test/helpers/keyed-node-process.ts', { ...env, STALL_KEYED: stall });
  cleanups.push(() => node.kill());
  // A process start takes seconds, more on a busy machine.
  const url = await node.until(() => node.lines().find((line) => typeof line.url === 'string')?.url as string | undefined, 180_000);
  return { node, client: new TestApp(undefined as unknown as App, async () => {}, url) };
}

async function nextNode(env: Record<string, string>) {
  const restarted = await startServer(loadConfig(env), { inMemory: false });
  cleanups.push(() => restarted.close());
  return new TestApp(restarted.app, async () => {}, restarted.url);
}

async function killedWhileKeyed(stall: 'written' | 'kept', text: string) {
  const env = await nodeEnvironment();
  const { node, client } = await stallingNode(env, stall);
  const owner = await client.newUser('owner');
  const project = await client.post('/v3/projects', { token: owner.token, body: { name: 'Crash' } });
  const projectId = project.body._id as string;
  const requestId = newRequestId();
  expect((await send(client, projectId, owner.token, requestId, { text: 'opening' })).status).toBe(200);
  const key = `crash-${stall}`;
  const path = `/v3/${projectId}/requests/${requestId}/messages`;
  const first = client.post(path, { token: owner.token, headers: { 'idempotency-key': key }, body: { text } }).catch(() => null);
  await node.until(() => node.lines().some((line) => line.stalled === stall));
  node.child.kill('SIGKILL');
  await once(node.child, 'exit');
  expect(await first).toBeNull();
  const next = await nextNode(env);
  const retry = () => next.post(path, { token: owner.token, headers: { 'idempotency-key': key }, body: { text } });
  const messagesWith = async () => {
    const listed = await next.get(`${path}?limit=100`, { token: owner.token });
    expect(listed.status).toBe(200);
    return (listed.body as Array<{ text: string }>).filter((m) => m.text === text).length;
  };
  return { retry, messagesWith };
}

describe('a node killed while a request with an Idempotency-Key runs', () => {
  it('leaves nothing of a request killed after its write and before its answer was kept: the retry runs it, once', async () => {
    const { retry, messagesWith } = await killedWhileKeyed('written', 'stall: written, not kept');
    const again = await retry();
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await messagesWith()).toBe(1);
    const replayed = await retry();
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(again.body);
    expect(await messagesWith()).toBe(1);
  }, 300_000);

  it('answers the kept answer to the retry of a request killed before it answered', async () => {
    const { retry, messagesWith } = await killedWhileKeyed('kept', 'kept, not sent');
    const again = await retry();
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.text).toBe('kept, not sent');
    expect(await messagesWith()).toBe(1);
  }, 300_000);
});
