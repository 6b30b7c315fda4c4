import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventConsumers, type EventConsumer } from '../src/infra/event-consumers.js';
import type { LoggedEvent } from '../src/infra/event-log.js';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { consumerCaughtUp } from './helpers/event-consumers.js';

// The one way committed events reach their consumers: each reads every project's events from its
// own cursor, once, in order, and resumes there after a restart; of two processes woken by the
// same events, one handles each batch (it claims the cursor meanwhile).

let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  t = await createTestApp();
  p = await t.seedProject('Consumers');
});
afterAll(() => t.close());

/** A dispatcher of this app's log, as another process would run it, with `consumer` alone. */
async function dispatcher(consumer: EventConsumer) {
  const consumers = new EventConsumers(t.infra.database.prisma, t.infra.eventLog, t.infra.bus, 50, t.infra.logger);
  consumers.register(consumer);
  return consumers.task().start();
}

/** A consumer that records, per project, the sequence numbers it was handed. */
function recorder(name: string) {
  const seen = new Map<string, number[]>();
  const consumer: EventConsumer = {
    name,
    wants: (event) => event.name === 'tag.create',
    handle: async (projectId, events) => void seen.set(projectId, [...(seen.get(projectId) ?? []), ...events.map((e) => e.seq)]),
  };
  return { consumer, seen };
}

const addTag = async (tag: string) => expect((await t.post(`/v3/${p.projectId}/tags`, { token: p.owner.token, body: { tag } })).status).toBe(200);
const tagSeqs = async () =>
  (await t.infra.database.prisma.domainEvent.findMany({ where: { id_project: p.projectId, name: 'tag.create' }, orderBy: { seq: 'asc' } })).map((e) => Number(e.seq));

describe('event consumers', () => {
  it('hand a consumer the events it wants once and in order, and after a restart only those past its cursor', async () => {
    await addTag('before-start');
    const first = recorder('test-recorder');
    let stop = await dispatcher(first.consumer);
    // Committed while it runs: woken at once, no sweep needed.
    await addTag('while-running');
    await expect.poll(() => consumerCaughtUp(t, 'test-recorder', p.projectId)).toBe(true);
    await stop();
    expect(first.seen.get(p.projectId)).toEqual(await tagSeqs());

    await addTag('while-stopped');
    const second = recorder('test-recorder');
    stop = await dispatcher(second.consumer);
    await expect.poll(() => consumerCaughtUp(t, 'test-recorder', p.projectId)).toBe(true);
    await stop();
    expect(second.seen.get(p.projectId)).toEqual((await tagSeqs()).slice(-1));
  });

  it('handle and write each batch once when two processes read the same events', async () => {
    const handled: string[] = [];
    const written: string[] = [];
    const writer = (): EventConsumer => ({
      name: 'test-writer',
      wants: (event: LoggedEvent) => event.projectId === p.projectId && event.name === 'tag.create',
      handle: async (_projectId, events) => {
        handled.push(...events.map((e) => `${e.seq}`));
        // Slow enough for the other process to try the same batch before this one moves the cursor.
        await new Promise((resolve) => setTimeout(resolve, 30));
        return {
          // Runs only in the transaction that moves the cursor, which one process alone does.
          write: async () => void written.push(...events.map((e) => `${e.seq}`)),
        };
      },
    });
    for (let i = 0; i < 5; i++) await addTag(`twice-${i}`);
    const stops = await Promise.all([dispatcher(writer()), dispatcher(writer())]);
    await expect.poll(() => consumerCaughtUp(t, 'test-writer', p.projectId)).toBe(true);
    await Promise.all(stops.map((stop) => stop()));
    // The other process found the batch claimed: nobody's work was done twice.
    expect(handled).toEqual((await tagSeqs()).map(String));
    expect(written).toEqual((await tagSeqs()).map(String));
  });

  it('leave a batch another process holds, and take it over once that process\'s claim has lapsed', async () => {
    const seen = recorder('test-lease');
    await addTag('leased');
    const claim = (until: string) =>
      t.infra.database.prisma.$executeRawUnsafe(
        `INSERT INTO "EventCursor" ("consumer", "id_project", "seq", "claimedBy", "claimedUntil", "updatedAt")
         VALUES ('test-lease', $1, 0, 'a process that died', LOCALTIMESTAMP + interval '${until}', CURRENT_TIMESTAMP)
         ON CONFLICT ("consumer", "id_project") DO UPDATE SET "claimedBy" = EXCLUDED."claimedBy", "claimedUntil" = EXCLUDED."claimedUntil"`,
        p.projectId,
      );
    // Held for another minute: this process reads nothing of it.
    await claim('1 minute');
    let stop = await dispatcher(seen.consumer);
    await addTag('while-held');
    await stop();
    expect(seen.seen.get(p.projectId)).toBeUndefined();
    expect(await consumerCaughtUp(t, 'test-lease', p.projectId)).toBe(false);

    // The claim lapsed (its process died mid-batch): the next process takes the whole batch.
    await claim('-1 second');
    stop = await dispatcher(seen.consumer);
    await expect.poll(() => consumerCaughtUp(t, 'test-lease', p.projectId)).toBe(true);
    await stop();
    expect(seen.seen.get(p.projectId)).toEqual(await tagSeqs());
  });
});

