import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.js';
import { addIndexed } from './helpers/kb-fixtures.js';

// Lexical and dense rankings fused by min-max score fusion (KB_RANKING=fusion, half weight each), with an embeddings endpoint whose
// vectors the test chooses (pgvector in embedded mode, stored bytes in production mode).

let t: TestApp;
let p: SeededProject;
let embeddings: FakeOpenAI;
const dimensions = 8;
const axis = (i: number, weight = 1) => Array.from({ length: dimensions }, (_, j) => (j === i ? weight : 0));

beforeAll(async () => {
  embeddings = await startFakeOpenAI(dimensions);
  // Meanings the words do not show: the question and the store-credit text point the same way.
  embeddings.embed = (text) => {
    if (text.startsWith('When do gift cards expire')) return axis(0);
    if (text.includes('Store credit')) return [0.9, 0.1, 0, 0, 0, 0, 0, 0];
    if (text.includes('cannot be refunded')) return axis(1);
    return axis(2);
  };
  t = await createTestApp({ EMBEDDINGS_BASE_URL: embeddings.url, EMBEDDINGS_MODEL: 'chosen', EMBEDDINGS_DIMENSIONS: String(dimensions), KB_RANKING: 'fusion', KB_DENSE_WEIGHT: '0.5' });
  p = await t.seedProject();
});
afterAll(async () => {
  await t.close();
  await embeddings.close();
});

const add = (ns: string, content: string) => addIndexed(t, p.projectId, p.admin.token, ns, content);

it('ranks first a content high in both rankings over one first in the lexical ranking only', async () => {
  const ns = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Fusion' } })).body.id as string;
  const lexicalOnly = await add(ns, 'Gift cards expire after two years. Gift cards cannot be refunded.');
  const both = await add(ns, 'Store credit from gift cards lasts two years.');
  const wrapping = await add(ns, 'Gift wrapping is free.');
  const res = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, question: 'When do gift cards expire?' } });
  expect(res.body.success).toBe(true);
  expect(res.body.ids.slice(0, 2)).toEqual([both, lexicalOnly]);
  expect(res.body.ids).toContain(wrapping);
});
