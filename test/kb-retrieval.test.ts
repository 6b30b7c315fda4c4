import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { addIndexed } from './helpers/kb-fixtures.js';

// Lexical retrieval (no encoder, no endpoint): BM25 over light stems, the question of an faq
// ranked as a field of its own, each content listed once, and no answer when nothing relates.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
});
afterAll(async () => {
  await t.close();
});

async function namespace(name: string) {
  return (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name } })).body.id as string;
}

const add = (ns: string, type: 'faq' | 'text', content: string) => addIndexed(t, p.projectId, p.admin.token, ns, content, type);

const ask = (ns: string, question: string, topK = 5) =>
  t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, question, top_k: topK } });

describe('lexical retrieval', () => {
  it('matches inflected forms of a word (refunded, refunds)', async () => {
    const ns = await namespace('Stems');
    const refunds = await add(ns, 'faq', 'How are refunds paid?\nThe money goes back to the card used for the order within five days.');
    await add(ns, 'faq', 'Do you deliver on Sundays?\nDeliveries run from Monday to Saturday.');
    const res = await ask(ns, 'I was refunded, where is it?');
    expect(res.body.success).toBe(true);
    expect(res.body.ids[0]).toBe(refunds);
  });

  it('ranks the faq whose question asks it above a text that only repeats its words', async () => {
    const ns = await namespace('Question field');
    const faq = await add(
      ns,
      'faq',
      'Can I change my delivery address?\nYes. Open your account page, choose the order, then edit it; this works until the parcel leaves our ' +
        'warehouse, usually within a day. Orders already handed to the carrier follow the carrier rules instead, and we ' +
        'cannot promise anything for them. Contact us if the order page shows no edit button for your order.',
    );
    const text = await add(
      ns,
      'text',
      'Can I read my delivery address on the label? I can: my delivery address is printed on the address label, and a change of address changes the label.',
    );
    const res = await ask(ns, 'Can I change my delivery address?');
    expect(res.body.ids).toEqual([faq, text]);
  });

  it('lists each content once, best first, however many of its chunks match', async () => {
    const ns = await namespace('Chunks');
    const paragraph = 'The espresso machine needs descaling every month; descaling keeps the espresso machine working. ';
    const long = await add(ns, 'text', Array.from({ length: 30 }, (_, i) => `Part ${i}. ${paragraph}`).join('\n\n'));
    const short = await add(ns, 'text', 'Descaling tablets are sold in packs of six.');
    const chunks = await t.infra.database.prisma.kbChunk.count({ where: { contentId: long } });
    expect(chunks).toBeGreaterThan(2);
    const res = await ask(ns, 'How often does the espresso machine need descaling?', 10);
    expect(res.body.ids).toEqual([long, short]);
    expect(res.body.sources).toHaveLength(2);
  });

  it('answers success false when the question shares only a common word with the knowledge base', async () => {
    const ns = await namespace('Abstention');
    await add(ns, 'faq', 'How long is the warranty on blenders?\nTwo years from the date of purchase.');
    await add(ns, 'faq', 'How long does delivery take?\nTwo to four working days.');
    const res = await ask(ns, 'How long should I boil an egg for breakfast?');
    expect(res.body).toMatchObject({ success: false, ids: [], sources: [] });
  });

  it('quotes the best passage without a model', async () => {
    const ns = await namespace('Extractive');
    await add(ns, 'faq', 'How long is the warranty on blenders?\nTwo years from the date of purchase.');
    const res = await ask(ns, 'What is the warranty on a blender?');
    expect(res.body).toMatchObject({ success: true, answer: 'Two years from the date of purchase.' });
  });
});
