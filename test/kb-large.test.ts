import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { addIndexed } from './helpers/kb-fixtures.js';

// A large knowledge base (here every namespace counts as large, and a question's candidates may
// number 2 chunks) takes lexical candidates from a question's rarest stems, with document
// frequencies read once per process: what it finds must be what a small one finds.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await createTestApp({ KB_LARGE_NAMESPACE: '1', KB_CANDIDATE_BUDGET: '2' });
  p = await t.seedProject();
});
afterAll(async () => {
  await t.close();
});

async function namespace(name: string) {
  return (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name } })).body.id as string;
}

const add = (ns: string, content: string) => addIndexed(t, p.projectId, p.admin.token, ns, content, 'text');
const ask = (ns: string, question: string) => t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, question } });

const common = 'Orders parcels delivery account support team';

it('finds the chunk of a rare word among chunks that all share the common ones', async () => {
  const ns = await namespace('Rare');
  for (let i = 0; i < 4; i++) await add(ns, `${common}: note number ${i} about the shop.`);
  const descaling = await add(ns, `${common}: descaling the espresso machine takes ten minutes.`);
  const res = await ask(ns, 'How long does descaling take for orders?');
  expect(res.body.success).toBe(true);
  expect(res.body.ids[0]).toBe(descaling);
});

it('finds the chunk holding all of a question\'s words when every word is common', async () => {
  const ns = await namespace('Common');
  const both = await add(ns, 'Parcels and orders: tracking a parcel of an order.');
  // Each word is in more chunks than the budget: candidates must hold several of them.
  await add(ns, 'Parcels: tracking information.');
  await add(ns, 'Orders: tracking history.');
  await add(ns, 'Parcels and orders: what they hold.');
  await add(ns, 'Parcels and tracking numbers in general.');
  const res = await ask(ns, 'parcels orders tracking');
  expect(res.body.success).toBe(true);
  expect(res.body.ids[0]).toBe(both);
});

it('finds a content added after the knowledge base\'s document frequencies were read', async () => {
  const ns = await namespace('Later');
  for (let i = 0; i < 3; i++) await add(ns, `${common}: note number ${i}.`);
  expect((await ask(ns, 'orders support team')).body.success).toBe(true);
  const later = await add(ns, `${common}: gift wrapping costs two euros.`);
  const res = await ask(ns, 'How much is gift wrapping?');
  expect(res.body.success).toBe(true);
  expect(res.body.ids[0]).toBe(later);
});
