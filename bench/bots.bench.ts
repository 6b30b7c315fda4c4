// Internal bot reply latency for a bot with 500 intents: until the bot's answer is published on
// the event bus, from the moment the visitor sends the message (REST POST, end to end) and from
// the moment the visitor's message is published (the engine's own share). Production mode
// (PostgreSQL + Redis), one server process. Conversations run side by side; each asks a mix of
// exact questions, paraphrases and nonsense (fallback). Target: p99 < 50 ms.
import { createLogger } from '../src/infra/logger.js';
import { RedisEventBus } from '../src/infra/event-bus.js';
import { projectChannel } from '../src/infra/event-log.js';
import { startServer } from '../src/server.js';
import { benchRedisUrl, productionConfig } from './environment.js';
import { printTable, summarize } from './lib.js';

const intentCount = 500;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrencies = [1, 4];
const targetP99Ms = 50;
// A conversation stays well under the bot's loop guard (20 bot messages a minute).
const questionsPerConversation = 12;

// A synthetic vocabulary: enough distinct words for the similarity index to have real work.
const words = Array.from({ length: 1500 }, (_, i) => `w${(i * 7919) % 100_003}x`);
const word = (n: number) => words[n % words.length];

function intent(i: number) {
  const phrase = (salt: number) => Array.from({ length: 5 }, (_, k) => word(i * 31 + k * 17 + salt * 101)).join(' ');
  return {
    intent_display_name: `faq_${i}`,
    question: [phrase(1), phrase(2), phrase(3)].join('\n'),
    answer: `Answer number ${i}.`,
  };
}

/** What the end user says on turn `n`: an exact question, a paraphrase (4 of its 5 words plus one), or nonsense. */
function utterance(n: number) {
  const { question } = intent((n * 37) % intentCount);
  const line = question.split('\n')[0].split(' ');
  switch (n % 3) {
    case 0:
      return line.join(' ').toUpperCase();
    case 1:
      return [...line.slice(0, 4), 'please'].join(' ');
    default:
      return `zzq${n} unknown gibberish ${n}`;
  }
}

export default async function bench() {
  const env = await productionConfig({ RUN_WORKERS: 'true' });
  const running = await startServer(env.config);
  const bus = new RedisEventBus(benchRedisUrl, env.config.redisPrefix, createLogger('silent'));
  try {
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const response = await fetch(`${running.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = await response.json();
      if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
    await call('POST', '/v3/auth/signup', { email: 'bots@example.test', password: 'bench password' });
    const { token } = await call('POST', '/v3/auth/signin', { email: 'bots@example.test', password: 'bench password' });
    const project = await call('POST', '/v3/projects', { name: 'Bots bench' }, token);
    const pid = project._id as string;
    const bot = await call('POST', `/v3/${pid}/bots`, { name: 'Bench bot', template: 'blank' }, token);
    await call('POST', `/v3/${pid}/bots/importjson/${bot._id}`, { intents: Array.from({ length: intentCount }, (_, i) => intent(i)) }, token);
    const department = await call('POST', `/v3/${pid}/departments`, { name: 'Bot desk', id_bot: bot._id }, token);
    const visitor = await call('POST', '/v3/auth/signinAnonymously', { id_project: pid, firstname: 'Visitor' });

    // Messages as every subscriber sees them: the bus messages of message.create. The visitor's
    // marks when the engine could start; the bot's, when its answer is out.
    const waiting = new Map<string, { userAt?: number; answered: (userAt: number) => void }>();
    bus.subscribe(projectChannel(pid), (event) => {
      const payload = event.payload as { request_id?: string; sender?: string } | undefined;
      const waiter = payload?.request_id ? waiting.get(payload.request_id) : undefined;
      if (event.name !== 'message.create' || !waiter) return;
      if (payload?.sender === visitor.user._id) waiter.userAt = performance.now();
      else if (payload?.sender === `bot_${bot._id}`) {
        waiting.delete(payload.request_id!);
        waiter.answered(waiter.userAt ?? Number.NaN);
      }
    });
    /** Resolves with the time the visitor's message was published. */
    const say = async (requestId: string, text: string, departmentid?: string) => {
      const answered = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no bot answer in ${requestId}`)), 10_000);
        waiting.set(requestId, {
          answered: (userAt) => {
            clearTimeout(timer);
            resolve(userAt);
          },
        });
      });
      const [, userAt] = await Promise.all([call('POST', `/v3/${pid}/requests/${requestId}/messages`, { text, departmentid }, visitor.token), answered]);
      return userAt;
    };

    let turn = 0;
    const run = async (concurrency: number, durationMs: number) => {
      const latencies: number[] = [];
      const engineLatencies: number[] = [];
      let errors = 0;
      const deadline = performance.now() + durationMs;
      await Promise.all(
        Array.from({ length: concurrency }, async (_, worker) => {
          for (let conversation = 0; performance.now() < deadline; conversation++) {
            const requestId = `support-group-bench-${concurrency}-${worker}-${conversation}-${Date.now()}`;
            // The first message gets the start intent: not measured.
            await say(requestId, 'hello', department._id);
            for (let q = 0; q < questionsPerConversation && performance.now() < deadline; q++) {
              const started = performance.now();
              try {
                const userAt = await say(requestId, utterance(turn++));
                const answeredAt = performance.now();
                latencies.push(answeredAt - started);
                engineLatencies.push(answeredAt - userAt);
              } catch {
                errors++;
              }
            }
          }
        }),
      );
      return { endToEnd: summarize(latencies, durationMs / 1000, errors), engine: summarize(engineLatencies, durationMs / 1000, errors) };
    };

    await run(4, 3000); // warm-up: connections, JIT, the bot's intent index
    const rows = [];
    for (const concurrency of concurrencies) {
      const { endToEnd, engine } = await run(concurrency, seconds * 1000);
      const verdict = (r: { p99: number; errors: number }) => (r.p99 < targetP99Ms && r.errors === 0 ? 'yes' : 'NO');
      rows.push({ conversations: concurrency, from: 'visitor POST sent', ...endToEnd, 'p99 < 50 ms': verdict(endToEnd) });
      rows.push({ conversations: concurrency, from: 'visitor message published', ...engine, 'p99 < 50 ms': verdict(engine) });
    }
    printTable(`Internal bot reply latency (ms) to the bot's answer on the bus, ${intentCount} intents, ${seconds}s each`, rows);
  } finally {
    await bus.close();
    await running.close();
    await env.drop();
  }
}
