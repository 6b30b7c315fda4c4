import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { waitForStatus } from './helpers/kb-fixtures.js';

// An internal bot that names a knowledge base (kb_namespace) answers from it what none of its
// intents matches, with the passage's source in the message attributes, before its fallback.

let t: TestApp;
let p: SeededProject;
let ns: string;
let refunds: string;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Bot knowledge');
  ns = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Shop' } })).body.id;
  const res = await t.post(`/v3/${p.projectId}/kb`, {
    token: p.admin.token,
    body: { namespace: ns, type: 'faq', name: 'Refunds', content: 'How are refunds paid?\nRefunds go back to the card used for the order within five days.' },
  });
  refunds = res.body.value._id;
  await waitForStatus(t, p.projectId, p.admin.token, refunds, 300);
});
afterAll(() => t.close());

async function botDepartment(bot: Record<string, unknown>) {
  const created = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Kim', template: 'example', ...bot } });
  expect(created.status).toBe(200);
  const dept = await t.post(`/v3/${p.projectId}/departments`, {
    token: p.owner.token,
    body: { name: `Desk ${Math.random()}`, routing: 'assigned', id_bot: created.body._id },
  });
  return { botId: created.body._id as string, departmentId: dept.body._id as string };
}

/** Opens a conversation (greeted), asks `question`, and answers the bot's reply to it. */
async function replyTo(botId: string, departmentId: string, question: string) {
  const requestId = newRequestId();
  const botMessages = async (n: number) =>
    eventually(async () => {
      const res = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.owner.token });
      const mine = (res.body as Array<{ sender: string; text: string; attributes: Record<string, any> }>).filter((m) => m.sender === `bot_${botId}`);
      return mine.length >= n ? mine : null;
    });
  await send(t, p.projectId, p.guest.token, requestId, { text: 'hello', departmentid: departmentId });
  await botMessages(1);
  await send(t, p.projectId, p.guest.token, requestId, { text: question });
  return (await botMessages(2))[1];
}

it('answers from its knowledge base what no intent matches, citing the source', async () => {
  const { botId, departmentId } = await botDepartment({ kb_namespace: ns });
  const reply = await replyTo(botId, departmentId, 'How do refunds get paid back?');
  expect(reply.text).toContain('Refunds go back to the card used for the order within five days.');
  expect(reply.attributes.kb).toMatchObject({ namespace: ns, id: refunds, source: 'Refunds' });
});

it('falls back to defaultFallback when its knowledge base holds no answer', async () => {
  const { botId, departmentId } = await botDepartment({ kb_namespace: ns });
  const reply = await replyTo(botId, departmentId, 'Do you sell bicycles?');
  expect(reply.attributes.intentName).toBe('defaultFallback');
});

it('refuses a knowledge base of another project', async () => {
  const other = await t.seedProject('Other');
  const foreign = (await t.post(`/v3/${other.projectId}/kb/namespace`, { token: other.admin.token, body: { name: 'Theirs' } })).body.id;
  const res = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Lee', kb_namespace: foreign } });
  expect(res.status).toBe(400);
  expect(JSON.stringify(res.body)).toContain('kb_namespace');
});
