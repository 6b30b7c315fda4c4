// Knowledge base: indexing throughput and question-answering latency on the production mode
// (PostgreSQL + Redis/BullMQ, no embeddings, no model), then retrieval quality (hit@top_k) of
// lexical and hybrid retrieval on a small hand-written set (bench/kb-quality), hybrid with a
// deterministic local embeddings server, on the embedded database (PGlite has pgvector).
import { readFileSync } from 'node:fs';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../src/server.js';
import { startFakeOpenAI } from '../test/helpers/fake-openai.js';
import { benchConfig, productionConfig } from './environment.js';
import { json, printTable, runLoad, summarize } from './lib.js';

const contents = 1000;
const postConcurrency = 8;
const dir = path.dirname(fileURLToPath(import.meta.url));

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'den', 'gar', 'pol', 'tre', 'bas', 'kin', 'mor', 'zel'];
function vocabulary(size: number, rand: () => number) {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(rand() * 3);
    words.add(Array.from({ length: n }, () => syllables[Math.floor(rand() * syllables.length)]).join(''));
  }
  return [...words];
}

/** About 2 KB of sentences: common words plus a few words proper to this document. */
function document(i: number, common: string[], rand: () => number) {
  const own = [`topic${i}a`, `topic${i}b`, `topic${i}c`];
  const sentences: string[] = [];
  let length = 0;
  while (length < 2000) {
    const words = Array.from({ length: 8 + Math.floor(rand() * 8) }, () =>
      rand() < 0.08 ? own[Math.floor(rand() * own.length)] : common[Math.floor(rand() * common.length)],
    );
    const sentence = `${words.join(' ')}.`;
    sentences.push(sentence[0].toUpperCase() + sentence.slice(1));
    length += sentence.length + 1;
  }
  return { own, text: sentences.join(' ') };
}

async function owner(server: RunningServer) {
  const email = `bench.${Date.now()}@example.test`;
  await json(`${server.url}/v3/auth/signup`, 'POST', undefined, { email, password: 'bench password 1' });
  const { token } = await json(`${server.url}/v3/auth/signin`, 'POST', undefined, { email, password: 'bench password 1' });
  const project = await json(`${server.url}/v3/projects`, 'POST', token, { name: 'Bench' });
  return { token: token as string, projectId: project._id as string };
}

/** CPU seconds used so far by the PostgreSQL backends serving one database (read from /proc). */
async function postgresCpuSeconds(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    let ticks = 0;
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // The backend exited meanwhile.
      }
    }
    return ticks / 100;
  } finally {
    await client.end();
  }
}

