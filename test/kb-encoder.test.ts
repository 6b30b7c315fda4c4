import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { waitForStatus } from './helpers/kb-fixtures.js';

// The local sentence encoder (KB_ENCODER=local, the default in embedded mode outside tests): a
// question is matched by meaning with no embeddings service and no network. Its vectors live in
// pgvector in embedded mode and as stored bytes on a PostgreSQL without the extension.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await createTestApp({ KB_ENCODER: 'local' });
  p = await t.seedProject();
});
afterAll(async () => {
  await t.close();
});

it('answers a paraphrase that shares no meaningful word with the faq, from the local encoder', async () => {
  const ns = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Encoder' } })).body.id as string;
  const ids: string[] = [];
  for (const content of [
    'How do I get my money back?\nRefunds are paid to the card used for the order within five days.',
    'What are your opening hours?\nThe shop is open from nine to five on weekdays.',
    'Is there parking near the shop?\nA public car park is two minutes away.',
  ]) {
    const res = await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: { namespace: ns, type: 'faq', content } });
    ids.push(res.body.value._id);
  }
  for (const id of ids) await waitForStatus(t, p.projectId, p.admin.token, id, 300);
  const res = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, question: 'I want my cash returned' } });
  expect(res.body.success).toBe(true);
  expect(res.body.ids[0]).toBe(ids[0]);
});
