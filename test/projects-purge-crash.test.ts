import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { TestApp, testEnvironment } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { loadEmbeddedImage } from './helpers/data-dir.js';
import { nodeProcessEnv, runScript } from './helpers/script-process.js';

// A deleted project's data goes by a listener on its committed `project.delete`: a node killed
// (SIGKILL) after the deletion committed and before its purge ran leaves the event in the log, and
// the next node purges the project. The killed node's purge stalls where it would start (it says
// so, and is killed right then); the next one runs in this process on the same database
// (embedded: the same PGlite directory, opened once the first process is dead).

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a deleted project', () => {
  it('is purged by the next node when the node that deleted it was killed before purging', async () => {
    const environment = await testEnvironment({ EVENT_SWEEP_INTERVAL: '200ms' });
    cleanups.push(() => environment.dispose());
    const { config } = environment;
    if (!config.databaseUrl) await loadEmbeddedImage(path.join(config.dataDir, 'db'));
    const env = nodeProcessEnv(config, { EVENT_SWEEP_INTERVAL: '200ms' });

    const first = runScript('test/helpers/bot-node-process.ts', { ...env, STALL_PURGE: '1' });
    cleanups.push(() => first.kill());
    const url = await first.until(() => first.lines().find((line) => typeof line.url === 'string')?.url as string | undefined, 180_000);
    const api = new TestApp(undefined as unknown as App, async () => {}, url);
    const owner = await api.newUser('owner');
    const project = await api.post('/v3/projects', { token: owner.token, body: { name: 'Doomed' } });
    const projectId = project.body._id as string;
    expect((await send(api, projectId, owner.token, newRequestId(), { text: 'a message to be purged' })).status).toBe(200);
    expect((await api.delete(`/v3/projects/${projectId}`, { token: owner.token })).status).toBe(200);
    await first.until(() => first.lines().some((line) => line.stalled === 'purge' && line.project === projectId), 60_000);
    await first.kill();

    const next = await startServer(loadConfig(env), { inMemory: false });
    cleanups.push(() => next.close());
    const db = next.app.services.infra.database.prisma;
    await eventually(async () => (await db.project.findUnique({ where: { id: projectId } })) === null, 30_000);
    expect(await db.message.count({ where: { id_project: projectId } })).toBe(0);
    expect(await db.request.count({ where: { id_project: projectId } })).toBe(0);
    expect(await db.domainEvent.count({ where: { id_project: projectId } })).toBe(0);
  }, 240_000);
});
