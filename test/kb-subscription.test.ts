import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { html, startSite, type FakeSite } from './helpers/kb-fixtures.js';

// Indexing progress as a client follows it: the kbIndexing subscription over graphql-ws.

let node: Awaited<ReturnType<typeof createTestServer>>;
let t: TestApp;
let p: SeededProject;
let site: FakeSite;
const clients: Client[] = [];
beforeAll(async () => {
  site = await startSite();
  node = await createTestServer({ OUTBOUND_ALLOW_PRIVATE: 'true' });
  t = node.client;
  p = await t.seedProject();
});
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await t.close();
  await site.close();
});

interface IndexingEvent {
  seq: number;
  name: string;
  content_id: string;
  namespace: string;
  status: number | null;
  error: string | null;
  chunks: number | null;
}

// after: 0 replays the namespace's events from the start, so nothing depends on when the server takes the subscription.
const query = `subscription($project: String!, $namespace: String!) {
  kbIndexing(project_id: $project, namespace: $namespace, after: 0) { seq name content_id namespace status error chunks }
}`;

function connect(token: string) {
  const client = createClient({
    url: `${node.server.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: token },
  });
  clients.push(client);
  return client;
}

/** Collects events until `until` says the last one ends the story (bounded by the test timeout). */
function follow(namespace: string, until: (event: IndexingEvent) => boolean, token = p.admin.token) {
  const events: IndexingEvent[] = [];
  let finished = false;
  const done = new Promise<IndexingEvent[]>((resolve, reject) => {
    const dispose = connect(token).subscribe<{ kbIndexing: IndexingEvent }>(
      { query, variables: { project: p.projectId, namespace } },
      {
        next: (value) => {
          if (value.errors) return reject(new Error(JSON.stringify(value.errors)));
          if (finished) return;
          events.push(value.data!.kbIndexing);
          if (until(value.data!.kbIndexing)) {
            finished = true;
            dispose();
            resolve(events);
          }
        },
        error: (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
        complete: () => resolve(events),
      },
    );
  });
  return { done };
}

async function newNamespace(name: string) {
  return (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name } })).body.id as string;
}

describe('subscription kbIndexing', () => {
  it('follows a content from -1 through 100 and 200 to 300, then reports it indexed', async () => {
    const namespace = await newNamespace('Followed');
    const other = await newNamespace('Other');
    const watch = follow(namespace, (e) => e.name === 'kb.content.indexed');
    await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: { namespace: other, type: 'text', content: 'Not followed.' } });
    const created = await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: { namespace, type: 'text', content: 'Followed text.' } });
    const events = await watch.done;
    expect(events.every((e) => e.namespace === namespace && e.content_id === created.body.value._id)).toBe(true);
    expect(events.map((e) => [e.name, e.status])).toEqual([
      ['kb.content.status', -1],
      ['kb.content.status', 100],
      ['kb.content.status', 200],
      ['kb.content.status', 300],
      ['kb.content.indexed', null],
    ]);
    expect(events.at(-1)!.chunks).toBe(1);
    for (let i = 1; i < events.length; i++) expect(events[i].seq).toBeGreaterThan(events[i - 1].seq);
  });

  it('shows a retry going back to 100 with the reason, then 300', async () => {
    const namespace = await newNamespace('Retried');
    site.serve('/flaky', (_req, count) => (count === 1 ? { status: 502, body: 'bad gateway' } : { body: html('Ok', '<p>Fine now.</p>') }));
    const watch = follow(namespace, (e) => e.status === 300 || e.status === 400);
    await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: { namespace, type: 'url', source: `${site.url}/flaky` } });
    const events = await watch.done;
    expect(events.map((e) => e.status)).toEqual([-1, 100, 200, 100, 200, 300]);
    expect(events[3].error).toMatch(/attempt 1 of 3 failed: .*answered 502; retrying/);
  });

  it('ends a failed content in 400 with its error', async () => {
    const namespace = await newNamespace('Failing');
    const watch = follow(namespace, (e) => e.status === 300 || e.status === 400);
    await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: { namespace, type: 'url', source: `${site.url}/gone` } });
    const events = await watch.done;
    expect(events.map((e) => e.status)).toEqual([-1, 100, 200, 400]);
    expect(events.at(-1)!.error).toMatch(/answered 404/);
  });

  it('refuses an agent', async () => {
    const namespace = await newNamespace('Private');
    const watch = follow(namespace, () => true, p.agent.token);
    await expect(watch.done).rejects.toThrow(/FORBIDDEN|not allow/);
  });
});
