import { Repeater } from 'graphql-yoga';
import type { Db } from '../infra/database.js';
import type { EventBus } from '../infra/event-bus.js';
import { projectChannel, type EventLog, type LoggedEvent } from '../infra/event-log.js';

/**
 * How long a stream waits for a skipped sequence number before reading the log. Concurrent
 * writers commit in sequence order but publish in any order, so a small skip is usually an
 * event still on its way rather than a lost one.
 */
const reorderWindowMs = 50;

/**
 * Reads of the log in flight, shared: when a thousand streams of one project notice the same
 * gap, the node reads the missing events once.
 */
const reads = new WeakMap<EventLog, Map<string, Promise<LoggedEvent[]>>>();

function readAfter(eventLog: EventLog, projectId: string, after: number): Promise<LoggedEvent[]> {
  let inFlight = reads.get(eventLog);
  if (!inFlight) reads.set(eventLog, (inFlight = new Map()));
  const key = `${projectId}:${after}`;
  let read = inFlight.get(key);
  if (!read) {
    read = eventLog.readAfter(projectId, after).finally(() => inFlight.delete(key));
    inFlight.set(key, read);
  }
  return read;
}

/**
 * A project's events in sequence order, with no gap and no duplicate: live from the bus,
 * and from the event log whenever the bus skipped a number (a lost message, a reconnect)
 * or the caller asked to resume `after` a sequence it already has.
 */
export function projectEventStream(
  deps: { db: Db; bus: EventBus; eventLog: EventLog },
  projectId: string,
  after: number | null | undefined,
  accept: (event: LoggedEvent) => boolean | Promise<boolean> = () => true,
) {
  return new Repeater<LoggedEvent>(async (push, stop) => {
    let last = 0;
    let chain: Promise<void> = Promise.resolve();
    const enqueue = (step: () => Promise<void>) => {
      chain = chain.then(step).catch((error) => stop(error));
    };
    const deliver = async (event: LoggedEvent) => {
      last = event.seq;
      if (await accept(event)) await push(event);
    };
    const backfill = async () => {
      for (;;) {
        const events = await readAfter(deps.eventLog, projectId, last);
        for (const event of events) if (event.seq > last) await deliver(event);
        if (events.length < 500) return;
      }
    };

    // Live events that arrived ahead of a missing one, by sequence.
    const early = new Map<number, LoggedEvent>();
    let gapTimer: NodeJS.Timeout | null = null;
    const drain = async () => {
      while (early.has(last + 1)) {
        const event = early.get(last + 1)!;
        early.delete(event.seq);
        await deliver(event);
      }
      for (const seq of early.keys()) if (seq <= last) early.delete(seq);
    };
    const fillGap = () => {
      gapTimer = null;
      enqueue(async () => {
        if (!early.size) return;
        await backfill();
        await drain();
      });
    };

    const unsubscribe = deps.bus.subscribe(projectChannel(projectId), (message) => {
      const event = message as unknown as LoggedEvent;
      enqueue(async () => {
        if (event.seq <= last) return;
        early.set(event.seq, event);
        await drain();
        if (early.size && !gapTimer) gapTimer = setTimeout(fillGap, reorderWindowMs);
      });
    });
    const unwatchGaps = deps.bus.onGap(() =>
      enqueue(async () => {
        await backfill();
        await drain();
      }),
    );

    enqueue(async () => {
      if (after != null) {
        last = after;
        await backfill();
      } else {
        const project = await deps.db.project.findUnique({ where: { id: projectId }, select: { eventSeq: true } });
        last = Number(project?.eventSeq ?? 0);
      }
      await drain();
    });

    await stop;
    if (gapTimer) clearTimeout(gapTimer);
    unsubscribe();
    unwatchGaps();
  });
}
