import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';

// Bot tokens: issued to admins, signed with the bot's secret, and good for three things only,
// in requests the bot takes part in: posting messages, updating attributes, handing off.

let t: TestApp;
let p: SeededProject;
let bot: { _id: string; secret: string; name: string };
let departmentId: string;
let token: string;
/** A request the bot takes part in. */
let requestId: string;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Tokens');
  // The blank bot answers nothing but the start: its messages stay out of the way.
  bot = (await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Tokenbot', template: 'blank' } })).body;
  const department = await t.post(`/v3/${p.projectId}/departments`, {
    token: p.owner.token,
    body: { name: 'Bot desk', routing: 'assigned', id_bot: bot._id },
  });
  departmentId = department.body._id;
  token = (await t.get(`/v3/${p.projectId}/bots/${bot._id}/jwt`, { token: p.admin.token })).body.token;
  requestId = newRequestId();
  await send(t, p.projectId, p.guest.token, requestId, { text: 'hi', departmentid: departmentId });
});
afterAll(() => t.close());

describe('GET /v3/:project_id/bots/:id/jwt', () => {
  it('gives an admin a token signed with the bot\'s secret whose audience is the bot', async () => {
    expect(token).toMatch(/^JWT ey/);
    const claims = jwt.verify(token.slice(4), bot.secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    expect(claims).toMatchObject({ aud: `bots/${bot._id}`, sub: `bot_${bot._id}`, id_project: p.projectId });
  });

  it('is refused to an agent', async () => {
    expect((await t.get(`/v3/${p.projectId}/bots/${bot._id}/jwt`, { token: p.agent.token })).status).toBe(403);
  });

  it('is served at /faq_kb too', async () => {
    expect((await t.get(`/v3/${p.projectId}/faq_kb/${bot._id}/jwt`, { token: p.admin.token })).status).toBe(200);
  });
});

describe('a bot token', () => {
  it('posts a message as the bot in a request the bot takes part in', async () => {
    const res = await send(t, p.projectId, token, requestId, { text: 'Posted with my token', attributes: { attachment: { type: 'template', buttons: [] } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sender: `bot_${bot._id}`, senderFullname: 'Tokenbot', text: 'Posted with my token' });
    const visitorSees = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.guest.token });
    expect(visitorSees.body.map((m: { text: string }) => m.text)).toContain('Posted with my token');
  });

  it('updates the request\'s attributes, which show as chatbot parameters', async () => {
    const res = await t.patch(`/v3/${p.projectId}/requests/${requestId}`, { token, body: { attributes: { plan: 'gold' } } });
    expect(res.status).toBe(200);
    const parameters = await t.get(`/v3/${p.projectId}/requests/${requestId}/chatbot/parameters`, { token: p.guest.token });
    expect(parameters.body).toMatchObject({ plan: 'gold' });
  });

  it('may not change anything but attributes', async () => {
    const res = await t.patch(`/v3/${p.projectId}/requests/${requestId}`, { token, body: { status: 1000 } });
    expect(res.status).toBe(403);
  });

  it('hands the request off to the department\'s agents', async () => {
    const own = newRequestId();
    await send(t, p.projectId, p.guest.token, own, { text: 'hi', departmentid: departmentId });
    const res = await t.put(`/v3/${p.projectId}/requests/${own}/departments`, { token, body: { departmentid: departmentId, nobot: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hasBot: false, participatingBots: [] });
    expect(res.body.participatingAgents).toHaveLength(1);
  });

  it('may do nothing in a request the bot does not take part in', async () => {
    const elsewhere = newRequestId();
    await send(t, p.projectId, p.guest.token, elsewhere, { text: 'no bot here' });
    expect((await send(t, p.projectId, token, elsewhere, { text: 'intrusion' })).status).toBe(403);
    expect((await t.patch(`/v3/${p.projectId}/requests/${elsewhere}`, { token, body: { attributes: { x: 1 } } })).status).toBe(403);
    expect((await send(t, p.projectId, token, newRequestId(), { text: 'new request' })).status).toBe(403);
  });

  it.each([
    ['GET', '/v3/:p/bots'],
    ['GET', '/v3/:p/bots/:bot'],
    ['GET', '/v3/:p/bots/:bot/jwt'],
    ['PUT', '/v3/:p/bots/:bot'],
    ['GET', '/v3/:p/faq'],
    ['GET', '/v3/:p/requests'],
    ['GET', '/v3/:p/requests/:r'],
    ['GET', '/v3/:p/requests/:r/messages'],
    ['PUT', '/v3/:p/requests/:r/close'],
    ['PUT', '/v3/:p/requests/:r/take'],
    ['GET', '/v3/:p/requests/:r/chatbot/parameters'],
    ['GET', '/v3/:p/departments'],
    ['GET', '/v3/:p/project_users'],
    ['GET', '/v3/projects'],
    ['GET', '/v3/projects/:p'],
    ['POST', '/v3/projects'],
    ['GET', '/v3/auth/me'],
  ])('answers 403 to %s %s', async (method, template) => {
    const path = template.replace(':p', p.projectId).replace(':bot', bot._id).replace(':r', requestId);
    const res = await t.request(method, path, { token, body: method === 'GET' ? undefined : { name: 'x' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
  });

  it('answers 403 on GraphQL fields it may not use', async () => {
    const res = await t.gql('{ me { id } }', {}, token);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('is refused a multipart import', async () => {
    const form = new FormData();
    form.append('uploadFile', new Blob([JSON.stringify({ name: 'X' })]), 'bot.json');
    expect((await t.post(`/v3/${p.projectId}/bots/importjson/null?create=true`, { token, body: form })).status).toBe(403);
  });

  it('answers 401 when signed with another secret', async () => {
    const forged = jwt.sign({ id_project: p.projectId }, 'whsec_not-the-bot-secret', {
      algorithm: 'HS256',
      audience: `bots/${bot._id}`,
      subject: `bot_${bot._id}`,
      expiresIn: 60,
    });
    expect((await send(t, p.projectId, `JWT ${forged}`, requestId, { text: 'forged' })).status).toBe(401);
  });

  it('answers 401 when signed with the platform key instead of the bot\'s', async () => {
    const forged = jwt.sign({}, 'test-secret-test-secret-test-secret-0123', { audience: `bots/${bot._id}`, subject: `bot_${bot._id}`, expiresIn: 60 });
    expect((await send(t, p.projectId, `JWT ${forged}`, requestId, { text: 'forged' })).status).toBe(401);
  });

  it('answers 401 once the bot is deleted', async () => {
    const doomed = (await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Doomed', template: 'blank' } })).body;
    const doomedToken = (await t.get(`/v3/${p.projectId}/bots/${doomed._id}/jwt`, { token: p.admin.token })).body.token;
    await t.delete(`/v3/${p.projectId}/bots/${doomed._id}`, { token: p.admin.token });
    const res = await send(t, p.projectId, doomedToken, requestId, { text: 'still here?' });
    expect(res.status).toBe(401);
  });

  it('does not make the bot answer its own messages', async () => {
    const own = newRequestId();
    await send(t, p.projectId, p.guest.token, own, { text: 'hello', departmentid: departmentId });
    const messagesOf = async () => (await t.get(`/v3/${p.projectId}/requests/${own}/messages`, { token: p.owner.token })).body as Array<{ sender: string; text: string }>;
    await eventually(async () => (await messagesOf()).some((m) => m.sender === `bot_${bot._id}`));
    await send(t, p.projectId, token, own, { text: 'a bot message' });
    await send(t, p.projectId, p.guest.token, own, { text: 'and the visitor again' });
    const texts = await eventually(async () => {
      const all = await messagesOf();
      return all.length >= 5 ? all.map((m) => m.text) : null;
    });
    // start, bot message, visitor, fallback: the bot message itself got no answer.
    expect(texts).toEqual(['hello', 'Hi! How can I help you?', 'a bot message', 'and the visitor again', "Sorry, I didn't understand that. Can you rephrase your question?"]);
  });
});
