import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.js';
import { waitForStatus } from './helpers/kb-fixtures.js';

// Embeddings configured: vectors stored in pgvector where the database has it (PGlite does), as
// bytes scored by the server where it has not (the machine's PostgreSQL): both fuse them with
// lexical retrieval.

let t: TestApp;
let p: SeededProject;
let embeddings: FakeOpenAI;
let ns: string;
beforeAll(async () => {
  embeddings = await startFakeOpenAI();
  t = await createTestApp({
    EMBEDDINGS_BASE_URL: embeddings.url,
    EMBEDDINGS_API_KEY: 'emb-key',
    EMBEDDINGS_MODEL: 'hash-embed',
    EMBEDDINGS_DIMENSIONS: '256',
  });
  p = await t.seedProject();
  ns = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Appliances' } })).body.id;
});
afterAll(async () => {
  await t.close();
  await embeddings.close();
});

async function add(content: string) {
  const res = await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: { namespace: ns, type: 'text', content } });
  return res.body.value._id as string;
}
const ask = (question: string) => t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, question } });

describe('with an embeddings endpoint', () => {
  it('embeds the chunks of a content when indexing it', async () => {
    const id = await add('The dishwasher cleans its own filter every night.');
    await waitForStatus(t, p.projectId, p.admin.token, id, 300);
    const request = embeddings.embeddingRequests.find((r) => JSON.stringify(r.input).includes('dishwasher cleans'));
    expect(request).toMatchObject({ model: 'hash-embed', dimensions: 256, authorization: 'Bearer emb-key' });
  });

  it('finds by vector similarity a chunk that shares no word with the question', async () => {
    const id = await add('Espressomachines need descaling with citric acid.');
    const other = await add('Gift cards never expire.');
    await waitForStatus(t, p.projectId, p.admin.token, id, 300);
    await waitForStatus(t, p.projectId, p.admin.token, other, 300);
    const res = await ask('espresomachine decsaling');
    expect(res.body.success).toBe(true);
    expect(res.body.ids[0]).toBe(id);
    // The question itself is embedded (indexing of other contents may call the endpoint too).
    expect(embeddings.embeddingRequests.map((r) => r.input)).toContainEqual('espresomachine decsaling');
  });

  it('retries when the embeddings endpoint fails and ends in status 400 with the reason', async () => {
    embeddings.embeddingsStatus = 503;
    try {
      const id = await add('The oven preheats in ten minutes.');
      const failed = await waitForStatus(t, p.projectId, p.admin.token, id, 400);
      expect(failed.error).toMatch(/embeddings endpoint answered 503/);
    } finally {
      embeddings.embeddingsStatus = undefined;
    }
  });

  it('keeps answering from lexical retrieval when the embeddings endpoint fails at question time', async () => {
    const id = await add('The kettle switches itself off when empty.');
    await waitForStatus(t, p.projectId, p.admin.token, id, 300);
    embeddings.embeddingsStatus = 500;
    try {
      const res = await ask('Does the kettle switch off when empty?');
      expect(res.body.success).toBe(true);
      expect(res.body.ids[0]).toBe(id);
    } finally {
      embeddings.embeddingsStatus = undefined;
    }
  });
});
