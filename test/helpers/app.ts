import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createInfrastructure } from '../../src/infra/index.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { registerJobs } from '../../workers/jobs.js';
import { assertMatchesDocument, responseValidationEnabled } from './openapi-validator.js';
import { inject } from 'vitest';
import { createTestDatabase, productionMode, redisUrl, sharedDatabasePrefix, uniqueName } from './environment.js';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestEnvironment {
  config: Config;
  dispose(): Promise<void>;
}

/** Config for one test app: its own data dir, database (production mode) and Redis prefix. */
export async function testEnvironment(overrides: Record<string, string> = {}, shared?: { databaseUrl?: string; prefix?: string }): Promise<TestEnvironment> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sp-test-'));
  const database = productionMode && !shared?.databaseUrl ? await createTestDatabase() : undefined;
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    BCRYPT_ROUNDS: '4',
    // A failed indexing is tried again after 100 ms and 200 ms rather than 1 s and 2 s.
    KB_INDEX_RETRY_DELAY: '100ms',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: shared?.databaseUrl ?? database?.url,
    REDIS_URL: productionMode ? redisUrl : undefined,
    REDIS_PREFIX: shared?.prefix ?? uniqueName('sptest'),
    ...overrides,
  };
  const config = loadConfig(env);
  return {
    config,
    async dispose() {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export class TestApp {
  constructor(
    readonly app: App,
    private disposeAll: () => Promise<void>,
    readonly baseUrl: string,
  ) {}

  get services() {
    return this.app.services;
  }

  get infra() {
    return this.app.infra;
  }

  async request<T = any>(method: string, urlPath: string, options: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = options.token;
    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      if (options.body instanceof FormData || typeof options.body === 'string') body = options.body as BodyInit;
      else {
        headers['content-type'] ??= 'application/json';
        body = JSON.stringify(options.body);
      }
    }
    const response = await fetch(`${this.baseUrl}${urlPath}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    // Every REST answer a test receives must be what schema/openapi.json says (openapi-validator.ts).
    if (responseValidationEnabled && urlPath.startsWith('/v3/')) assertMatchesDocument({ method, path: urlPath, status: response.status, contentType: response.headers.get('content-type'), body: parsed });
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get = (p: string, o?: RequestOptions) => this.request('GET', p, o);
  post = (p: string, o?: RequestOptions) => this.request('POST', p, o);
  put = (p: string, o?: RequestOptions) => this.request('PUT', p, o);
  patch = (p: string, o?: RequestOptions) => this.request('PATCH', p, o);
  delete = (p: string, o?: RequestOptions) => this.request('DELETE', p, o);

  /** POST /graphql; resolves with the HTTP status and the GraphQL result. */
  gql<T = any>(query: string, variables: Record<string, unknown> = {}, token?: string) {
    return this.request<{ data?: T; errors?: Array<{ message: string; extensions?: { code?: string; field?: string } }> }>(
      'POST',
      '/graphql',
      { token, body: { query, variables } },
    );
  }

  private counter = 0;

  /** Signs up and signs in a new user; returns its token (with the `JWT ` prefix). */
  async newUser(name = 'user') {
    const email = `${name}.${++this.counter}.${Math.random().toString(36).slice(2, 8)}@example.test`;
    const password = 'correct horse battery';
    const account = { email, password, firstname: name, lastname: 'Test' };
    // Setup, not the behaviour under test (auth.test.ts calls these routes): an app in this
    // process signs up and in through its service, a node in another process over HTTP.
    if (this.app) {
      await this.services.accounts.signup(account);
      const { token, user } = await this.services.sessions.signin({ email, password }, '127.0.0.1');
      return { email, password, token, user: { _id: user.id } };
    }
    const signup = await this.post('/v3/auth/signup', { body: account });
    if (signup.status !== 200) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
    const signin = await this.post('/v3/auth/signin', { body: { email, password } });
    return { email, password, token: signin.body.token as string, user: signin.body.user as { _id: string } };
  }

  /**
   * Makes an account a teammate the way a person does: an admin invites its e-mail and the account
   * accepts the invitation. Answers the teammate record.
   */
  async addMember(projectId: string, adminToken: string, account: { email: string; token: string }, role: 'admin' | 'agent' = 'agent') {
    const invited = await this.post(`/v3/${projectId}/project_users/invite`, { token: adminToken, body: { email: account.email, role } });
    if (invited.status !== 200) throw new Error(`invite failed: ${JSON.stringify(invited.body)}`);
    const accepted = await this.post(`/v3/invitations/${invited.body.invitation._id}/accept`, { token: account.token });
    if (accepted.status !== 200) throw new Error(`accept failed: ${JSON.stringify(accepted.body)}`);
    return accepted.body as { _id: string; role: string; [field: string]: any };
  }

  /**
   * A project with one caller per role: owner, admin, agent, user and an anonymous guest.
   * Each has `token`, `userId` and `teammateId`.
   */
  async seedProject(name = 'Acme') {
    // Accounts are made at once (each signs up and in); they join one after another, so teammates
    // keep the order admin, agent, user.
    const [owner, adminAccount, agentAccount, userAccount] = await Promise.all(
      (['owner', 'admin', 'agent', 'user'] as const).map((role) => this.newUser(role)),
    );
    const created = await this.post('/v3/projects', { token: owner.token, body: { name } });
    if (created.status !== 200) throw new Error(`project creation failed: ${JSON.stringify(created.body)}`);
    const projectId = created.body._id as string;
    const member = async (account: typeof owner, role: 'admin' | 'agent' | 'user') => {
      const teammate = await this.addMember(projectId, owner.token, account, role === 'user' ? 'agent' : role);
      if (role === 'user') {
        await this.put(`/v3/${projectId}/project_users/${teammate._id}`, { token: owner.token, body: { role: 'user' } });
      }
      return { ...account, userId: account.user._id, teammateId: teammate._id };
    };
    const admin = await member(adminAccount, 'admin');
    const agent = await member(agentAccount, 'agent');
    const user = await member(userAccount, 'user');
    const anonymous = await this.post('/v3/auth/signinAnonymously', { body: { id_project: projectId, firstname: 'Visitor' } });
    const guestTeammate = await this.services.teammates.getByUser(projectId, anonymous.body.user._id);
    const ownerTeammate = await this.services.teammates.getByUser(projectId, owner.user._id);
    return {
      projectId,
      project: created.body,
      owner: { ...owner, userId: owner.user._id, teammateId: ownerTeammate.id },
      admin,
      agent,
      user,
      guest: { token: anonymous.body.token as string, userId: anonymous.body.user._id as string, teammateId: guestTeammate.id },
    };
  }

  close() {
    return this.disposeAll();
  }
}

export type SeededProject = Awaited<ReturnType<TestApp['seedProject']>>;

/**
 * An app on a fresh database, with jobs running, served over real HTTP on 127.0.0.1 through the
 * same listener as `npm start` (no websockets: see createTestServer).
 */
export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const environment = await testEnvironment(overrides);
  const app = await openApp(environment.config);
  return serveTestApp(app, async () => {
    await app.infra.close();
    await environment.dispose();
  });
}

/** An app with its jobs registered and running (in-memory embedded database, or the config's PostgreSQL). */
async function openApp(config: Config): Promise<App> {
  const infra = await createInfrastructure(config, { inMemory: true });
  const app = buildApp(infra);
  registerJobs(infra.queue, app.services);
  await infra.queue.startWorkers();
  return app;
}

/**
 * One app per worker for the files that need the defaults only and look at nothing beyond their
 * own projects (records, events and logs of projects they seed): opening an app (a database, the
 * schema's routes, the workers) costs about a second of CPU, most of it the embedded database,
 * and most files need no app of their own. It lives as long as its worker (closing it does
 * nothing); its PostgreSQL database goes when the run ends (global-setup.ts). Rate limits are
 * lifted: every file of the worker calls it from 127.0.0.1, and none of them tests the limits.
 */
export function sharedTestApp(): Promise<TestApp> {
  const worker = globalThis as { sharedTestApp?: Promise<TestApp> };
  worker.sharedTestApp ??= (async () => {
    const database = productionMode ? await createTestDatabase(`${sharedDatabasePrefix(inject('runId'))}${process.pid}`) : undefined;
    const environment = await testEnvironment(
      { RATE_LIMIT_REQUESTS: '1000000000', RATE_LIMIT_ANONYMOUS_REQUESTS: '1000000000' },
      database ? { databaseUrl: database.url } : undefined,
    );
    const app = await openApp(environment.config);
    // Closing it stops nothing: the worker's other files use it too.
    const served = await serveTestApp(app, async () => {});
    return new TestApp(app, async () => {}, served.baseUrl);
  })();
  return worker.sharedTestApp;
}

/** Serves an app over HTTP on 127.0.0.1 through the listener `npm start` uses; `close` runs after it stops. */
export async function serveTestApp(app: App, close: () => Promise<void>): Promise<TestApp> {
  const server = createServer(app.listener);
  // Idle connections are closed by the client only (fetch lets one go after 4 s): a server closing
  // them after its 5 s as the client reuses one, which a busy machine makes likely, fails that
  // request with ECONNRESET. They all go when the server stops.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await close();
  };
  return new TestApp(app, stop, `http://127.0.0.1:${port}`);
}

/** A listening server (for websockets and raw HTTP); `shared` lets two nodes use one database and Redis prefix. */
export async function createTestServer(
  overrides: Record<string, string> = {},
  shared?: { databaseUrl?: string; prefix?: string },
): Promise<{ server: RunningServer; client: TestApp; config: Config }> {
  const environment = await testEnvironment(overrides, shared);
  const server = await startServer(environment.config, { inMemory: true });
  // As in serveTestApp: idle connections are closed by the client only.
  server.server.keepAliveTimeout = 0;
  const client = new TestApp(
    server.app,
    async () => {
      await server.close();
      await environment.dispose();
    },
    server.url,
  );
  return { server, client, config: environment.config };
}
