import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { consumerCaughtUp } from './helpers/event-consumers.js';

// The bot and a human never talk over each other: once a teammate writes in (or takes part in) a
// conversation, the bot stays silent there.

let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Silence');
});
afterAll(() => t.close());

async function botConversation() {
  const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Ada', template: 'example' } });
  const dept = await t.post(`/v3/${p.projectId}/departments`, {
    token: p.owner.token,
    body: { name: `Bot desk ${Math.random()}`, routing: 'assigned', id_bot: bot.body._id },
  });
  const requestId = newRequestId();
  await send(t, p.projectId, p.guest.token, requestId, { text: 'hello', departmentid: dept.body._id });
  const botId = bot.body._id as string;
  const botMessages = async () =>
    ((await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.owner.token })).body as Array<{ sender: string }>).filter(
      (m) => m.sender === `bot_${botId}`,
    ).length;
  await eventually(async () => (await botMessages()) >= 1, 20_000);
  return { requestId, botMessages };
}

describe('a bot in a conversation a teammate wrote in', () => {
  it('answers the visitor while no teammate has written', async () => {
    const { requestId, botMessages } = await botConversation();
    const before = await botMessages();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'goodbye' });
    await eventually(async () => (await botMessages()) > before, 20_000);
  });

  it('stays silent once a teammate has written', async () => {
    const { requestId, botMessages } = await botConversation();
    expect((await send(t, p.projectId, p.owner.token, requestId, { text: 'Hi, I am Olga, I will help you.' })).status).toBe(200);
    const before = await botMessages();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'goodbye' });
    await eventually(() => consumerCaughtUp(t, 'bots', p.projectId), 20_000);
    expect(await botMessages()).toBe(before);
  });
});
