// The benchmark's webhook receiver, in its own process: answers 200 at once and records, per
// webhook-id, the delay between the event (body `timestamp`) and its first arrival.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const seen = new Set<string>();
const latencies: number[] = [];
let count = 0;
let first = 0;
let last = 0;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const now = Date.now();
    count++;
    const id = String(req.headers['webhook-id']);
    if (!seen.has(id)) {
      seen.add(id);
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString()) as { timestamp: number };
      latencies.push(now - timestamp);
      first ||= now;
      last = now;
    }
    res.end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send!({ port: (server.address() as AddressInfo).port });
});
// 'progress' answers the counts only: polled while deliveries arrive, a report with every latency
// (up to 100,000) would cost the process under test its parsing several times a second.
process.on('message', (command) => {
  if (command === 'reset') {
    seen.clear();
    latencies.length = 0;
    count = first = last = 0;
  }
  process.send!({ count, unique: seen.size, latencies: command === 'report' ? latencies : [], first, last });
});
process.on('disconnect', () => process.exit(0));
