import WebSocket from 'ws';

// A graphql-transport-ws connection that keeps every message the server sends, as sent: what a
// client library would hide (messages after an operation ended, the close code) stays visible.

export interface ServerMessage {
  id?: string;
  type: string;
  payload?: any;
}

export interface RawSocket {
  messages: ServerMessage[];
  closed: { code: number; reason: string } | null;
  subscribe(id: string, query: string, variables?: Record<string, unknown>): void;
  /** Ends an operation, as a client stopping a subscription does. */
  complete(id: string): void;
  /** The messages of one operation, in order. */
  of(id: string): ServerMessage[];
  /** Resolves with the first message (already received or to come) that matches. */
  waitFor(match: (message: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  close(): void;
}

export async function rawSocket(serverUrl: string, token?: string): Promise<RawSocket> {
  const ws = new WebSocket(`${serverUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const listeners = new Set<() => void>();
  const socket: RawSocket = {
    messages: [],
    closed: null,
    subscribe: (id, query, variables = {}) => ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } })),
    complete: (id) => ws.send(JSON.stringify({ id, type: 'complete' })),
    of: (id) => socket.messages.filter((m) => m.id === id),
    waitFor: (match, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = socket.messages.find(match);
          if (!found && !socket.closed) return;
          clearTimeout(timer);
          listeners.delete(check);
          if (found) resolve(found);
          else reject(new Error(`the socket closed (${socket.closed!.code} ${socket.closed!.reason}) before the message came`));
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for a message; have ${JSON.stringify(socket.messages).slice(0, 500)}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    close: () => ws.close(),
  };
  ws.on('message', (data) => {
    socket.messages.push(JSON.parse(String(data)));
    for (const listener of [...listeners]) listener();
  });
  ws.on('close', (code, reason) => {
    socket.closed = { code, reason: String(reason) };
    for (const listener of [...listeners]) listener();
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'connection_init', payload: token ? { authorization: token } : {} }));
  await socket.waitFor((m) => m.type === 'connection_ack');
  return socket;
}

/** The error codes a message carries (a `next` with errors, or an `error`). */
export function errorCodes(message: ServerMessage | undefined): string[] {
  const errors = message?.type === 'error' ? message.payload : message?.payload?.errors;
  return Array.isArray(errors) ? errors.map((e: { extensions?: { code?: string } }) => e.extensions?.code ?? '') : [];
}
