import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { consumerCaughtUp } from './helpers/event-consumers.js';

// A bot that joins a conversation already under way (the request re-routed to its department, over
// REST or GraphQL) speaks as a bot does on creation: it greets with its start intent, then answers
// the visitor's last unanswered message on its merits. A bot on the default department answers
// new conversations.

let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Re-route');
});

interface Message {
  sender: string;
  text: string;
  attributes: Record<string, any>;
}

const greeting = 'Hi! I am a demo bot. Ask me about our opening hours, prices or your password.';
const openingHours = 'We are open Monday to Friday, 9:00 to 18:00.';

/** A bot made from the example template ("What are your opening hours?" among its intents) and a department it serves. */
async function botDesk() {
  const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Ada', template: 'example' } });
  expect(bot.status).toBe(200);
  const department = await t.post(`/v3/${p.projectId}/departments`, {
    token: p.owner.token,
    body: { name: `Bot desk ${Math.random()}`, routing: 'assigned', id_bot: bot.body._id },
  });
  expect(department.status).toBe(200);
  return { botId: bot.body._id as string, departmentId: department.body._id as string };
}

const messagesOf = async (requestId: string): Promise<Message[]> =>
  (await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.owner.token })).body;

/** Waits until the bot has said `n` messages in the request; answers them, oldest first. */
const botSays = (requestId: string, botId: string, n: number) =>
  eventually(async () => {
    const said = (await messagesOf(requestId)).filter((m) => m.sender === `bot_${botId}`);
    return said.length >= n ? said : null;
  });

/** A conversation in the default department (no bot) where the visitor asked `text`. */
async function askedWithoutBot(text: string) {
  const requestId = newRequestId();
  expect((await send(t, p.projectId, p.guest.token, requestId, { text })).status).toBe(200);
  return requestId;
}

