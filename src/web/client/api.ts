import { createClient, type Client } from 'graphql-ws';
import type { TypedDocumentString } from './gql/graphql.js';

// The public GraphQL API, as any client uses it: queries and mutations over HTTP POST /graphql
// with the `JWT …` token as Authorization, subscriptions over graphql-ws on the same path with the
// token in `connectionParams`. Nothing here is private to our own clients.

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

let base = location.origin;

/** The server the client talks to: the page's own by default; the widget's script's when embedded elsewhere. */
export function setApiBase(origin: string) {
  base = origin;
}

/** The origin of the server (where /v3 and /graphql are). */
export const apiBase = () => base;

const endpoint = () => new URL('/graphql', base);

/** A root field is null only beside an error, which `request` throws: answered data has every root field. */
export type Answered<R> = { [K in keyof R]: NonNullable<R[K]> };

export async function request<R, V>(document: TypedDocumentString<R, V>, variables: V, token?: string | null): Promise<Answered<R>> {
  const res = await fetch(endpoint(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await res.json()) as { data?: R; errors?: Array<{ message: string; extensions?: { code?: string } }> };
  if (body.errors?.length) throw new ApiError(body.errors[0].message, body.errors[0].extensions?.code);
  return body.data as Answered<R>;
}

/** One graphql-ws connection per token; it reconnects by itself after a drop. */
export function liveClient(token: string, onState?: (connected: boolean) => void): Client {
  const url = endpoint();
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const client = createClient({
    url: url.toString(),
    connectionParams: { authorization: token },
    lazy: false,
    retryAttempts: Number.MAX_SAFE_INTEGER,
    shouldRetry: () => true,
    retryWait: async (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * 2 ** retries))),
  });
  client.on('connected', () => onState?.(true));
  client.on('closed', () => onState?.(false));
  return client;
}

/**
 * A subscription that resumes without a gap: every event carries its `seq`, and the variables the
 * client re-sends on each reconnect are updated in place to `after: <last seq seen>`, so the
 * server first replays what was missed during the drop. Events at or below the cursor are dropped
 * (a replay overlapping what arrived live). A drop before any event leaves no cursor to resume
 * from: then `onResync` runs after the reconnect, to read the current state again (as the README
 * says a client without a cursor does). Returns the unsubscribe function.
 */
export function subscribe<R, V extends { after?: number | null }>(
  client: Client,
  document: TypedDocumentString<R, V>,
  variables: V,
  seqOf: (data: R) => number,
  onData: (data: R) => void,
  onResync?: () => void,
): () => void {
  const payload = { query: document.toString(), variables: { ...variables } as V };
  let cursor = variables.after ?? -1;
  let dropped = false;
  const offClosed = client.on('closed', () => (dropped = true));
  const offConnected = client.on('connected', () => {
    if (dropped && cursor < 0) onResync?.();
    dropped = false;
  });
  const unsubscribe = client.subscribe<R>(payload as never, {
    next: ({ data }) => {
      if (!data) return;
      const seq = seqOf(data);
      if (seq <= cursor) return;
      const first = cursor < 0;
      cursor = seq;
      payload.variables.after = seq;
      onData(data);
      // Subscribed without a cursor: what happened before this first event is read once more, so
      // nothing committed between the caller's first read and the subscription starting is lost.
      if (first) onResync?.();
    },
    error: (error) => console.warn('subscription ended', error),
    complete: () => {},
  });
  return () => {
    offClosed();
    offConnected();
    unsubscribe();
  };
}
