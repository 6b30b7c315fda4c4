import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of `target` (PostgreSQL, for tests that fault it without
 * touching the shared server): `down()` resets every connection through it and refuses new ones
 * until `up()` (what clients see of a restart); `hang()` stops forwarding in both directions,
 * connections staying open, until `resume()`.
 */
export async function tcpProxy(target: { host: string; port: number }) {
  const pairs = new Set<[Socket, Socket]>();
  let refusing = false;
  let hanging = false;
  const held: Array<() => void> = [];
  const server = createServer((client) => {
    if (refusing) return client.resetAndDestroy();
    const upstream = createConnection(target);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (hanging) held.push(() => to.write(chunk));
        else to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** Resets every connection and refuses new ones. */
    down() {
      refusing = true;
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    up() {
      refusing = false;
    },
    hang() {
      hanging = true;
    },
    resume() {
      hanging = false;
      for (const write of held.splice(0)) write();
    },
    async close() {
      this.down();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
