import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopGuard, noAgentMessage } from '../src/modules/bots/engine/engine.js';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';

// The internal bot engine, seen from the conversation: what the bot answers and what it does.

let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Engine');
});
afterAll(() => t.close());

interface Message {
  _id: string;
  sender: string;
  senderFullname: string;
  text: string;
  attributes: Record<string, any>;
}

/** An internal bot serving a new department of its own. */
async function botDepartment(bot: Record<string, unknown> = {}, department: Record<string, unknown> = {}) {
  const created = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Ada', ...bot } });
  expect(created.status).toBe(200);
  const dept = await t.post(`/v3/${p.projectId}/departments`, {
    token: p.owner.token,
    body: { name: `Bot desk ${Math.random()}`, routing: 'assigned', id_bot: created.body._id, ...department },
  });
  expect(dept.status).toBe(200);
  return { bot: created.body as { _id: string; name: string }, departmentId: dept.body._id as string };
}

async function addIntent(botId: string, body: Record<string, unknown>) {
  const res = await t.post(`/v3/${p.projectId}/faq`, { token: p.admin.token, body: { id_faq_kb: botId, ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

async function messagesOf(requestId: string, token = p.owner.token): Promise<Message[]> {
  const res = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

const fromBot = (messages: Message[], botId: string) => messages.filter((m) => m.sender === `bot_${botId}`);

/** Waits for the bot's `n`-th message in the request and returns the bot's messages. */
async function botMessages(requestId: string, botId: string, n: number) {
  return eventually(async () => {
    const mine = fromBot(await messagesOf(requestId), botId);
    return mine.length >= n ? mine : null;
  });
}

/** Opens a conversation in the bot's department and waits for the start answer. */
async function conversation(botId: string, departmentId: string, text = 'hello') {
  const requestId = newRequestId();
  expect((await send(t, p.projectId, p.guest.token, requestId, { text, departmentid: departmentId })).status).toBe(200);
  await botMessages(requestId, botId, 1);
  return requestId;
}

/** The end user says `text`; resolves with the bot's reply (its `n`-th message). */
async function ask(requestId: string, botId: string, text: string) {
  const before = fromBot(await messagesOf(requestId), botId).length;
  expect((await send(t, p.projectId, p.guest.token, requestId, { text })).status).toBe(200);
  const mine = await botMessages(requestId, botId, before + 1);
  return mine[before];
}

const requestOf = async (requestId: string) => (await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token })).body;

describe('internal bot answers', () => {
  it('answers a first message that matches an intent with that intent, not the greeting', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'What are your opening hours?', departmentid: departmentId });
    const [reply] = await botMessages(requestId, bot._id, 1);
    expect(reply).toMatchObject({ text: 'We are open Monday to Friday, 9:00 to 18:00.', attributes: { intentName: 'opening_hours' } });
    expect(fromBot(await messagesOf(requestId), bot._id)).toHaveLength(1);
  });

  it('greets with the start intent a first message that matches nothing', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'zebra quantum marmalade', departmentid: departmentId });
    const [reply] = await botMessages(requestId, bot._id, 1);
    expect(reply.attributes.intentName).toBe('start');
  });

  it('greets when the conversation opens with \\start, then answers the question that follows', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: '\\start', departmentid: departmentId });
    const [greeting] = await botMessages(requestId, bot._id, 1);
    expect(greeting.attributes.intentName).toBe('start');
    expect((await ask(requestId, bot._id, 'What are your opening hours?')).attributes.intentName).toBe('opening_hours');
  });

  it('joins a request of its department and greets with the start intent', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: '\\start', departmentid: departmentId });
    const [reply] = await botMessages(requestId, bot._id, 1);
    expect(reply).toMatchObject({
      sender: `bot_${bot._id}`,
      senderFullname: 'Ada',
      text: 'Hi! I am a demo bot. Ask me about our opening hours, prices or your password.',
    });
    expect(reply.attributes.attachment.buttons.map((b: { value: string }) => b.value)).toContain('Prices');
    const request = await requestOf(requestId);
    expect(request).toMatchObject({ hasBot: true, participatingBots: [bot._id], status: 200 });
  });

  it('answers with the intent whose question matches after normalisation', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = await conversation(bot._id, departmentId);
    const reply = await ask(requestId, bot._id, '  WHAT are your OPENING hours??? ');
    expect(reply.text).toBe('We are open Monday to Friday, 9:00 to 18:00.');
    expect(reply.attributes.intentName).toBe('opening_hours');
  });

  it('ignores accents and punctuation', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'blank' });
    await addIntent(bot._id, { intent_display_name: 'cafe', question: 'Où est le café ?', answer: 'Au rez-de-chaussée.' });
    const requestId = await conversation(bot._id, departmentId);
    expect((await ask(requestId, bot._id, 'ou est le cafe')).text).toBe('Au rez-de-chaussée.');
  });

  it('answers a paraphrase with the most similar intent', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = await conversation(bot._id, departmentId);
    expect((await ask(requestId, bot._id, 'how do I reset the password of my account')).attributes.intentName).toBe('reset_password');
  });

  it('passes the intent\'s attributes on with the answer', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = await conversation(bot._id, departmentId);
    const reply = await ask(requestId, bot._id, 'prices');
    expect(reply.attributes.attachment).toEqual({
      type: 'template',
      buttons: [{ type: 'url', value: 'See all plans', link: 'https://example.com/pricing' }],
    });
  });

  it('answers anything it does not understand with the default fallback', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = await conversation(bot._id, departmentId);
    const reply = await ask(requestId, bot._id, 'zebra quantum marmalade');
    expect(reply.text).toBe("Sorry, I didn't understand that. Can you rephrase your question?");
    expect(reply.attributes.intentName).toBe('defaultFallback');
  });

  it('never answers with a disabled intent', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'blank' });
    await addIntent(bot._id, { intent_display_name: 'off', question: 'secret menu', answer: 'Hidden', enabled: false });
    const requestId = await conversation(bot._id, departmentId);
    expect((await ask(requestId, bot._id, 'secret menu')).attributes.intentName).toBe('defaultFallback');
  });

  it('answers with intents changed after the bot started talking', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'blank' });
    const requestId = await conversation(bot._id, departmentId);
    expect((await ask(requestId, bot._id, 'new topic')).attributes.intentName).toBe('defaultFallback');
    await addIntent(bot._id, { intent_display_name: 'topic', question: 'new topic', answer: 'Now I know.' });
    expect((await ask(requestId, bot._id, 'new topic')).text).toBe('Now I know.');
  });

  // A teammate's message is not answered either: it silences the bot (bots-human-silence.test.ts).
  it('answers only the end user: not hidden messages', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'blank' });
    const requestId = await conversation(bot._id, departmentId);
    expect((await send(t, p.projectId, p.guest.token, requestId, { text: 'typing...', attributes: { subtype: 'info' } })).status).toBe(200);
    await ask(requestId, bot._id, 'anyone?');
    // Turns are answered in order: had the bot answered the agent or the info message, it would show by now.
    expect(fromBot(await messagesOf(requestId), bot._id)).toHaveLength(2);
  });
});

