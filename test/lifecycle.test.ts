import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serviceDataDir } from './helpers/data-dir.js';
import { createTestDatabase, productionMode, redisUrl, uniqueName } from './helpers/environment.js';

// The service as an operator runs it: `npm start` in its own process, stopped with real signals.
// One test goes through npm itself; the others run what its script runs, as npm would.

const root = path.resolve(import.meta.dirname, '..');

interface Service {
  /** `npm start`, or node itself (the script execs it). */
  process: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output(): string;
}

/** What `npm start` runs (its script, which execs node), for the services not started through npm. */
const startScript = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start as string;

/**
 * Starts the service: through `npm start` (which must hand the signals to node), or with the
 * command its script runs; `finished` registers what ends it once its test is over.
 */
async function startService(env: Record<string, string>, finished: (cleanup: () => Promise<void>) => void, how: 'npm start' | 'its script' = 'its script'): Promise<Service> {
  const dataDir = await serviceDataDir('sp-lifecycle-');
  const database = productionMode ? await createTestDatabase() : undefined;
  const [command, args] = how === 'npm start' ? ['npm', ['start']] : ['sh', ['-c', startScript]];
  const child = spawn(command, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
      BCRYPT_ROUNDS: '4',
      ...(database ? { DATABASE_URL: database.url, REDIS_URL: redisUrl!, REDIS_PREFIX: uniqueName('splife') } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  finished(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const deadline = Date.now() + 150_000;
  let url: string | undefined;
  while (!url) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the service did not start:\n${output}`);
    url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.[1];
    await new Promise((r) => setTimeout(r, 50));
  }
  return { process: child, url, exited, output: () => output };
}

/** Whether the address still accepts TCP connections. */
function accepts(url: string): Promise<boolean> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A GraphQL POST whose body is sent in two parts: the request is in flight until `finish`. */
function requestInFlight(url: string) {
  const req: ClientRequest = httpRequest(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  req.write('{"query":');
  req.flushHeaders();
  return { answered, finish: () => req.end('"{ __typename }"}'), req };
}

const statusOf = async (url: string) => (await fetch(url)).status;

async function waitForOutput(service: Service, text: string) {
  await until(async () => service.output().includes(text), `"${text}" in the output`);
}

// The three run at once: each mostly waits for its own process.
describe.concurrent('npm start as a service', () => {
  it(
    'serves, logs one line per request without secrets, and on SIGTERM answers /ready with 503, stops accepting, finishes the request in flight and exits 0',
    async ({ onTestFinished }) => {
      const service = await startService({ SHUTDOWN_DELAY_MS: '1500', SHUTDOWN_TIMEOUT_MS: '30000' }, onTestFinished, 'npm start');
      expect((await fetch(`${service.url}/health`)).status).toBe(200);
      expect(await statusOf(`${service.url}/ready`)).toBe(200);
      const json = { 'content-type': 'application/json' };
      const password = 'very secret password';
      await fetch(`${service.url}/v3/auth/signup`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'log@example.test', password }) });
      const signin = await (await fetch(`${service.url}/v3/auth/signin`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'log@example.test', password }) })).json();
      await fetch(`${service.url}/v3/projects?token=abc`, { headers: { authorization: signin.token } });
      await waitForOutput(service, '"path":"/v3/projects"');
      const line = JSON.parse(service.output().split('\n').find((l) => l.includes('"path":"/v3/projects"'))!);
      expect(line).toMatchObject({ method: 'GET', path: '/v3/projects', status: 200 });
      expect(typeof line.ms).toBe('number');
      expect(service.output()).not.toContain(password);
      expect(service.output()).not.toContain(signin.token.slice(4));

      const inFlight = requestInFlight(service.url);

      service.process.kill('SIGTERM');
      await until(async () => (await statusOf(`${service.url}/ready`)) === 503, '/ready to answer 503');
      await until(async () => !(await accepts(service.url)), 'the listener to close');
      inFlight.finish();

      expect(await inFlight.answered).toEqual({ status: 200, body: '{"data":{"__typename":"Query"}}' });
      expect(await service.exited).toBe(0);
      expect(await accepts(service.url)).toBe(false);
    },
    240_000,
  );

  it(
    'on SIGINT closes websockets with 1001 (going away) and exits 0',
    async ({ onTestFinished }) => {
      const service = await startService({}, onTestFinished);
      const socket = new WebSocket(`${service.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
        socket.once('message', () => resolve());
        socket.once('error', reject);
      });
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

      service.process.kill('SIGINT');

      expect(await closed).toBe(1001);
      expect(await service.exited).toBe(0);
      expect(await accepts(service.url)).toBe(false);
    },
    240_000,
  );

  it(
    'a client that stalls mid-request cannot keep the process past SHUTDOWN_TIMEOUT_MS',
    async ({ onTestFinished }) => {
      const service = await startService({ SHUTDOWN_TIMEOUT_MS: '1000' }, onTestFinished);
      const stalled = requestInFlight(service.url);
      const cut = stalled.answered.then(
        () => 'answered',
        () => 'cut',
      );

      const signalled = Date.now();
      service.process.kill('SIGTERM');
      const code = await service.exited;
      const tookMs = Date.now() - signalled;

      expect(await cut).toBe('cut');
      expect(code).toBe(0);
      // The deadline, and the few seconds jobs and stores may take to close after it.
      expect(tookMs).toBeLessThan(1000 + 5000);
      expect(await accepts(service.url)).toBe(false);
    },
    240_000,
  );
});
