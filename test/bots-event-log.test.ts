import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { TestApp, testEnvironment } from './helpers/app.js';
import { loadEmbeddedImage } from './helpers/data-dir.js';
import { runScript } from './helpers/script-process.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';

// Nothing committed is missed, bots included: a process killed after a visitor's message commits
// and before the bot answers it leaves the message to the next node, which answers it once. The
// killed node is a process of its own; the next one runs in this process, on the same database
// (embedded mode: the same PGlite data directory, opened once the first process is dead).

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Node {
  child: ChildProcess;
  client: TestApp;
  /** The JSON lines the node printed so far. */
  lines(): Array<Record<string, unknown>>;
}

async function startNode(env: Record<string, string>): Promise<Node> {
  const node = runScript('test/helpers/bot-node-process.ts', env);
  cleanups.push(() => node.kill());
  const url = await node.until(() => node.lines().find((line) => typeof line.url === 'string')?.url as string | undefined);
  // Only its HTTP methods are used: the app lives in the child process.
  return { child: node.child, client: new TestApp(undefined as unknown as App, async () => {}, url), lines: node.lines };
}

interface Message {
  _id: string;
  sender: string;
  text: string;
  attributes?: Record<string, unknown>;
}

describe('bot answers recovered from the log', () => {
  it('answers, exactly once, a message whose process died before its bot answered', async () => {
    const environment = await testEnvironment({ BOT_SWEEP_INTERVAL: '200ms', EVENT_SWEEP_INTERVAL: '200ms', BOT_SWEEP_GRACE: '200ms' });
    cleanups.push(() => environment.dispose());
    const { config } = environment;
    // Both nodes open the same data directory: migrated already, from the suite's image.
    if (!config.databaseUrl) await loadEmbeddedImage(path.join(config.dataDir, 'db'));
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries({
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATA_DIR: config.dataDir,
      JWT_SECRET: config.jwtSecret,
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      REDIS_PREFIX: config.redisPrefix,
      PORT: '0',
      HOST: '127.0.0.1',
      BCRYPT_ROUNDS: '4',
      BOT_SWEEP_INTERVAL: '200ms', EVENT_SWEEP_INTERVAL: '200ms',
      BOT_SWEEP_GRACE: '200ms',
    })) {
      if (value !== undefined) env[key] = value;
    }
    if (!config.databaseUrl) delete env.DATABASE_URL;
    if (!config.redisUrl) delete env.REDIS_URL;

    // The first node commits messages but never lets its bots answer.
    const first = await startNode({ ...env, STALL_BOT_TURNS: '1' });
    const api = first.client;
    const owner = await api.newUser('owner');
    const project = await api.post('/v3/projects', { token: owner.token, body: { name: 'Bot recovery' } });
    const projectId = project.body._id as string;
    const bot = await api.post(`/v3/${projectId}/bots`, { token: owner.token, body: { name: 'Ada' } });
    expect(bot.status).toBe(200);
    const botId = bot.body._id as string;
    const department = await api.post(`/v3/${projectId}/departments`, {
      token: owner.token,
      body: { name: 'Bot desk', routing: 'assigned', id_bot: botId },
    });
    expect(department.status).toBe(200);
    const visitor = await api.post('/v3/auth/signinAnonymously', { body: { id_project: projectId, firstname: 'Visitor' } });
    const visitorToken = visitor.body.token as string;
    const requestId = newRequestId();
    const sent = await send(api, projectId, visitorToken, requestId, { text: 'hello', departmentid: department.body._id });
    expect(sent.status).toBe(200);

    // Killed once the message committed and reached the bot engine, before any answer.
    const stalled = await eventually(async () => first.lines().find((line) => typeof line.stalled === 'string')?.stalled as string | undefined);
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');

    const restarted = await startServer(loadConfig(env), { inMemory: false });
    cleanups.push(() => restarted.close());
    const second = new TestApp(restarted.app, async () => {}, restarted.url);
    const messagesOf = async () => {
      const res = await second.get(`/v3/${projectId}/requests/${requestId}/messages`, { token: owner.token });
      expect(res.status).toBe(200);
      return res.body as Message[];
    };
    const answersTo = (messages: Message[], messageId: string) =>
      messages.filter((m) => m.sender === `bot_${botId}` && m.attributes?.inReplyTo === messageId);
    await eventually(async () => answersTo(await messagesOf(), stalled).length > 0, 30_000);

    // The conversation goes on live; the recovered message keeps its single answer.
    const next = await send(second, projectId, visitorToken, requestId, { text: 'are you there?' });
    expect(next.status).toBe(200);
    const messages = await eventually(async () => {
      const all = await messagesOf();
      const asked = all.find((m) => m.text === 'are you there?');
      return asked && answersTo(all, asked._id).length > 0 ? all : undefined;
    }, 30_000);
    expect(answersTo(messages, stalled)).toHaveLength(1);
  }, 180_000);
});
