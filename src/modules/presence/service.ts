import { randomUUID } from 'node:crypto';
import type { Db } from '../../infra/database.js';
import type { EventLog, LoggedEvent } from '../../infra/event-log.js';
import { EventRecordCache } from '../../realtime/record-cache.js';
import type { Logger } from '../../infra/logger.js';
import type { PresenceTracker } from '../../infra/presence-tracker.js';

// A teammate is online while at least one of their authenticated websockets is open, on any node.
// Every change is written to their memberships (`presence: {status, changedAt}`) and logged as
// project_user.presence, its own event (followed live and by webhook), not a project_user.update:
// nobody edited the teammate. `user_available` is never touched: only its owner sets it.

export type PresenceStatus = 'online' | 'offline';

/** The domain event of a teammate going online or offline. */
export const presenceEvent = 'project_user.presence';

export class PresenceService {
  private timer: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private started = false;
  /** This node's open connections: connection id to user id. */
  private connections = new Map<string, string>();
  /** Users whose connection opened while Redis or the database did not answer: synced at the next heartbeat. */
  private unsynced = new Set<string>();
  private teammates = new EventRecordCache((event) =>
    this.db.projectUser.findFirst({ where: { id: event.subject, id_project: event.projectId }, include: { user: true } }),
  );

  constructor(
    private db: Db,
    private events: EventLog,
    private tracker: PresenceTracker,
    private logger: Logger,
    private ttlMs: number,
  ) {}

  /** Starts heartbeats and the sweep of connections a dead node left behind. */
  async start() {
    if (this.started) return;
    this.started = true;
    const interval = Math.max(50, Math.floor(this.ttlMs / 3));
    this.timer = setInterval(() => void this.tick(), interval);
    this.timer.unref();
    // Whoever is still marked online from an earlier run gets checked once now.
    const online = await this.db.projectUser.findMany({
      where: { trashed: false, presence: { path: ['status'], equals: 'online' } },
      select: { id_user: true },
      distinct: ['id_user'],
    });
    for (const { id_user } of online) await this.sync(id_user).catch((error) => this.warn(error));
  }

  /** A node shutting down closes its connections first, so its teammates go offline now. */
  async stop() {
    if (this.timer) clearInterval(this.timer);
    if (this.retry) clearTimeout(this.retry);
    this.timer = null;
    this.retry = null;
    for (const [connectionId, userId] of [...this.connections]) {
      await this.disconnected(userId, connectionId).catch((error) => this.warn(error));
    }
    this.started = false;
    await this.tracker.dispose();
  }

  private warn(error: unknown) {
    this.logger.warn({ err: (error as Error).message }, 'presence update failed');
  }

  private async tick() {
    try {
      await this.tracker.heartbeat();
      for (const userId of [...this.unsynced]) {
        this.unsynced.delete(userId);
        await this.sync(userId).catch((error) => {
          this.unsynced.add(userId);
          throw error;
        });
      }
      for (const userId of await this.tracker.stale()) {
        await this.sync(userId);
        await this.tracker.forget(userId);
      }
    } catch (error) {
      this.warn(error);
    }
  }

  /** The teammate a presence event is about (read once per node). */
  teammateOf(event: LoggedEvent) {
    return this.teammates.get(event);
  }

  /** Users of this node whose presence could not be written yet (Redis or the database did not answer). */
  get unwritten() {
    return this.unsynced.size;
  }

  /** Open websockets of a user, on every node. */
  liveConnections(userId: string) {
    return this.tracker.count(userId);
  }

  /**
   * A websocket of `userId` opened; returns the connection id to close it with, at once: the
   * tracker and the memberships are written in the background, so a Redis outage delays the
   * teammate's presence but never the socket. What could not be written is retried every half
   * second until it is.
   */
  connected(userId: string): string {
    const connectionId = randomUUID();
    this.connections.set(connectionId, userId);
    void this.opened(userId, connectionId);
    return connectionId;
  }

  private async opened(userId: string, connectionId: string) {
    try {
      if ((await this.tracker.open(userId, connectionId)) === 1) await this.sync(userId);
    } catch (error) {
      this.warn(error);
      this.unsynced.add(userId);
      this.retrySoon();
    }
  }

  /**
   * What could not be written is retried every `retryMs` (not only at the next heartbeat, a third
   * of the TTL away): a teammate whose socket opened while Redis was down shows online within
   * about that long of Redis answering again.
   */
  private retrySoon(retryMs = 500) {
    if (this.retry || !this.started) return;
    this.retry = setTimeout(async () => {
      this.retry = null;
      if (!(await this.syncUnsynced())) this.retrySoon(retryMs);
    }, retryMs);
    this.retry.unref();
  }

  /** Writes the presence of the users that could not be written; false if some still cannot be. */
  private async syncUnsynced(): Promise<boolean> {
    try {
      // Every open connection of this node, written again (what the heartbeat does).
      await this.tracker.heartbeat();
      for (const userId of [...this.unsynced]) {
        await this.sync(userId);
        this.unsynced.delete(userId);
      }
      return true;
    } catch {
      return false;
    }
  }

  async disconnected(userId: string, connectionId: string) {
    if (!this.connections.delete(connectionId)) return;
    if ((await this.tracker.close(userId, connectionId)) === 0) await this.sync(userId);
  }

  /**
   * The user just became a member of a project (created it, accepted an invitation): with a
   * websocket open already, the new membership is online at once and its presence event logged,
   * without waiting for a reconnect. Never fails the join: a failure is logged, and the next
   * connection or sweep puts it right.
   */
  async joined(userId: string) {
    try {
      if ((await this.tracker.count(userId)) > 0) await this.sync(userId);
    } catch (error) {
      this.warn(error);
    }
  }

  /**
   * Writes what the tracker says now to the user's memberships. The count is read under the row
   * locks, so when two nodes race (one opening, one closing) the last writer sees the final count.
   */
  async sync(userId: string) {
    await this.events.transaction(async (tx, emit) => {
      const memberships = await tx.$queryRaw<Array<{ id: string; id_project: string; status: string | null }>>`
        SELECT "id", "id_project", "presence"->>'status' AS status FROM "ProjectUser"
        WHERE "id_user" = ${userId} AND "trashed" = false AND "role" <> 'guest'
        ORDER BY "id" FOR UPDATE`;
      if (!memberships.length) return;
      const status: PresenceStatus = (await this.tracker.count(userId)) > 0 ? 'online' : 'offline';
      const presence = { status, changedAt: new Date().toISOString() };
      for (const membership of memberships.filter((m) => (m.status ?? 'offline') !== status)) {
        await tx.projectUser.update({ where: { id: membership.id }, data: { presence } });
        await emit({
          projectId: membership.id_project,
          name: presenceEvent,
          subject: membership.id,
          payload: { presence: status },
        });
      }
    });
  }
}
