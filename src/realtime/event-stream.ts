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

interface FeedListener {
  /** When set, the listener hears only the events of this request (`payload.request_id`). */
  requestId?: string;
  event(event: LoggedEvent): void;
  fail(error: unknown): void;
}

type Deps = { db: Db; bus: EventBus; eventLog: EventLog };

/**
 * One node's view of a project's events, in sequence order with no gap and no duplicate: live
 * from the bus, and from the event log whenever the bus skipped a number (a lost message, a
 * reconnect). Shared by every subscription of the project on this node, which filter it
 * synchronously: an event costs one ordering step here, not one per subscriber; and a listener of
 * one request is only called for that request's events.
 */
class ProjectFeed {
  private last = 0;
  private ready = false;
  private readonly started: Promise<number>;
  private chain: Promise<void> = Promise.resolve();
  private listeners = new Set<FeedListener>();
  /** Listeners of one request each, by request (also in `listeners`). */
  private byRequest = new Map<string, Set<FeedListener>>();
  /** Listeners of every event of the project. */
  private everything = new Set<FeedListener>();
  /** Live events that arrived ahead of a missing one, by sequence. */
  private early = new Map<number, LoggedEvent>();
  private gapTimer: NodeJS.Timeout | null = null;
  private unsubscribe: () => void;
  private unwatchGaps: () => void;

  constructor(
    private deps: Deps,
    private projectId: string,
    private onIdle: () => void,
  ) {
    this.unsubscribe = deps.bus.subscribe(projectChannel(projectId), (message) => {
      const event = message as unknown as LoggedEvent;
      this.enqueue(async () => {
        if (event.seq <= this.last) return;
        this.early.set(event.seq, event);
        this.drain();
        if (this.early.size && !this.gapTimer) this.gapTimer = setTimeout(() => this.fillGap(), reorderWindowMs);
      });
    });
    this.unwatchGaps = deps.bus.onGap(() => this.enqueue(() => this.backfill()));
    this.started = new Promise<number>((resolve, reject) => {
      this.enqueue(async () => {
        const project = await deps.db.project
          .findUnique({ where: { id: projectId }, select: { eventSeq: true } })
          .catch((error: unknown) => {
            reject(error);
            throw error;
          });
        this.last = Number(project?.eventSeq ?? 0);
        this.ready = true;
        resolve(this.last);
        this.drain();
      });
    });
    this.started.catch(() => undefined);
  }

  /** Adds a listener; resolves with the sequence number after which it receives every event. */
  add(listener: FeedListener): Promise<number> {
    this.listeners.add(listener);
    if (listener.requestId === undefined) this.everything.add(listener);
    else {
      let set = this.byRequest.get(listener.requestId);
      if (!set) this.byRequest.set(listener.requestId, (set = new Set()));
      set.add(listener);
    }
    return this.ready ? Promise.resolve(this.last) : this.started;
  }

  remove(listener: FeedListener) {
    this.listeners.delete(listener);
    this.everything.delete(listener);
    if (listener.requestId !== undefined) {
      const set = this.byRequest.get(listener.requestId);
      set?.delete(listener);
      if (set && !set.size) this.byRequest.delete(listener.requestId);
    }
    if (!this.listeners.size) this.close();
  }

  private enqueue(step: () => Promise<void>) {
    this.chain = this.chain.then(step).catch((error) => {
      for (const listener of this.listeners) listener.fail(error);
      this.close();
    });
  }

  private deliver(event: LoggedEvent) {
    this.last = event.seq;
    for (const listener of this.everything) listener.event(event);
    const requestId = event.payload.request_id;
    if (typeof requestId === 'string') {
      const listeners = this.byRequest.get(requestId);
      if (listeners) for (const listener of listeners) listener.event(event);
    }
  }

  private drain() {
    if (!this.ready) return;
    while (this.early.has(this.last + 1)) {
      const event = this.early.get(this.last + 1)!;
      this.early.delete(event.seq);
      this.deliver(event);
    }
    for (const seq of this.early.keys()) if (seq <= this.last) this.early.delete(seq);
  }

  private async backfill() {
    if (!this.ready) return;
    for (;;) {
      const events = await readAfter(this.deps.eventLog, this.projectId, this.last);
      for (const event of events) if (event.seq > this.last) this.deliver(event);
      if (events.length < 500) break;
    }
    this.drain();
  }

  private fillGap() {
    this.gapTimer = null;
    this.enqueue(async () => {
      if (this.early.size) await this.backfill();
    });
  }

  private closed = false;
  private close() {
    if (this.closed) return;
    this.closed = true;
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.unsubscribe();
    this.unwatchGaps();
    this.onIdle();
  }
}

const feeds = new WeakMap<EventLog, Map<string, ProjectFeed>>();

function feedOf(deps: Deps, projectId: string): ProjectFeed {
  let byProject = feeds.get(deps.eventLog);
  if (!byProject) feeds.set(deps.eventLog, (byProject = new Map()));
  let feed = byProject.get(projectId);
  if (!feed) {
    const created = new ProjectFeed(deps, projectId, () => {
      if (byProject.get(projectId) === created) byProject.delete(projectId);
    });
    byProject.set(projectId, (feed = created));
  }
  return feed;
}

/**
 * A project's events accepted by `accept`, in sequence order, with no gap and no duplicate:
 * from the event log after `after` when the caller resumes, then live from the project's feed.
 * With `requestId`, the live feed calls the stream only for that request's events
 * (`payload.request_id`); `accept` must refuse the others, which the log may still give.
 */
export function projectEventStream(
  deps: Deps,
  projectId: string,
  after: number | null | undefined,
  accept: (event: LoggedEvent) => boolean | Promise<boolean> = () => true,
  requestId?: string,
) {
  return new Repeater<LoggedEvent>(async (push, stop) => {
    let last = 0;
    let live = false;
    const held: LoggedEvent[] = [];
    // Accepted events go out one at a time, in order, each waiting for the consumer.
    let chain: Promise<void> = Promise.resolve();
    const deliver = (event: LoggedEvent) => {
      if (event.seq <= last) return;
      last = event.seq;
      const accepted = accept(event);
      if (accepted === false) return;
      chain = chain
        .then(async () => {
          if (await accepted) await push(event);
        })
        .catch((error) => stop(error));
    };
    const feed = feedOf(deps, projectId);
    const listener: FeedListener = {
      requestId,
      event: (event) => (live ? deliver(event) : held.push(event)),
      fail: (error) => stop(error),
    };
    const start = feed.add(listener);
    try {
      last = await start;
      if (after != null && after < last) {
        // Resuming: what was missed comes from the log; live events wait meanwhile.
        last = after;
        for (;;) {
          const events = await readAfter(deps.eventLog, projectId, last);
          for (const event of events) deliver(event);
          if (events.length < 500) break;
        }
      } else if (after != null) {
        last = Math.max(last, after);
      }
      live = true;
      for (const event of held.splice(0)) deliver(event);
    } catch (error) {
      stop(error);
    }
    await stop;
    feed.remove(listener);
  });
}
