// A server node in its own process on a persistent database (PGlite under DATA_DIR, or
// DATABASE_URL), for tests that kill it while a request with an Idempotency-Key runs. With
// STALL_KEYED=written, a posted message whose text starts with "stall" is written and then the
// request never goes on (before its answer is kept); with STALL_KEYED=kept, a keyed request never
// answers once its answer is kept. Either way the node prints `{"stalled": "<where>"}` at that
// instant, so a test can kill it then. It prints its URL as one JSON line once it listens.
import { loadConfig } from '../../src/config.js';
import { IdempotencyKeys } from '../../src/infra/idempotency.js';
import { startServer } from '../../src/server.js';

const stall = process.env.STALL_KEYED;
const stalled = (where: string) => {
  process.stdout.write(`${JSON.stringify({ stalled: where })}\n`);
  return new Promise<never>(() => {});
};
const server = await startServer(loadConfig(), { inMemory: false });
if (stall === 'written') {
  const { messages } = server.app.services;
  const post = messages.post.bind(messages);
  messages.post = async (projectId, actor, requestId, input) => {
    const written = await post(projectId, actor, requestId, input);
    return String((input as { text?: unknown }).text).startsWith('stall') ? stalled('written') : written;
  };
}
if (stall === 'kept') {
  const once = IdempotencyKeys.prototype.once;
  IdempotencyKeys.prototype.once = async function (this: IdempotencyKeys, ...args: Parameters<typeof once>) {
    const outcome = await once.apply(this, args);
    return outcome.kind === 'ran' ? stalled('kept') : outcome;
  } as typeof once;
}
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
