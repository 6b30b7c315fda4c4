import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { productionMode } from './helpers/environment.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.js';
import { waitForStatus } from './helpers/kb-fixtures.js';

// Where PostgreSQL has no pgvector each process keeps a namespace's vectors in memory: what
// another node adds or removes must count for the next question here. Production mode runs two
// nodes on one database; embedded mode (PGlite, pgvector in the database) one node in both roles.

let embeddings: FakeOpenAI;
let here: TestApp;
let there: TestApp;
let p: SeededProject;
let ns: string;
const closing: Array<() => Promise<void>> = [];

beforeAll(async () => {
  embeddings = await startFakeOpenAI();
  const env = { EMBEDDINGS_BASE_URL: embeddings.url, EMBEDDINGS_API_KEY: 'emb-key', EMBEDDINGS_MODEL: 'hash-embed', EMBEDDINGS_DIMENSIONS: '256' };
  const first = await createTestServer(env);
  here = first.client;
  closing.push(() => here.close());
  if (productionMode) {
    const second = await createTestServer(env, { databaseUrl: first.config.databaseUrl, prefix: first.config.redisPrefix });
    there = second.client;
    closing.unshift(() => there.close());
  } else there = here;
  p = await here.seedProject();
  ns = (await here.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Appliances' } })).body.id;
});
afterAll(async () => {
  for (const close of closing) await close();
  await embeddings.close();
});

async function add(t: TestApp, content: string) {
  const res = await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: { namespace: ns, type: 'text', content } });
  await waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 300);
  return res.body.value._id as string;
}
// Misspelt: the question shares no word with the content, only character trigrams (the fake's vectors).
const ask = (question: string) => here.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, question } });

it('finds by vector a content another node added after this one read the namespace\'s vectors, and not once it is removed', async () => {
  const espresso = await add(here, 'Espressomachines need descaling with citric acid.');
  await add(here, 'Gift cards never expire.');
  expect((await ask('espresomachine decsaling')).body.ids[0]).toBe(espresso);

  const kettles = await add(there, 'Kettles want decalcification with white vinegar.');
  const found = await ask('kettels decalcificaton');
  expect(found.body.success).toBe(true);
  expect(found.body.ids[0]).toBe(kettles);

  expect((await there.delete(`/v3/${p.projectId}/kb/${kettles}`, { token: p.admin.token })).status).toBe(200);
  expect((await ask('kettels decalcificaton')).body.ids).not.toContain(kettles);
});