describe('hand-off and close', () => {
  it('hands off to an available agent when an intent answers \\agent', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'handoff' });
    const requestId = await conversation(bot._id, departmentId);
    const reply = await ask(requestId, bot._id, 'I want to talk to a human');
    expect(reply.text).toBe('Let me put you in touch with one of our agents.');
    const request = await eventually(async () => {
      const current = await requestOf(requestId);
      return current.hasBot === false ? current : null;
    });
    expect(request.status).toBe(200);
    expect(request.participatingBots).toEqual([]);
    expect(request.participatingAgents).toHaveLength(1);
    expect([p.owner.userId, p.admin.userId, p.agent.userId]).toContain(request.participatingAgents[0]);
  });

  it('hands off when the end user types \\agent', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'blank' });
    const requestId = await conversation(bot._id, departmentId);
    await send(t, p.projectId, p.guest.token, requestId, { text: '\\agent' });
    const request = await eventually(async () => {
      const current = await requestOf(requestId);
      return current.hasBot === false ? current : null;
    });
    expect(request.participatingAgents).toHaveLength(1);
  });

  it('leaves the request UNSERVED and says the configured message when no agent is available', async () => {
    const group = await t.post(`/v3/${p.projectId}/groups`, { token: p.owner.token, body: { name: 'Nobody', members: [] } });
    const { bot, departmentId } = await botDepartment(
      { template: 'handoff' },
      { id_group: group.body._id, offline_msg: 'All our agents are busy: we will e-mail you.' },
    );
    const requestId = await conversation(bot._id, departmentId);
    await send(t, p.projectId, p.guest.token, requestId, { text: 'talk to an agent' });
    const [, handoff, unavailable] = await botMessages(requestId, bot._id, 3);
    expect(handoff.text).toBe('Let me put you in touch with one of our agents.');
    expect(unavailable.text).toBe('All our agents are busy: we will e-mail you.');
    expect(await requestOf(requestId)).toMatchObject({ status: 100, hasBot: false, participants: [] });
  });

  it('says the default message when the department has none configured', async () => {
    const group = await t.post(`/v3/${p.projectId}/groups`, { token: p.owner.token, body: { name: 'Nobody', members: [] } });
    const { bot, departmentId } = await botDepartment({ template: 'blank' }, { id_group: group.body._id });
    const requestId = await conversation(bot._id, departmentId);
    await send(t, p.projectId, p.guest.token, requestId, { text: '\\agent' });
    const messages = await botMessages(requestId, bot._id, 2);
    expect(messages[1].text).toBe(noAgentMessage);
  });

  it('closes the request when an answer says \\close', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = await conversation(bot._id, departmentId);
    const reply = await ask(requestId, bot._id, 'goodbye');
    expect(reply.text).toBe('Thank you for chatting with us. Goodbye!');
    const closed = await eventually(async () => {
      const current = await requestOf(requestId);
      return current.status === 1000 ? current : null;
    });
    expect(closed.closed_by).toBe(`bot_${bot._id}`);
  });
});

