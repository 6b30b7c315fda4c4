import net from 'node:net';
import { vi } from 'vitest';

// Outbound requests must be refused before a packet leaves: tests watch every TCP connection the
// process attempts. Connections to 127.0.0.1 (the test's own servers, the database, Redis) go
// through; any other is recorded and stopped before it is made, so even a regression sends nothing.

/**
 * Watches every socket this process opens while a test runs: a connection to anything but 127.0.0.1
 * is recorded and stopped before it is made, so a refusal that regressed sends no packet either.
 */
export function watchConnections() {
  const attempts: string[] = [];
  const connect = net.Socket.prototype.connect;
  const spy = vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: any[]) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const options = typeof first === 'object' && first !== null ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
    if (options.path) return connect.apply(this, args as never);
    const host = String(options.host ?? 'localhost');
    attempts.push(`${host}:${options.port}`);
    if (host === '127.0.0.1') return connect.apply(this, args as never);
    process.nextTick(() => this.destroy(new Error(`the test stopped a connection to ${host}`)));
    return this;
  } as never);
  return { attempts, stop: () => spy.mockRestore() };
}
