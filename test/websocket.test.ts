import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { productionMode } from './helpers/environment.js';
import { rawSocket } from './helpers/raw-socket.js';

let node: Awaited<ReturnType<typeof createTestServer>>;
let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  node = await createTestServer();
  t = node.client;
  p = await t.seedProject();
});
afterAll(() => t.close());

function connect(url: string, token?: string, onClose?: (code: number) => void): Client {
  return createClient({
    url: url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: token ? { authorization: token } : {},
    // The refused connection is expected; graphql-ws would print it.
    onNonLazyError: () => {},
    on: { closed: (event) => onClose?.((event as { code: number }).code) },
  });
}

// Resolves with what arrived once `count` values have matched `wanted` (by default, every value).
function take<T>(client: Client, query: string, variables: Record<string, unknown>, count: number, wanted: (value: T) => boolean = () => true) {
  const received: T[] = [];
  let dispose = () => {};
  const done = new Promise<T[]>((resolve, reject) => {
    dispose = client.subscribe<T>(
      { query, variables },
      {
        next: (value) => {
          if (value.errors) reject(new Error(JSON.stringify(value.errors)));
          if (!wanted(value.data as T)) return;
          received.push(value.data as T);
          if (received.length === count) resolve(received);
        },
        error: (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
        complete: () => {},
      },
    );
  });
  return { done, dispose: () => dispose() };
}

const eventsQuery = 'subscription($id: String!, $after: Int) { projectEvents(project_id: $id, after: $after) { seq name subject } }';

describe('graphql-ws', () => {
  it('closes the socket with 4403 for a bad token', async () => {
    const code = await new Promise<number>((resolve) => {
      const client = connect(node.server.url, 'JWT not-a-token', resolve);
      client.subscribe({ query: '{ __typename }' }, { next: () => {}, error: () => {}, complete: () => {} });
    });
    expect(code).toBe(4403);
  });

  it('applies the same role rules as HTTP', async () => {
    const client = connect(node.server.url, p.user.token);
    const { done } = take(client, eventsQuery, { id: p.projectId }, 1);
    await expect(done).rejects.toThrow(/FORBIDDEN|role/);
    await client.dispose();
  });

  it('delivers a teammate change to a subscribed agent', async () => {
    const client = connect(node.server.url, p.agent.token);
    // The agent's own presence change (going online on connect) may arrive too: wait for the admin's change.
    const sub = take<{ projectEvents: { name: string; subject: string } }>(client, eventsQuery, { id: p.projectId }, 1, (data) => data.projectEvents.subject === p.admin.teammateId);
    // The subscription starts asynchronously: poll with changes until one arrives.
    const pokes: Promise<unknown>[] = [];
    const poke = setInterval(
      () => pokes.push(t.put(`/v3/${p.projectId}/project_users/`, { token: p.admin.token, body: { attributes: { at: Date.now() } } })),
      50,
    );
    const [event] = await sub.done.finally(() => clearInterval(poke));
    await Promise.all(pokes);
    expect(event.projectEvents).toMatchObject({ name: 'project_user.update', subject: p.admin.teammateId });
    await client.dispose();
  });

  it('replays what a reconnecting client missed after the sequence it had', async () => {
    const history = await t.infra.eventLog.readAfter(p.projectId, 0, 10_000);
    const last = history.at(-1)!.seq;
    await t.put(`/v3/${p.projectId}/project_users/`, { token: p.agent.token, body: { attributes: { missed: 1 } } });
    await t.put(`/v3/${p.projectId}/project_users/`, { token: p.agent.token, body: { attributes: { missed: 2 } } });
    const client = connect(node.server.url, p.agent.token);
    const sub = take<{ projectEvents: { seq: number } }>(client, eventsQuery, { id: p.projectId, after: last }, 2);
    const events = await sub.done;
    // Sequence numbers run on from the one the client had, with no gap.
    expect(events.slice(0, 2).map((e) => e.projectEvents.seq)).toEqual([last + 1, last + 2]);
    await client.dispose();
  });
});

describe('a bad subscribe message', () => {
  /** An agent's socket with one working subscription ("live") that a teammate change reaches. */
  async function socketWithLiveSubscription() {
    const socket = await rawSocket(node.server.url, p.agent.token);
    socket.subscribe('live', eventsQuery, { id: p.projectId });
    return socket;
  }

  /** Changes a teammate until the socket's "live" subscription has heard of it. */
  async function liveStillDelivers(socket: Awaited<ReturnType<typeof rawSocket>>) {
    const before = socket.of('live').length;
    const pokes: Promise<unknown>[] = [];
    const poke = setInterval(
      () => pokes.push(t.put(`/v3/${p.projectId}/project_users/`, { token: p.admin.token, body: { attributes: { at: Date.now() } } })),
      50,
    );
    try {
      await socket.waitFor((m) => m.id === 'live' && m.type === 'next' && socket.of('live').indexOf(m) >= before);
    } finally {
      clearInterval(poke);
      await Promise.all(pokes);
    }
  }

  it('with a syntax error gets an error for that operation only, and the socket goes on', async () => {
    const socket = await socketWithLiveSubscription();
    socket.subscribe('broken', 'subscription { projectEvents(project_id: ');
    const answer = await socket.waitFor((m) => m.id === 'broken');
    expect(answer.type).toBe('error');
    expect(answer.payload[0].message).toMatch(/Syntax Error/);
    await liveStillDelivers(socket);
    expect(socket.closed).toBeNull();
    socket.close();
  });

  it('over the alias limit gets an error for that operation only, and the socket goes on', async () => {
    const socket = await socketWithLiveSubscription();
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: seq`).join(' ');
    socket.subscribe('greedy', `subscription($id: String!) { projectEvents(project_id: $id) { ${aliases} } }`, { id: p.projectId });
    const answer = await socket.waitFor((m) => m.id === 'greedy');
    expect(answer.type).toBe('error');
    expect(answer.payload[0].message).toMatch(/alias/i);
    await liveStillDelivers(socket);
    expect(socket.closed).toBeNull();
    socket.close();
  });

  it('over the cost limit gets an error for that operation only, and the socket goes on', async () => {
    const socket = await socketWithLiveSubscription();
    // Each fragment selects the one before twice: a short document that expands to 2^12 selections.
    const fragments = Array.from({ length: 12 }, (_, i) => `fragment F${i + 1} on DomainEvent { ...F${i} ...F${i} }`).join(' ');
    socket.subscribe(
      'costly',
      `subscription($id: String!) { projectEvents(project_id: $id) { ...F12 } } fragment F0 on DomainEvent { seq name subject } ${fragments}`,
      { id: p.projectId },
    );
    const answer = await socket.waitFor((m) => m.id === 'costly');
    expect(answer.type).toBe('error');
    expect(answer.payload[0].message).toMatch(/cost/i);
    await liveStillDelivers(socket);
    expect(socket.closed).toBeNull();
    socket.close();
  });
});

describe.skipIf(!productionMode)('two nodes sharing PostgreSQL and Redis', () => {
  it('a subscriber on node A receives an event caused on node B', async () => {
    const b = await createTestServer({}, { databaseUrl: node.config.databaseUrl, prefix: node.config.redisPrefix });
    try {
      const client = connect(node.server.url, p.agent.token);
      // The agent's own socket marks them online (project_user.presence), written once the socket is open.
      const sub = take<{ projectEvents: { name: string } }>(client, eventsQuery, { id: p.projectId }, 1, (v) => v.projectEvents.name !== 'project_user.presence');
      // Changes on node B until the subscription on node A has seen one; all answered before B stops.
      const pokes: Promise<unknown>[] = [];
      const poke = setInterval(
        () => pokes.push(b.client.put(`/v3/${p.projectId}/project_users/`, { token: p.admin.token, body: { attributes: { node: 'b' } } })),
        50,
      );
      const [event] = await sub.done.finally(() => clearInterval(poke));
      await Promise.all(pokes);
      expect(event.projectEvents.name).toBe('project_user.update');
      await client.dispose();
    } finally {
      await b.server.close();
    }
  });
});