describe('forms and chatbot parameters', () => {
  it('asks each field, checks it, answers with the values and keeps them as chatbot parameters', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = await conversation(bot._id, departmentId);
    expect((await ask(requestId, bot._id, 'Call me back')).text).toBe('What is your name?');
    expect((await ask(requestId, bot._id, 'Grace')).text).toBe('What is your e-mail address?');
    expect((await ask(requestId, bot._id, 'not an address')).text).toBe('That does not look like an e-mail address; please try again.');
    const done = await ask(requestId, bot._id, 'grace@example.com');
    expect(done.text).toBe('Thanks Grace, we will contact you at grace@example.com within one working day.');
    const parameters = await t.get(`/v3/${p.projectId}/requests/${requestId}/chatbot/parameters`, { token: p.guest.token });
    expect(parameters.status).toBe(200);
    expect(parameters.body).toMatchObject({ name: 'Grace', email: 'grace@example.com' });
  });

  it('stops the form on a cancel command', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'example' });
    const requestId = await conversation(bot._id, departmentId);
    await ask(requestId, bot._id, 'I want a callback');
    expect((await ask(requestId, bot._id, 'Cancel')).text).toBe('No problem, I stopped.');
    expect((await ask(requestId, bot._id, 'prices')).attributes.intentName).toBe('prices');
  });
});

describe('loop guard', () => {
  it('stops a bot that is talking in a loop and tells the agents with a hidden message', async () => {
    const { bot, departmentId } = await botDepartment({ template: 'blank' });
    // A client on the visitor's side that answers every bot message, as another bot would.
    const requestId = await conversation(bot._id, departmentId, 'ping');
    let notice: Message | undefined;
    for (let turn = 0; turn < loopGuard.maxMessages + 5 && !notice; turn++) {
      const before = fromBot(await messagesOf(requestId), bot._id).length;
      await send(t, p.projectId, p.guest.token, requestId, { text: `ping ${turn}` });
      const mine = await botMessages(requestId, bot._id, before + 1);
      notice = mine.find((m) => m.attributes.loopGuard === true);
    }
    expect(notice).toBeDefined();
    const mine = fromBot(await messagesOf(requestId), bot._id);
    expect(mine).toHaveLength(loopGuard.maxMessages + 1);
    expect(mine.at(-1)!.attributes.subtype).toBe('info');
    const seenByVisitor = fromBot(await messagesOf(requestId, p.guest.token), bot._id);
    expect(seenByVisitor).toHaveLength(loopGuard.maxMessages);
  });
});
