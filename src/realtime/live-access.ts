import { RequestCache } from '@pothos/plugin-scope-auth';
import { createSourceEventStream, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';
import { buildContext, type Context } from '../context.js';
import { AppError } from '../errors.js';
import type { LoggedEvent } from '../infra/event-log.js';
import type { Services } from '../module.js';
import { EndableStream } from './endable-stream.js';
import { watchProject } from './event-stream.js';
import { rootArguments } from './root-arguments.js';
import { at, tokenExpiry } from './token-expiry.js';
import { membershipChannel, userChannel } from '../modules/auth/channels.js';

// A live subscription holds only while the access it was granted on holds. Each one is checked
// again, as if it were subscribing now (same document, same variables, a new context), whenever
// something that access depends on may have changed, on whichever node changed it:
// - the caller's membership in the subscription's project (`memberships.changed` on the bus);
// - the caller's account (`users.changed`: deleted, renamed, signed out);
// - the project's state (`project.update` of its status, `project.delete` in its event log);
// - its token reaching `exp` (a timer);
// - the request it follows (`request.update`/`close`/`delete` in the project's event log), and the
//   project's departments and groups, which decide which requests an agent sees;
// - any message of the bus possibly lost (a Redis reconnect): every subscription of the node.
// A check that refuses ends the subscription with that error as its last result. Lookups are
// cached for AUTH_CACHE_MS, and a concurrent request may put a copy read before the change back
// into the cache: so each trigger checks at once and once more when any such copy has expired.


/** Events that may take a request, or every request of a department, out of a subscriber's view. */
const requestEvents = new Set(['request.update', 'request.close', 'request.delete']);
const viewEvents = /^(department|group)\./;
/**
 * Request fields no subscription's check reads (who sees a request, whether it exists, its
 * project): a `request.update` of only these (an agent's first answer sets both) checks nothing.
 * Every other update checks, as does one that does not say what it changed.
 */
const accessNeutralFields = new Set(['first_response_at', 'waiting_time']);
const changesAccess = (event: LoggedEvent) =>
  event.name !== 'request.update' || !fieldsOf(event).length || fieldsOf(event).some((field) => !accessNeutralFields.has(String(field)));

/** Checks running at once on a node (each a few lookups). */
const checksAtOnce = 8;
/** Wait before trying a check again that failed for another reason than a refusal (the database away). */
const retryMs = 2000;
/** Refusals that are not about access: try again later rather than end the subscription. */
const transientCodes = new Set(['TOO_MANY_REQUESTS', 'SERVICE_UNAVAILABLE']);

interface LiveOperation {
  args: ExecutionArgs;
  request: Request;
  clientIp: string;
  clientAddress: string | null;
  userId: string | null;
  projectId: string | null;
  requestId: string | null;
  /** When its authorisation began: a change heard after that may have been missed by it. */
  since: number;
  stream: EndableStream;
  checking: boolean;
  again: boolean;
  later: { at: number; timer: NodeJS.Timeout } | null;
  expiry: NodeJS.Timeout | null;
}

interface WatchedProject {
  operations: Set<LiveOperation>;
  /** The operations that follow one request, by request. */
  byRequest: Map<string, Set<LiveOperation>>;
  stop: () => void;
}

const fieldsOf = (event: LoggedEvent) => (Array.isArray(event.payload.fields) ? (event.payload.fields as unknown[]) : []);
const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

export class LiveAccess {
  private byUser = new Map<string, Set<LiveOperation>>();
  private projects = new Map<string, WatchedProject>();
  private all = new Set<LiveOperation>();
  private queue = new Set<LiveOperation>();
  private running = 0;
  private kicked = false;
  /**
   * When each user's access last changed, and when the bus last lost messages: a subscription
   * authorised before such a change and registered after it is checked again at once.
   */
  private lastChange = new Map<string, number>();
  private lastGap = 0;

  constructor(private services: Services) {
    const { bus } = services.infra;
    bus.subscribe(membershipChannel, (m) => {
      const userId = String(m.userId);
      this.noteChange(userId);
      this.changed(this.ofUser(userId).filter((op) => op.projectId === m.projectId));
    });
    bus.subscribe(userChannel, (m) => {
      const userId = String(m.userId);
      this.noteChange(userId);
      this.changed(this.ofUser(userId));
    });
    bus.onGap(() => {
      this.lastGap = Date.now();
      this.changed([...this.all]);
    });
  }

  /** Wraps a subscription's stream so that it ends when its access does; `since`: when it began. */
  guard(result: AsyncIterable<ExecutionResult>, args: ExecutionArgs, since: number): EndableStream {
    const context = args.contextValue as Context;
    const root = rootArguments(args);
    const op: LiveOperation = {
      args,
      request: context.request,
      clientIp: context.clientIp,
      clientAddress: context.clientAddress,
      userId: null,
      projectId: text(root.project_id),
      requestId: text(root.request_id),
      since,
      stream: new EndableStream(result, () => this.forget(op)),
      checking: false,
      again: false,
      later: null,
      expiry: null,
    };
    void this.register(op);
    return op.stream;
  }

  private async register(op: LiveOperation) {
    const principal = await (op.args.contextValue as Context).principal().catch(() => null);
    if (op.stream.ended) return;
    op.userId = principal?.userId ?? null;
    this.all.add(op);
    if (op.userId) {
      let mine = this.byUser.get(op.userId);
      if (!mine) this.byUser.set(op.userId, (mine = new Set()));
      mine.add(op);
    }
    const expires = tokenExpiry(op.request.headers.get('authorization'));
    // Checked just past `exp`: the token is refused from then on.
    if (expires !== null) op.expiry = at(expires + 10, () => this.check([op]));
    if (op.projectId) {
      const project = this.watched(op.projectId);
      project.operations.add(op);
      if (op.requestId) {
        let following = project.byRequest.get(op.requestId);
        if (!following) project.byRequest.set(op.requestId, (following = new Set()));
        following.add(op);
      }
    }
    const changed = Math.max(this.lastGap, op.userId ? (this.lastChange.get(op.userId) ?? 0) : 0);
    if (changed >= op.since) this.changed([op]);
  }

  private noteChange(userId: string) {
    const now = Date.now();
    // Subscribing takes moments: older changes concern no subscription still being set up.
    if (this.lastChange.size >= 10_000) {
      for (const [user, time] of this.lastChange) if (now - time > 60_000) this.lastChange.delete(user);
    }
    this.lastChange.set(userId, now);
  }

  private forget(op: LiveOperation) {
    // Pothos keeps each operation's authorisation cache until its context is released.
    RequestCache.clearForContext(op.args.contextValue as object);
    this.all.delete(op);
    this.queue.delete(op);
    if (op.expiry) clearTimeout(op.expiry);
    if (op.later) clearTimeout(op.later.timer);
    op.expiry = op.later = null;
    if (op.userId) {
      const mine = this.byUser.get(op.userId);
      mine?.delete(op);
      if (mine && !mine.size) this.byUser.delete(op.userId);
    }
    const project = op.projectId ? this.projects.get(op.projectId) : undefined;
    if (!project?.operations.delete(op)) return;
    const following = op.requestId ? project.byRequest.get(op.requestId) : undefined;
    following?.delete(op);
    if (following && !following.size) project.byRequest.delete(op.requestId!);
    if (!project.operations.size) {
      this.projects.delete(op.projectId!);
      project.stop();
    }
  }

  private ofUser(userId: string): LiveOperation[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /** Follows the project's events for the subscriptions of this node that follow it. */
  private watched(projectId: string): WatchedProject {
    let project = this.projects.get(projectId);
    if (project) return project;
    const { infra } = this.services;
    const created: WatchedProject = {
      operations: new Set(),
      byRequest: new Map(),
      stop: watchProject(infra, projectId, {
        event: (event) => this.projectEvent(created, event),
        // The subscriptions of the project fail with the feed; a later one follows it anew.
        fail: () => {
          if (this.projects.get(projectId) === created) this.projects.delete(projectId);
        },
      }),
    };
    this.projects.set(projectId, (project = created));
    return project;
  }

  private projectEvent(project: WatchedProject, event: LoggedEvent) {
    if (event.name === 'project.delete' || (event.name === 'project.update' && fieldsOf(event).includes('status'))) {
      // The project was deleted or disabled (or enabled): every subscription of it. This node's
      // copy of the project is dropped first: the bus message that drops it may come after this one.
      this.services.projects.forget(event.projectId);
      this.check([...project.operations]);
    } else if (requestEvents.has(event.name) && changesAccess(event)) {
      const following = project.byRequest.get(String(event.payload.request_id));
      if (following) this.check([...following]);
    } else if (viewEvents.test(event.name)) {
      this.check([...project.byRequest.values()].flatMap((following) => [...following]));
    }
  }

  /** Access-related data changed: check now, and again once cached copies have expired. */
  private changed(operations: LiveOperation[]) {
    this.check(operations);
    const cacheMs = this.services.infra.config.authCacheMs;
    if (cacheMs > 0) for (const op of operations) this.checkLater(op, cacheMs + 50);
  }

  private checkLater(op: LiveOperation, delayMs: number) {
    if (op.stream.ended) return;
    const time = Date.now() + delayMs;
    if (op.later && op.later.at >= time) return;
    if (op.later) clearTimeout(op.later.timer);
    op.later = {
      at: time,
      timer: at(time, () => {
        op.later = null;
        this.check([op]);
      }),
    };
  }

  private check(operations: LiveOperation[]) {
    for (const op of operations) {
      if (op.stream.ended) continue;
      if (op.checking) op.again = true;
      else this.queue.add(op);
    }
    // On a later turn: the services drop their cached copies on the same bus message first.
    if (this.queue.size && !this.kicked) {
      this.kicked = true;
      setImmediate(() => {
        this.kicked = false;
        this.pump();
      });
    }
  }

  private pump() {
    for (const op of this.queue) {
      if (this.running >= checksAtOnce) return;
      this.queue.delete(op);
      if (op.stream.ended) continue;
      this.running++;
      op.checking = true;
      void this.recheck(op).finally(() => {
        this.running--;
        op.checking = false;
        if (op.again) {
          op.again = false;
          this.check([op]);
        }
        this.pump();
      });
    }
  }

  /** Subscribes again with a new context; ends the subscription if that is refused now. */
  private async recheck(op: LiveOperation) {
    const context = buildContext(this.services, op.request, op.clientIp, op.clientAddress);
    try {
      const result = await createSourceEventStream({ ...op.args, contextValue: context });
      if (isAsyncIterable(result)) {
        // Nothing started yet (streams start on their first read): closing it costs nothing.
        await result[Symbol.asyncIterator]().return?.();
        return;
      }
      const errors = result.errors ?? [];
      const refusal = errors.map((e) => e.originalError ?? e).find((e): e is AppError => e instanceof AppError && !transientCodes.has(e.code));
      if (refusal) op.stream.end(refusal);
      else if (errors.length) throw errors[0];
    } catch (error) {
      this.services.infra.logger.warn({ err: (error as Error).message }, 'subscription access check failed; trying again');
      this.checkLater(op, retryMs);
    } finally {
      RequestCache.clearForContext(context);
    }
  }
}
