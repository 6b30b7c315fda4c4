// A server node in its own process, for tests that kill a node outright (SIGKILL): it reads its
// configuration from the environment and prints its URL as one JSON line once it listens.
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';

const server = await startServer(loadConfig(), { inMemory: true });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