describe('a bot that joins by re-routing', () => {
  it('greets and answers the visitor\'s question asked before (PUT /v3/:project_id/requests/:request_id/departments)', async () => {
    const { botId, departmentId } = await botDesk();
    const requestId = await askedWithoutBot('What are your opening hours?');
    const routed = await t.put(`/v3/${p.projectId}/requests/${requestId}/departments`, { token: p.owner.token, body: { departmentid: departmentId } });
    expect(routed.status).toBe(200);
    expect(routed.body.participatingBots).toEqual([botId]);
    const [hello, answer] = await botSays(requestId, botId, 2);
    expect(hello).toMatchObject({ text: greeting, attributes: { intentName: 'start' } });
    expect(answer).toMatchObject({ text: openingHours, attributes: { intentName: 'opening_hours' } });
  });

  it('greets and answers the visitor\'s question asked before (GraphQL routeRequest)', async () => {
    const { botId, departmentId } = await botDesk();
    const requestId = await askedWithoutBot('What are your opening hours?');
    const res = await t.gql(
      'mutation($p: String!, $r: String!, $d: String) { routeRequest(project_id: $p, request_id: $r, departmentid: $d) { participatingBots } }',
      { p: p.projectId, r: requestId, d: departmentId },
      p.owner.token,
    );
    expect(res.body.errors).toBeUndefined();
    const [hello, answer] = await botSays(requestId, botId, 2);
    expect(hello.attributes.intentName).toBe('start');
    expect(answer.text).toBe(openingHours);
  });

  it('answers the visitor\'s last message only, and only once', async () => {
    const { botId, departmentId } = await botDesk();
    const requestId = await askedWithoutBot('hello there');
    expect((await send(t, p.projectId, p.guest.token, requestId, { text: 'What are your opening hours?' })).status).toBe(200);
    await t.put(`/v3/${p.projectId}/requests/${requestId}/departments`, { token: p.owner.token, body: { departmentid: departmentId } });
    await botSays(requestId, botId, 2);
    // The visitor's next question gets one answer: the earlier ones are not answered again.
    expect((await send(t, p.projectId, p.guest.token, requestId, { text: 'How much does it cost?' })).status).toBe(200);
    const said = await botSays(requestId, botId, 3);
    expect(said.map((m) => m.attributes.intentName)).toEqual(['start', 'opening_hours', 'prices']);
  });

  it('says nothing twice when the bots read the project\'s events again (a crash before their cursor moved)', async () => {
    const { botId, departmentId } = await botDesk();
    const requestId = await askedWithoutBot('hello there');
    await t.put(`/v3/${p.projectId}/requests/${requestId}/departments`, { token: p.owner.token, body: { departmentid: departmentId } });
    await botSays(requestId, botId, 2);
    expect((await send(t, p.projectId, p.guest.token, requestId, { text: 'What are your opening hours?' })).status).toBe(200);
    await botSays(requestId, botId, 3);
    const { prisma } = t.infra.database;
    const botMessages = () => prisma.message.count({ where: { id_project: p.projectId, sender: { startsWith: 'bot_' } } });
    const before = await botMessages();

    expect(await prisma.$executeRaw`UPDATE "EventCursor" SET "seq" = 0 WHERE "consumer" = 'bots' AND "id_project" = ${p.projectId}`).toBe(1);
    await t.infra.eventConsumers.sweep();
    expect(await consumerCaughtUp(t, 'bots', p.projectId)).toBe(true);
    expect(await botMessages()).toBe(before);
  });

  it('only greets when an agent already answered the visitor', async () => {
    const { botId, departmentId } = await botDesk();
    const requestId = await askedWithoutBot('What are your opening hours?');
    expect((await send(t, p.projectId, p.owner.token, requestId, { text: 'Let me check.' })).status).toBe(200);
    await t.put(`/v3/${p.projectId}/requests/${requestId}/departments`, { token: p.owner.token, body: { departmentid: departmentId } });
    const [hello] = await botSays(requestId, botId, 1);
    expect(hello.attributes.intentName).toBe('start');
    // The visitor's next message is the bot's next answer: no answer to the question the agent took.
    expect((await send(t, p.projectId, p.guest.token, requestId, { text: 'How much does it cost?' })).status).toBe(200);
    const said = await botSays(requestId, botId, 2);
    expect(said.map((m) => m.attributes.intentName)).toEqual(['start', 'prices']);
  });

  it('stays silent when re-routed with nobot', async () => {
    const { departmentId } = await botDesk();
    const requestId = await askedWithoutBot('What are your opening hours?');
    const routed = await t.put(`/v3/${p.projectId}/requests/${requestId}/departments`, { token: p.owner.token, body: { departmentid: departmentId, nobot: true } });
    expect(routed.status).toBe(200);
    expect(routed.body.participatingBots).toEqual([]);
  });
});

describe('a bot on the default department', () => {
  it('answers new conversations (updateDepartment id_bot on the default department)', async () => {
    const own = await t.seedProject('Default bot');
    const bot = await t.post(`/v3/${own.projectId}/bots`, { token: own.admin.token, body: { name: 'Ada', template: 'example' } });
    const set = await t.gql(
      'mutation($p: String!, $b: String) { updateDepartment(project_id: $p, id: "default", id_bot: $b) { id_bot default } }',
      { p: own.projectId, b: bot.body._id },
      own.owner.token,
    );
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.updateDepartment).toMatchObject({ id_bot: bot.body._id, default: true });
    const requestId = newRequestId();
    expect((await send(t, own.projectId, own.guest.token, requestId, { text: 'What are your opening hours?' })).status).toBe(200);
    const answer = await eventually(async () => {
      const messages: Message[] = (await t.get(`/v3/${own.projectId}/requests/${requestId}/messages`, { token: own.owner.token })).body;
      return messages.find((m) => m.sender === `bot_${bot.body._id}`);
    });
    expect(answer.text).toBe(openingHours);
  });
});
