// A server node in its own process on a persistent database (PGlite under DATA_DIR, or
// DATABASE_URL), for tests that kill it outright. With STALL_BOT_TURNS=1 the bots never take their
// turn: the node prints `{"stalled": "<message id>"}` when a committed message reaches the bot
// engine, so a test can kill it at that very moment. It prints its URL as one JSON line once it listens.
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';

const server = await startServer(loadConfig(), { inMemory: false });
if (process.env.STALL_BOT_TURNS === '1') {
  server.app.services.botEngine.onMessageCreated = (_projectId, _requestId, messageId) => {
    process.stdout.write(`${JSON.stringify({ stalled: messageId })}\n`);
    return new Promise<void>(() => {});
  };
}
// With STALL_PURGE=1 a deleted project's purge never starts: the node prints
// `{"stalled": "purge"}` when the committed deletion reaches it, so a test can kill it right there.
if (process.env.STALL_PURGE === '1') {
  const purge = server.app.services.infra.eventConsumers.consumer('project-purge') as unknown as { run(projectId: string): Promise<void> };
  purge.run = (projectId) => {
    process.stdout.write(`${JSON.stringify({ stalled: 'purge', project: projectId })}\n`);
    return new Promise<void>(() => {});
  };
}
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
