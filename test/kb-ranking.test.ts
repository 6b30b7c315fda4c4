import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.js';
import { addIndexed } from './helpers/kb-fixtures.js';

// KB_RANKING=lexical with vectors: BM25 alone orders the contents, the vectors only decide whether
// the best one answers the question at all (KB_MIN_SIMILARITY), with an embeddings endpoint whose
// vectors the test chooses.

let t: TestApp;
let p: SeededProject;
let embeddings: FakeOpenAI;
const dimensions = 8;
const axis = (i: number) => Array.from({ length: dimensions }, (_, j) => (j === i ? 1 : 0));

beforeAll(async () => {
  embeddings = await startFakeOpenAI(dimensions);
  embeddings.embed = (text) => {
    if (text.startsWith('When do gift cards expire') || text.startsWith('Do vouchers run out')) return axis(0);
    if (text.includes('Store credit')) return [0.9, 0.1, 0, 0, 0, 0, 0, 0];
    if (text.includes('cannot be refunded')) return axis(1);
    if (text.includes('Gift wrapping')) return axis(3);
    return axis(2);
  };
  t = await createTestApp({
    EMBEDDINGS_BASE_URL: embeddings.url,
    EMBEDDINGS_MODEL: 'chosen',
    EMBEDDINGS_DIMENSIONS: String(dimensions),
    KB_RANKING: 'lexical',
    KB_MIN_COVERAGE: '0.9',
    KB_MIN_SIMILARITY: '0.8',
  });
  p = await t.seedProject();
});
afterAll(async () => {
  await t.close();
  await embeddings.close();
});

const add = (ns: string, content: string) => addIndexed(t, p.projectId, p.admin.token, ns, content);

async function namespace(name: string) {
  return (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name } })).body.id as string;
}

it('ranks by BM25 alone: the content sharing the most words comes first whatever the vectors say', async () => {
  const ns = await namespace('Lexical');
  const lexicalOnly = await add(ns, 'Gift cards expire after two years. Gift cards cannot be refunded.');
  const both = await add(ns, 'Store credit from gift cards lasts two years.');
  const res = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, question: 'When do gift cards expire?' } });
  expect(res.body.success).toBe(true);
  expect(res.body.ids).toEqual([lexicalOnly, both]);
});

it('answers a question sharing few words with the best passage when its vector is close enough', async () => {
  const ns = await namespace('Similar');
  const credit = await add(ns, 'Store credit from gift cards lasts two years.');
  const res = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, question: 'Do vouchers run out, like gift credit?' } });
  expect(res.body.success).toBe(true);
  expect(res.body.ids[0]).toBe(credit);
});

it('abstains when the best passage shares few words and its vector is not close enough', async () => {
  const ns = await namespace('Far');
  await add(ns, 'Gift wrapping is free for every order.');
  const res = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, question: 'Is express shipping free?' } });
  expect(res.body.success).toBe(false);
  expect(res.body.ids).toEqual([]);
});