async function indexingAndLatency() {
  const env = await productionConfig({ LOG_LEVEL: 'error' });
  const server = await startServer(env.config);
  try {
    const { token, projectId } = await owner(server);
    const base = `${server.url}/v3/${projectId}/kb`;
    const namespace = (await json(`${base}/namespace`, 'POST', token, { name: 'Bench' })).id as string;
    const rand = random(42);
    const common = vocabulary(3000, rand);
    const docs = Array.from({ length: contents }, (_, i) => document(i, common, rand));

    const postLatencies: number[] = [];
    const nodeCpuBefore = process.cpuUsage();
    const postgresCpuBefore = await postgresCpuSeconds(env.databaseUrl);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: postConcurrency }, async () => {
        while (next < docs.length) {
          const i = next++;
          const t0 = performance.now();
          await json(base, 'POST', token, { namespace, type: 'text', name: `doc ${i}`, content: docs[i].text });
          postLatencies.push(performance.now() - t0);
        }
      }),
    );
    const posted = (performance.now() - started) / 1000;
    let indexed = 0;
    for (;;) {
      const [done, failed] = await Promise.all([
        json(`${base}?namespace=${namespace}&status=300&limit=1`, 'GET', token),
        json(`${base}?namespace=${namespace}&status=400&limit=1`, 'GET', token),
      ]);
      if (failed.count) throw new Error(`${failed.count} contents failed: ${failed.kbs[0].error}`);
      indexed = done.count;
      if (indexed === contents) break;
      if (performance.now() - started > 300_000) throw new Error(`only ${indexed} of ${contents} indexed after 300 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const nodeCpu = process.cpuUsage(nodeCpuBefore);
    // Both include the bench's own HTTP client and polling: an upper bound of the server's cost.
    const nodeCpuMs = (nodeCpu.user + nodeCpu.system) / 1000 / contents;
    const postgresCpuMs = ((await postgresCpuSeconds(env.databaseUrl)) - postgresCpuBefore) * 1000 / contents;
    const chunks = await server.app.infra.database.prisma.kbChunk.count({ where: { id_project: projectId } });
    const posts = summarize(postLatencies, posted);
    printTable('kb indexing (production mode: PostgreSQL + BullMQ, no embeddings)', [
      {
        contents,
        'bytes each': '~2000',
        chunks,
        'seconds (create to all 300)': Math.round(seconds * 100) / 100,
        'contents/s': Math.round((contents / seconds) * 10) / 10,
        'target contents/s': 50,
        'POST p50 ms': posts.p50,
        'POST p95 ms': posts.p95,
        'node CPU ms/content': Math.round(nodeCpuMs * 10) / 10,
        'postgres CPU ms/content': Math.round(postgresCpuMs * 10) / 10,
        'load average': os.loadavg()[0].toFixed(1),
      },
    ]);

    const question = (worker: number, iteration: number) => {
      const doc = docs[(worker * 7919 + iteration * 104729) % docs.length];
      return `${doc.own[iteration % 3]} ${common[(iteration * 31) % common.length]} ${common[(iteration * 17) % common.length]}`;
    };
    const rows = [];
    for (const concurrency of [1, 4]) {
      let answered = 0;
      let asked = 0;
      const load = await runLoad({
        concurrency,
        durationMs: 10_000,
        warmupMs: 2_000,
        task: async (worker, iteration) => {
          const res = await json(`${base}/qa`, 'POST', token, { namespace, question: question(worker, iteration) });
          asked++;
          if (res.success) answered++;
        },
      });
      rows.push({ clients: concurrency, ...load, 'target p95 ms': 50, 'answered %': Math.round((answered / Math.max(asked, 1)) * 1000) / 10 });
    }
    printTable('kb question answering without a model (POST /kb/qa over those chunks, extractive answer)', rows);

    // The retrieval alone (the SQL ranking), as the service runs it, without HTTP, auth and answer building.
    const { retriever } = server.app.services.kb;
    const latencies: number[] = [];
    const retrievalStart = performance.now();
    for (let i = 0; i < 300; i++) {
      const t0 = performance.now();
      await retriever.search(projectId, namespace, question(i % 4, i), 4);
      latencies.push(performance.now() - t0);
    }
    printTable('kb lexical retrieval alone (top 4 of those chunks, one caller)', [
      { ...summarize(latencies, (performance.now() - retrievalStart) / 1000) },
    ]);
  } finally {
    await server.close();
    await env.drop();
  }
}

interface QualityDoc {
  id: string;
  title: string;
  text: string;
}

async function retrievalQuality() {
  const docs = JSON.parse(readFileSync(path.join(dir, 'kb-quality/documents.json'), 'utf8')) as QualityDoc[];
  const questions = JSON.parse(readFileSync(path.join(dir, 'kb-quality/questions.json'), 'utf8')) as Array<{ question: string; expected: string }>;
  const embeddings = await startFakeOpenAI();
  const config = benchConfig({
    EMBEDDINGS_BASE_URL: embeddings.url,
    EMBEDDINGS_MODEL: 'hashed-bag-of-words',
    EMBEDDINGS_DIMENSIONS: '256',
  });

  const server = await startServer(config, { inMemory: true });
  try {
    if (!server.app.infra.database.hasVector) throw new Error('the embedded database has no pgvector');
    const { token, projectId } = await owner(server);
    const base = `${server.url}/v3/${projectId}/kb`;
    const namespace = (await json(`${base}/namespace`, 'POST', token, { name: 'Quality' })).id as string;
    const contentOf = new Map<string, string>();
    for (const doc of docs) {
      const created = await json(base, 'POST', token, { namespace, type: 'text', name: doc.title, content: `${doc.title}\n\n${doc.text}` });
      contentOf.set(created.value._id, doc.id);
    }
    for (;;) {
      const done = await json(`${base}?namespace=${namespace}&status=300&limit=1`, 'GET', token);
      if (done.count === docs.length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { retriever } = server.app.services.kb;
    const rows = [];
    for (const mode of ['lexical', 'fusion'] as const) {
      for (const topK of [1, 4]) {
        let hits = 0;
        for (const q of questions) {
          const chunks = await retriever.search(projectId, namespace, q.question, topK, { mode });
          if (chunks.some((c) => contentOf.get(c.contentId) === q.expected)) hits++;
        }
        rows.push({ retrieval: mode, top_k: topK, questions: questions.length, hits, [`hit@top_k`]: Math.round((hits / questions.length) * 1000) / 10 + '%' });
      }
    }
    printTable(`kb retrieval quality (${docs.length} documents, ${questions.length} questions; hybrid with hashed bag-of-words embeddings)`, rows);
  } finally {
    await server.close();
    await embeddings.close();
  }
}

export default async function () {
  await indexingAndLatency();
  await retrievalQuality();
}
