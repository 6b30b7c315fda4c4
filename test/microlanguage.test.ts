import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';

// The microlanguage pre-processor, seen through REST: what a post with `attributes.microlanguage`
// becomes, and that internal bots' answers are always expanded.

let t: TestApp;
let p: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Micro');
});
afterAll(() => t.close());

interface Message {
  _id: string;
  sender: string;
  text: string;
  type: string;
  metadata?: Record<string, unknown>;
  attributes: Record<string, any>;
}

async function messagesOf(requestId: string): Promise<Message[]> {
  const res = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

/** The agent posts `text` with the microlanguage on to a new request; answers the request's messages after the visitor's. */
async function agentPosts(text: string, attributes: Record<string, unknown> = { microlanguage: true }) {
  const requestId = newRequestId();
  expect((await send(t, p.projectId, p.guest.token, requestId, { text: 'hi' })).status).toBe(200);
  const res = await send(t, p.projectId, p.admin.token, requestId, { text, attributes });
  return { res, messages: (await messagesOf(requestId)).slice(1) };
}

describe('microlanguage', () => {
  it('turns "* label" lines into quick-reply buttons in attributes.attachment', async () => {
    const { res, messages } = await agentPosts('Pick one\n* Yes\n* No');
    expect(res.status).toBe(200);
    expect(messages).toHaveLength(1);
    expect(messages[0].text).toBe('Pick one');
    expect(messages[0].attributes.attachment).toEqual({
      type: 'template',
      buttons: [
        { type: 'text', value: 'Yes' },
        { type: 'text', value: 'No' },
      ],
    });
  });

  it('turns "* label https://…" into a link button', async () => {
    const { messages } = await agentPosts('Read more\n* Our docs https://docs.example.com/start');
    expect(messages[0].attributes.attachment.buttons).toEqual([
      { type: 'url', value: 'Our docs', link: 'https://docs.example.com/start', target: 'blank' },
    ]);
  });

  it('makes a tdImage:<url> line an image message with metadata.src and the other lines as caption', async () => {
    const { messages } = await agentPosts('Our shop\ntdImage:https://img.example.com/shop.png');
    expect(messages[0]).toMatchObject({ type: 'image', text: 'Our shop', metadata: { src: 'https://img.example.com/shop.png' } });
  });

  it('splits the text at \\split lines into several messages, in order', async () => {
    const { res, messages } = await agentPosts('First\n\\split\nSecond\n* Ok\n\\split\nThird');
    expect(res.status).toBe(200);
    expect(messages.map((m) => m.text)).toEqual(['First', 'Second', 'Third']);
    expect(messages[1].attributes.attachment.buttons).toEqual([{ type: 'text', value: 'Ok' }]);
    expect(messages[0].attributes.attachment).toBeUndefined();
    // The answer is the last message written.
    expect(res.body.text).toBe('Third');
  });

  it('keeps split messages in order after the client timestamp', async () => {
    const { messages } = await agentPosts('A\n\\split\nB', { microlanguage: true, clienttimestamp: Date.now() + 60_000 });
    expect(messages.map((m) => m.text)).toEqual(['A', 'B']);
  });

  it('leaves the text as written without attributes.microlanguage', async () => {
    const { messages } = await agentPosts('Pick one\n* Yes\n\\split\nmore', {});
    expect(messages).toHaveLength(1);
    expect(messages[0].text).toBe('Pick one\n* Yes\n\\split\nmore');
    expect(messages[0].attributes.attachment).toBeUndefined();
  });

  it('appends its buttons after the buttons the poster gave', async () => {
    const { messages } = await agentPosts('Menu\n* Two', {
      microlanguage: true,
      attachment: { type: 'template', buttons: [{ type: 'text', value: 'One' }] },
    });
    expect(messages[0].attributes.attachment.buttons.map((b: { value: string }) => b.value)).toEqual(['One', 'Two']);
  });

  it('answers 400 naming text when nothing is left once the marks are taken out', async () => {
    const { res } = await agentPosts('\\split\n\\split');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field: 'text' });
  });

  it('applies to the first message of a new request too', async () => {
    const requestId = newRequestId();
    const res = await send(t, p.projectId, p.guest.token, requestId, { text: 'Hello\n\\split\nI need help', attributes: { microlanguage: true } });
    expect(res.status).toBe(200);
    expect(res.body.request.first_text).toBe('Hello');
    expect((await messagesOf(requestId)).map((m) => m.text)).toEqual(['Hello', 'I need help']);
  });

  it("always expands an internal bot's answer", async () => {
    const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Micro', template: 'blank' } });
    expect(bot.status).toBe(200);
    const intent = await t.post(`/v3/${p.projectId}/faq`, {
      token: p.admin.token,
      body: { id_faq_kb: bot.body._id, question: 'shipping', answer: 'We ship worldwide\n* Costs\n\\split\ntdImage:https://img.example.com/map.png' },
    });
    expect(intent.status).toBe(200);
    const dept = await t.post(`/v3/${p.projectId}/departments`, {
      token: p.owner.token,
      body: { name: 'Micro desk', routing: 'assigned', id_bot: bot.body._id },
    });
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'shipping', departmentid: dept.body._id });
    const answers = await eventually(async () => {
      const fromBot = (await messagesOf(requestId)).filter((m) => m.sender === `bot_${bot.body._id}`);
      return fromBot.length >= 2 ? fromBot : null;
    });
    expect(answers[0]).toMatchObject({ text: 'We ship worldwide', attributes: { attachment: { buttons: [{ type: 'text', value: 'Costs' }] } } });
    expect(answers[1]).toMatchObject({ type: 'image', metadata: { src: 'https://img.example.com/map.png' } });
  });
});
