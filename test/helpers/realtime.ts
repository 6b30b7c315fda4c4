import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

// graphql-ws clients for subscription tests: events are collected as they arrive and awaited
// with a bound, never slept for.

export interface Subscription<T = any> {
  events: T[];
  errors: unknown[];
  /** Resolves with the events once `count` have arrived (or rejects after `timeoutMs`). */
  take(count: number, timeoutMs?: number): Promise<T[]>;
  /** Resolves with the first event (from now or already received) that matches. */
  waitFor(match: (event: T) => boolean, timeoutMs?: number): Promise<T>;
  /** Resolves with the first error the server sent. */
  failure(timeoutMs?: number): Promise<unknown>;
  stop(): void;
}

export function connect(serverUrl: string, token?: string, options: { lazy?: boolean } = {}) {
  let connected!: () => void;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  const client = createClient({
    url: `${serverUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: token } : {},
    lazy: options.lazy ?? false,
    retryAttempts: 0,
    // A node going away mid-test is expected; graphql-ws would print it.
    onNonLazyError: () => {},
    on: { connected: () => connected() },
  });
  return { client, ready };
}

function until<T>(check: () => T | undefined, notify: Set<() => void>, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const value = check();
      if (value === undefined) return false;
      clearTimeout(timer);
      notify.delete(listener);
      resolve(value);
      return true;
    };
    const listener = () => void attempt();
    const timer = setTimeout(() => {
      notify.delete(listener);
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    if (!attempt()) notify.add(listener);
  });
}

export function subscribe<T = any>(client: Client, query: string, variables: Record<string, unknown> = {}): Subscription<T> {
  const events: T[] = [];
  const errors: unknown[] = [];
  const listeners = new Set<() => void>();
  const changed = () => [...listeners].forEach((l) => l());
  const stop = client.subscribe<T>(
    { query, variables },
    {
      next: (result) => {
        if (result.errors) errors.push(result.errors);
        else events.push(Object.values(result.data as object)[0] as T);
        changed();
      },
      error: (error) => {
        errors.push(error);
        changed();
      },
      complete: () => changed(),
    },
  );
  return {
    events,
    errors,
    take: (count, timeoutMs = 10_000) => until(() => (events.length >= count ? events.slice(0, count) : undefined), listeners, timeoutMs, `${count} events (have ${events.length})`),
    waitFor: (match, timeoutMs = 10_000) => until(() => events.find(match), listeners, timeoutMs, 'a matching event'),
    failure: (timeoutMs = 10_000) => until(() => errors[0], listeners, timeoutMs, 'an error'),
    stop,
  };
}
