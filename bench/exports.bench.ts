// The conversations CSV over 100,000 conversations in one project, production mode (PostgreSQL +
// Redis), over real HTTP: the server's RSS must grow by less than 50 MB while it streams them.
import { startServer } from '../src/server.js';
import { productionConfig } from './environment.js';

const conversations = Number(process.env.BENCH_CONVERSATIONS ?? 100_000);
const targetMb = 50;

export default async function bench() {
  const env = await productionConfig();
  const running = await startServer(env.config);
  try {
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(`${running.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    await call('POST', '/v3/auth/signup', { email: 'owner@bench.test', password: 'bench password' });
    const { token, user } = await call('POST', '/v3/auth/signin', { email: 'owner@bench.test', password: 'bench password' });
    const project = await call('POST', '/v3/projects', { name: 'Exports bench' }, token);
    // Seeded straight into the table: the benchmark measures the export, not 100,000 creates.
    const db = running.app.infra.database.prisma;
    for (let start = 0; start < conversations; start += 2000) {
      const rows = Array.from({ length: Math.min(2000, conversations - start) }, (_, k) => {
        const i = start + k;
        const createdAt = new Date(Date.now() - i * 60_000);
        return {
          id_project: project._id,
          request_id: `support-group-bench-${i}`,
          ticket_id: i + 1,
          first_text: `question number ${i}`,
          status: i % 3 ? 1000 : 200,
          participatingAgents: [user._id],
          tags: [{ tag: i % 2 ? 'billing' : 'shipping' }],
          rating: i % 5,
          first_response_at: new Date(createdAt.getTime() + 30_000),
          closed_at: i % 3 ? new Date(createdAt.getTime() + 600_000) : null,
          createdBy: user._id,
          createdAt,
        };
      });
      await db.request.createMany({ data: rows });
    }
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    const res = await fetch(`${running.url}/v3/${project._id}/analytics/conversations.csv`, { headers: { authorization: token } });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    clearInterval(sampler);
    const growthMb = Math.round(((peak - before) / 1_048_576) * 10) / 10;
    console.table([
      {
        conversations,
        rows: lines - 1,
        'MB sent': Math.round(bytes / 1_048_576),
        seconds: Math.round((performance.now() - started) / 100) / 10,
        'RSS growth MB (server and reader, one process)': growthMb,
        target: growthMb < targetMb ? 'met' : 'MISSED',
      },
    ]);
  } finally {
    await running.close();
    await env.drop();
  }
}
