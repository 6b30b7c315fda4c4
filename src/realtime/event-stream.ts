import { Repeater } from 'graphql-yoga';
import type { Db } from '../infra/database.js';
import type { EventBus } from '../infra/event-bus.js';
import { projectChannel, type EventLog, type LoggedEvent } from '../infra/event-log.js';

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
        const events = await deps.eventLog.readAfter(projectId, last);
        for (const event of events) await deliver(event);
        if (events.length < 500) return;
      }
    };

    const unsubscribe = deps.bus.subscribe(projectChannel(projectId), (message) => {
      const event = message as unknown as LoggedEvent;
      enqueue(async () => {
        if (event.seq <= last) return;
        if (event.seq === last + 1) await deliver(event);
        else await backfill();
      });
    });
    const unwatchGaps = deps.bus.onGap(() => enqueue(backfill));

    enqueue(async () => {
      if (after != null) {
        last = after;
        await backfill();
      } else {
        const project = await deps.db.project.findUnique({ where: { id: projectId }, select: { eventSeq: true } });
        last = Number(project?.eventSeq ?? 0);
      }
    });

    await stop;
    unsubscribe();
    unwatchGaps();
  });
}
