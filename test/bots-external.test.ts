import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../src/modules/webhooks/signature.js';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { consumerCaughtUp } from './helpers/event-consumers.js';

// An external bot: a local HTTP server receives each end-user message, signed like webhooks,
// and answers through the REST API with the token that came with it.

interface Delivery {
  headers: IncomingMessage['headers'];
  raw: string;
  body: { timestamp: number; payload: Record<string, any>; hook: Record<string, any>; token: string };
}

let t: TestApp;
let p: SeededProject;
let engine: Server;
let engineUrl: string;
const deliveries: Delivery[] = [];
/** How the engine answers the next deliveries, in order; afterwards it answers 200 and does nothing. */
const script: Array<(delivery: Delivery) => Promise<number>> = [];

beforeAll(async () => {
  engine = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', async () => {
      const delivery = { headers: req.headers, raw, body: JSON.parse(raw) };
      deliveries.push(delivery);
      const step = script.shift();
      res.statusCode = step ? await step(delivery) : 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve));
  engineUrl = `http://127.0.0.1:${(engine.address() as AddressInfo).port}/bot`;
  ({ client: t } = await createTestServer({ OUTBOUND_ALLOW_PRIVATE: 'true' }));
  p = await t.seedProject('External');
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => engine.close(resolve));
});

async function externalBot() {
  const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Remote', type: 'external', url: engineUrl } });
  expect(bot.status).toBe(200);
  const department = await t.post(`/v3/${p.projectId}/departments`, {
    token: p.owner.token,
    body: { name: `Remote desk ${Math.random()}`, routing: 'assigned', id_bot: bot.body._id },
  });
  return { bot: bot.body as { _id: string; secret: string }, departmentId: department.body._id as string };
}

const deliveredText = (text: string) => eventually(async () => deliveries.find((d) => d.body.payload.text === text));

describe('external bots', () => {
  it('receive each end-user message at their url, signed with the bot secret, with a token', async () => {
    const { bot, departmentId } = await externalBot();
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Hello remote', departmentid: departmentId });
    const delivery = await deliveredText('Hello remote');

    expect(delivery.body.payload).toMatchObject({ sender: p.guest.userId, recipient: requestId, id_project: p.projectId });
    expect(delivery.body.payload.request).toMatchObject({ request_id: requestId, hasBot: true });
    expect(delivery.body.hook).toMatchObject({ _id: bot._id, type: 'external', external: true, url: engineUrl, secret: null });
    expect(delivery.body.token).toMatch(/^JWT ey/);
    expect(Math.abs(delivery.body.timestamp - Date.now())).toBeLessThan(60_000);

    const id = String(delivery.headers['webhook-id']);
    const timestamp = Number(delivery.headers['webhook-timestamp']);
    expect(delivery.headers['webhook-signature']).toBe(sign(bot.secret, id, timestamp, delivery.raw));
  });

  it('receive no header that equals or reveals the bot secret, nor one that signs like it', async () => {
    const { bot, departmentId } = await externalBot();
    await send(t, p.projectId, p.guest.token, newRequestId(), { text: 'Keep it to yourself', departmentid: departmentId });
    const delivery = await deliveredText('Keep it to yourself');
    const encoded = bot.secret.replace(/^whsec_/, '');
    const bytes = Buffer.from(encoded, 'base64');
    const forms = [bot.secret, encoded, bytes.toString('hex'), bytes.toString('base64url'), bytes.toString('latin1')].map((f) => f.toLowerCase());
    const id = String(delivery.headers['webhook-id']);
    const timestamp = Number(delivery.headers['webhook-timestamp']);
    const forged = JSON.stringify({ ...delivery.body, payload: { ...delivery.body.payload, text: 'forged' } });
    for (const [name, value] of Object.entries(delivery.headers)) {
      expect(forms.filter((form) => String(value).toLowerCase().includes(form)), name).toEqual([]);
      expect(sign(String(value), id, timestamp, forged), name).not.toBe(sign(bot.secret, id, timestamp, forged));
    }
  });

  it('answer through the REST API with the token and appear as the bot in the conversation', async () => {
    const { bot, departmentId } = await externalBot();
    script.push(async (delivery) => {
      const reply = await t.post(`/v3/${p.projectId}/requests/${delivery.body.payload.recipient}/messages`, {
        token: delivery.body.token,
        body: { text: `You said: ${delivery.body.payload.text}`, attributes: { attachment: { type: 'template', buttons: [{ type: 'text', value: 'OK' }] } } },
      });
      return reply.status;
    });
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Round trip', departmentid: departmentId });
    const reply = await eventually(async () => {
      const messages = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.guest.token });
      return messages.body.find((m: { sender: string }) => m.sender === `bot_${bot._id}`);
    });
    expect(reply).toMatchObject({ text: 'You said: Round trip', senderFullname: 'Remote', attributes: { attachment: { buttons: [{ value: 'OK' }] } } });
  });

  it('hand off through the REST API with the token', async () => {
    const { departmentId } = await externalBot();
    script.push(async (delivery) => {
      const routed = await t.put(`/v3/${p.projectId}/requests/${delivery.body.payload.recipient}/departments`, {
        token: delivery.body.token,
        body: { departmentid: departmentId, nobot: true },
      });
      return routed.status;
    });
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Need a human', departmentid: departmentId });
    const request = await eventually(async () => {
      const current = await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token });
      return current.body.hasBot === false ? current.body : null;
    });
    expect(request.participatingAgents).toHaveLength(1);
  });

  it('get a message again, with the same webhook-id, after a failed delivery', async () => {
    const { departmentId } = await externalBot();
    script.push(async () => 503);
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Retry me', departmentid: departmentId });
    const both = await eventually(async () => {
      const matching = deliveries.filter((d) => d.body.payload.text === 'Retry me');
      return matching.length >= 2 ? matching : null;
    });
    expect(both[1].headers['webhook-id']).toBe(both[0].headers['webhook-id']);
  });

  it('receive end-user messages only: not agents\' messages, and none once an agent has written (the bot stays silent)', async () => {
    const { departmentId } = await externalBot();
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'first', departmentid: departmentId });
    await deliveredText('first');
    await send(t, p.projectId, p.guest.token, requestId, { text: 'second' });
    await deliveredText('second');
    await send(t, p.projectId, p.owner.token, requestId, { text: 'an agent speaking' });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'third, to the agent' });
    await eventually(() => consumerCaughtUp(t, 'bots', p.projectId), 20_000);
    const forThisRequest = deliveries.filter((d) => d.body.payload.recipient === requestId).map((d) => d.body.payload.text);
    expect(forThisRequest).toEqual(['first', 'second']);
  });
});
