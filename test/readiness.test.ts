import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import pg from 'pg';
import { createTestServer } from './helpers/app.js';
import { productionMode } from './helpers/environment.js';

let node: Awaited<ReturnType<typeof createTestServer>>;
beforeAll(async () => {
  node = await createTestServer({ WS_MAX_PAYLOAD_BYTES: '1024' });
});
afterAll(() => node.client.close());

describe('limits and readiness of a listening server', () => {
  it('closes a websocket that sends a frame over the size limit', async () => {
    const socket = new WebSocket(node.server.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    const code = await new Promise<number>((resolve) => {
      socket.once('close', (c) => resolve(c));
      socket.send(JSON.stringify({ type: 'connection_init', payload: { pad: 'x'.repeat(4096) } }));
    });
    expect(code).toBe(1009);
  });

  it('answers 413 over HTTP for a body over the limit', async () => {
    const res = await fetch(`${node.server.url}/v3/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
  });

  it('answers /ready with 503 once the database is gone, while /health stays 200', async () => {
    if (productionMode) {
      // A real outage: the database disappears under the server's open connections.
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE "${new URL(node.config.databaseUrl!).pathname.slice(1)}" WITH (FORCE)`);
      await admin.end();
    } else {
      await node.server.app.infra.database.close();
    }
    expect((await fetch(`${node.server.url}/ready`)).status).toBe(503);
    expect((await fetch(`${node.server.url}/health`)).status).toBe(200);
  });
});
