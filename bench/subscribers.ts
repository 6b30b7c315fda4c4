// Child process of messages.bench.ts: opens BENCH_CLIENTS websocket clients, each with one idle
// requestMessages subscription, reports how many are live, and holds them until told to stop.
import { connect, subscribe } from '../test/helpers/realtime.js';

const url = process.env.BENCH_URL!;
const total = Number(process.env.BENCH_CLIENTS ?? 5000);
const query = `subscription($p: String!, $r: String!) { requestMessages(project_id: $p, request_id: $r) { seq } }`;
const clients: Array<ReturnType<typeof connect>> = [];
let live = 0;
for (let i = 0; i < total; i += 100) {
  const batch = Array.from({ length: Math.min(100, total - i) }, () => connect(url, process.env.BENCH_TOKEN));
  clients.push(...batch);
  await Promise.all(batch.map((c) => c.ready));
  for (const c of batch) {
    subscribe(c.client, query, { p: process.env.BENCH_PROJECT, r: process.env.BENCH_REQUEST });
    live++;
  }
}
// Give the server time to run every subscribe (they are asynchronous after connection_ack).
await new Promise((resolve) => setTimeout(resolve, 3000));
process.send!({ ready: live });
process.on('message', async () => {
  await Promise.all(clients.map((c) => c.client.dispose()));
  process.exit(0);
});
