import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../src/infra/event-log.js';
import { projectChannel } from '../src/infra/event-log.js';
import { projectEventStream } from '../src/realtime/event-stream.js';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually } from './helpers/conversations.js';
import { connect, subscribe } from './helpers/realtime.js';

// Resuming with `after` replays what the client missed, within bounds: at most
// REALTIME_REPLAY_MAX_EVENTS events back (4,000 here), paced so that replays cannot stall the node.

let t: TestApp;
let url: string;
beforeAll(async () => {
  const started = await createTestServer({ REALTIME_REPLAY_MAX_EVENTS: '4000' });
  t = started.client;
  url = started.server.url;
});
const clients: Array<{ dispose(): unknown }> = [];
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await t.close();
});

const eventsQuery = 'subscription($p: String!, $after: Int) { projectEvents(project_id: $p, after: $after) { seq } }';

/** Appends `count` events to the project's log, as committed history; answers the last seq. */
async function appendHistory(projectId: string, count: number): Promise<number> {
  const rows = await t.infra.database.prisma.$queryRawUnsafe<Array<{ last: bigint }>>(
    `WITH s AS (UPDATE "Project" SET "eventSeq" = "eventSeq" + $2::int WHERE id = $1 RETURNING "eventSeq" - $2::int AS before),
     added AS (INSERT INTO "DomainEvent" ("id", "id_project", "seq", "name", "subject", "payload", "createdAt")
       SELECT 'history-' || $1 || '-' || (s.before + g), $1, s.before + g, 'lead.update', 'lead', '{}'::jsonb, now()
       FROM s, generate_series(1, $2::int) g RETURNING "seq")
     SELECT max("seq") AS last FROM added`,
    projectId,
    count,
  );
  const last = Number(rows[0].last);
  // Published as a commit is: the nodes' project feeds learn how far the log goes.
  const [event] = await t.infra.eventLog.readAfter(projectId, last - 1, 1);
  await t.infra.eventLog.publish(event);
  return last;
}

const open = (token: string) => {
  const socket = connect(url, token);
  clients.push(socket.client);
  return socket.client;
};

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('resuming with after', () => {
  let p: SeededProject;
  beforeAll(async () => {
    p = await t.seedProject();
  });

  it('replays what was missed in full and in order, across pages, then goes on live', async () => {
    const last = await appendHistory(p.projectId, 450);
    const after = last - 450;
    const sub = subscribe<{ seq: number }>(open(p.agent.token), eventsQuery, { p: p.projectId, after });
    await sub.take(450);
    await t.put(`/v3/${p.projectId}/project_users/`, { token: p.owner.token, body: { attributes: { live: true } } });
    const events = await sub.take(451);
    expect(events.map((e) => e.seq)).toEqual(range(after + 1, after + 451));
    sub.stop();
  });

  it('refuses to replay further back than REALTIME_REPLAY_MAX_EVENTS, with BAD_USER_INPUT naming after', async () => {
    const last = await appendHistory(p.projectId, 4100);
    const refused = subscribe(open(p.agent.token), eventsQuery, { p: p.projectId, after: last - 4001 });
    const [error] = (await refused.failure()) as Array<{ message: string; extensions: { code: string; field: string } }>;
    expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    expect(error.message).toMatch(/at most 4000/);
    const accepted = subscribe<{ seq: number }>(open(p.agent.token), eventsQuery, { p: p.projectId, after: last - 4000 });
    expect((await accepted.take(1))[0].seq).toBe(last - 3999);
    accepted.stop();
  });

  it('misses nothing when more live events arrive during a replay than it holds back', async () => {
    const last = await appendHistory(p.projectId, 300);
    const { prisma } = t.infra.database;
    const stream = projectEventStream({ db: prisma, bus: t.infra.bus, eventLog: t.infra.eventLog }, p.projectId, last - 300);
    const iterator = stream[Symbol.asyncIterator]();
    const received = [(await iterator.next()).value as LoggedEvent];
    // 250 events committed while the replay waits for its reader: more than a page is held back.
    let published = 0;
    const unsubscribe = t.infra.bus.subscribe(projectChannel(p.projectId), () => void published++);
    await t.infra.eventLog.transaction(async (_tx, emit) => {
      for (let i = 0; i < 250; i++) await emit({ projectId: p.projectId, name: 'lead.update', subject: `live-${i}` });
    });
    await eventually(async () => published >= 250);
    unsubscribe();
    await new Promise((resolve) => setImmediate(resolve));
    while (received.length < 550) received.push((await iterator.next()).value as LoggedEvent);
    await iterator.return?.();
    expect(received.map((e) => e.seq)).toEqual(range(last - 299, last + 250));
  });

  it('keeps the node answering while twenty subscriptions replay a whole history of 2,000 events', async () => {
    const q = await t.seedProject('Replayed');
    await appendHistory(q.projectId, 2000);
    const received: number[] = [];
    const failures: unknown[] = [];
    for (let socket = 0; socket < 2; socket++) {
      const client = open(q.agent.token);
      for (let i = 0; i < 10; i++) {
        const index = received.push(0) - 1;
        client.subscribe(
          { query: eventsQuery, variables: { p: q.projectId, after: 0 } },
          { next: (result) => (result.errors ? failures.push(result.errors) : received[index]++), error: (e) => failures.push(e), complete: () => {} },
        );
      }
    }
    // The node goes on answering while the replays run: health checks are answered in between,
    // not after them (how long each waited is measured by `npm run bench realtime`, not here).
    let answeredDuringReplay = 0;
    const deadline = Date.now() + 25_000;
    while (Math.min(...received) < 2000 && !failures.length && Date.now() < deadline) {
      expect((await fetch(`${url}/health`)).status).toBe(200);
      if (Math.min(...received) < 2000) answeredDuringReplay++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(failures).toEqual([]);
    expect(Math.min(...received)).toBeGreaterThanOrEqual(2000);
    expect(answeredDuringReplay).toBeGreaterThanOrEqual(3);
  });
});
