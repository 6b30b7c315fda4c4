// A server node in its own process on a persistent database (PGlite under DATA_DIR, or
// DATABASE_URL), for tests that kill it while it sends a scheduled message. With
// STALL_SCHEDULED=written, a scheduled send writes its message and claims its row, then never
// commits: the node prints `{"stalled": "written"}` at that instant, so a test can kill it then.
// With STALL_SLA=breach, an SLA breach timer is claimed and the breach recorded, its event due to be appended, then its
// transaction never commits: the node prints `{"stalled": "breach"}` at that instant.
// It prints its URL as one JSON line once it listens.
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';

const server = await startServer(loadConfig(), { inMemory: false });
if (process.env.STALL_SCHEDULED === 'written') {
  const { messages } = server.app.services;
  const post = messages.post.bind(messages);
  messages.post = (projectId, actor, requestId, input, address, options = {}) =>
    post(projectId, actor, requestId, input, address, {
      ...options,
      written: async (tx, message) => {
        await options.written?.(tx, message);
        if (options.claim) {
          process.stdout.write(`${JSON.stringify({ stalled: 'written' })}\n`);
          await new Promise<never>(() => {});
        }
      },
    });
}
if (process.env.STALL_SLA === 'breach') {
  server.app.services.slaTimers.afterClaim = async (_tx, timer) => {
    if (timer.kind !== 'breach') return;
    process.stdout.write(`${JSON.stringify({ stalled: 'breach' })}\n`);
    await new Promise<never>(() => {});
  };
}
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
