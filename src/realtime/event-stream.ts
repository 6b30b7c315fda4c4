import { Repeater } from 'graphql-yoga';
import type { Db } from '../infra/database.js';
import type { EventBus } from '../infra/event-bus.js';
import { badInput } from '../errors.js';
import { projectChannel, type EventLog, type LoggedEvent } from '../infra/event-log.js';
import { replayPagesOf } from './replay-pages.js';

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

/** What the streams read, from the infrastructure a resolver has. */
export interface EventSources {
  database: { prisma: Db };
  bus: EventBus;
  eventLog: EventLog;
}

const depsOf = (infra: EventSources): Deps => ({ db: infra.database.prisma, bus: infra.bus, eventLog: infra.eventLog });

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

  /** The sequence number the feed has reached, once it has started. */
  get position(): number | undefined {
    return this.ready ? this.last : undefined;
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
 * Calls `listener` with every event of the project from now on, in order (the project's shared
 * feed); `fail` if the feed cannot go on. Returns the function that stops it.
 */
export function watchProject(infra: EventSources, projectId: string, listener: Omit<FeedListener, 'requestId'>): () => void {
  const feed = feedOf(depsOf(infra), projectId);
  const entry: FeedListener = { event: (event) => listener.event(event), fail: (error) => listener.fail(error) };
  void feed.add(entry).catch(() => undefined);
  return () => feed.remove(entry);
}

/** Where a stream starts: after a sequence number, or (none) at the project's position when it goes live. */
type StartingPoint = number | null | undefined | Promise<number | undefined>;

/**
 * A project's events for a subscription that arrives now, opened in two steps: this call, before
 * the subscription's checks, fixes where it starts (`startingPoint`); `stream` once they pass.
 */
export function projectEvents(infra: EventSources, projectId: string, after: number | null | undefined) {
  const deps = depsOf(infra);
  const from = startingPoint(deps, projectId, after);
  return {
    stream: (accept?: (event: LoggedEvent) => boolean | Promise<boolean>, requestId?: string) =>
      projectEventStream(deps, projectId, from, accept, requestId),
  };
}

/**
 * Where a subscription that arrives now starts: after `after` when the client resumes; else after
 * the project's position at this moment, not when the subscription goes live. A subscription's
 * checks (the caller's membership, the request it follows) take a while, and an event committed
 * meanwhile would be missed by a client that read the current state right after subscribing (a
 * visitor's widget would never show an agent's quick answer); from here it is replayed from the
 * log. Never fails: when the position cannot be read, the stream starts where it goes live.
 */
function startingPoint(deps: Deps, projectId: string, after: number | null | undefined): StartingPoint {
  if (after != null) return after;
  const live = feeds.get(deps.eventLog)?.get(projectId)?.position;
  if (live !== undefined) return live;
  return deps.db.project.findUnique({ where: { id: projectId }, select: { eventSeq: true } }).then(
    (project) => (project ? Number(project.eventSeq) : undefined),
    () => undefined,
  );
}

/**
 * A project's events accepted by `accept`, in sequence order, with no gap and no duplicate:
 * from the event log after `from` (see `startingPoint`), then live from the project's feed.
 * With `requestId`, the live feed calls the stream only for that request's events
 * (`payload.request_id`); `accept` must refuse the others, which the log may still give.
 * A resume further back than the node's replay bound is refused (BAD_USER_INPUT naming `after`):
 * the client reads the current state instead, and nothing is missed without it knowing.
 */
export function projectEventStream(
  deps: Deps,
  projectId: string,
  from: StartingPoint,
  accept: (event: LoggedEvent) => boolean | Promise<boolean> = () => true,
  requestId?: string,
) {
  return new Repeater<LoggedEvent>(async (push, stop) => {
    const after = await from;
    let last = 0;
    let live = false;
    let stopped = false;
    void stop.then(() => (stopped = true));
    const pages = replayPagesOf(deps.eventLog);
    const { maxEvents, page } = pages.bounds;
    // Live events that arrive while the log is replayed; past a page's worth they are dropped and
    // read from the log instead (they are committed before they are published), so a client that
    // stops reading holds no more than that.
    let held: LoggedEvent[] = [];
    let droppedHeld = false;
    // Accepted events go out one at a time, in order, each waiting for the consumer.
    let chain: Promise<void> = Promise.resolve();
    const deliver = (event: LoggedEvent) => {
      if (event.seq <= last) return;
      last = event.seq;
      const accepted = accept(event);
      if (accepted === false) return;
      chain = chain
        .then(async () => {
          // Replayed events share the event loop with every other replay of the node.
          if (!live) await pages.pace();
          if (await accepted) await push(event);
        })
        .catch((error) => stop(error));
    };
    const feed = feedOf(deps, projectId);
    const listener: FeedListener = {
      requestId,
      event: (event) => {
        if (live) return deliver(event);
        if (held.length < page) held.push(event);
        else {
          held = [];
          droppedHeld = true;
        }
      },
      fail: (error) => stop(error),
    };
    const start = feed.add(listener);
    try {
      last = await start;
      if (after != null && after < 0) throw badInput('after', 'after: must be a sequence number (0 or more)');
      if (after != null && after < last) {
        if (last - after > maxEvents) {
          throw badInput(
            'after',
            `after: ${last - after} events of the project followed it; a subscription replays at most ${maxEvents}: read the current state, then subscribe without \`after\``,
          );
        }
        // Resuming: what was missed comes from the log, a page at a time, each once the client has
        // taken the one before; live events wait meanwhile.
        last = after;
        for (;;) {
          const from = last;
          const events = await pages.read(projectId, from);
          for (const event of events) deliver(event);
          await chain;
          if (stopped) break;
          // A page short of its boundary: the log has nothing more yet.
          if (events.length < page - (from % page)) {
            if (!droppedHeld) break;
            droppedHeld = false;
          }
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

/**
 * `stream`'s events mapped by `map` (undefined: left out), in order. Closing the result closes
 * `stream` at once, where an async generator would wait for its next event first.
 */
export function mapEvents<T>(stream: Repeater<LoggedEvent>, map: (event: LoggedEvent) => Promise<T | undefined>): Repeater<T> {
  return new Repeater<T>(async (push, stop) => {
    void stop.then(() => stream.return());
    try {
      for await (const event of stream) {
        const value = await map(event);
        if (value !== undefined) await push(value);
      }
      stop();
    } catch (error) {
      stop(error);
    }
  });
}
