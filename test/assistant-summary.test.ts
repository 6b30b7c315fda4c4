import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.js';

// Summaries of a conversation: extractive without a model, the model's words with one, made on
// request (POST .../summary) and when a bot hands the conversation to a human; shown on the request.

describe('without a model', () => {
  let t: TestApp;
  let p: SeededProject;
  let other: SeededProject;
  beforeAll(async () => {
    t = await sharedTestApp();
    p = await t.seedProject('Summaries');
    other = await t.seedProject('Summaries elsewhere');
  });
  afterAll(() => t.close());

  async function conversation() {
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Hi. My order 1234 arrived broken, the screen is cracked. I want a refund or a new phone.' });
    await send(t, p.projectId, p.admin.token, requestId, { text: 'Sorry to hear that! Could you send a photo?' });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Sure, here it is.' });
    return requestId;
  }

  it("is extractive: the visitor's key sentences, the last agent message and what happened", async () => {
    const requestId = await conversation();
    const res = await t.post(`/v3/${p.projectId}/requests/${requestId}/summary`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ request_id: requestId, method: 'extractive', by: p.admin.userId });
    expect(res.body.summary).toContain('"My order 1234 arrived broken, the screen is cracked."');
    expect(res.body.summary).toContain('"I want a refund or a new phone."');
    expect(res.body.summary).not.toContain('"Hi."');
    expect(res.body.summary).toContain('An agent last wrote: "Sorry to hear that! Could you send a photo?"');
    expect(res.body.summary).toMatch(/What happened: .*opened the conversation/);
    expect(Date.parse(res.body.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('is stored: the request shows it, and GET .../summary answers it', async () => {
    const requestId = await conversation();
    const made = await t.post(`/v3/${p.projectId}/requests/${requestId}/summary`, { token: p.admin.token });
    const request = await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token });
    expect(request.body.summary).toEqual(made.body);
    expect((await t.get(`/v3/${p.projectId}/requests/${requestId}/summary`, { token: p.admin.token })).body).toEqual(made.body);
  });

  it('is null on a request nobody summarised', async () => {
    const requestId = await conversation();
    expect((await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token })).body.summary).toBeNull();
  });

  it('is made when a bot hands the conversation to a human, by nobody, with the bot\'s last answer', async () => {
    const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Ada', template: 'handoff' } });
    const dept = await t.post(`/v3/${p.projectId}/departments`, {
      token: p.owner.token,
      body: { name: `Bot desk ${Math.random()}`, routing: 'assigned', id_bot: bot.body._id },
    });
    const requestId = newRequestId();
    const botSaid = async (n: number) =>
      eventually(async () => {
        const messages = (await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.owner.token })).body as Array<{ sender: string }>;
        return messages.filter((m) => m.sender === `bot_${bot.body._id}`).length >= n;
      }, 20_000);
    await send(t, p.projectId, p.guest.token, requestId, { text: 'My invoice is wrong, it charges me twice.', departmentid: dept.body._id });
    await botSaid(1);
    await send(t, p.projectId, p.guest.token, requestId, { text: 'I want to talk to a human' });
    const summary = await eventually(async () => (await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token })).body.summary, 20_000);
    expect(summary).toMatchObject({ by: null, method: 'extractive' });
    expect(summary.summary).toContain('"My invoice is wrong, it charges me twice."');
    expect(summary.summary).toContain('The bot last answered: "Let me put you in touch with one of our agents."');
    expect(summary.summary).toContain('Bot Ada left');
  });

  it('refuses roles below agent and other projects', async () => {
    const requestId = await conversation();
    expect((await t.post(`/v3/${p.projectId}/requests/${requestId}/summary`, { token: p.user.token })).status).toBe(403);
    expect((await t.post(`/v3/${p.projectId}/requests/${requestId}/summary`, { token: p.guest.token })).status).toBe(403);
    expect((await t.post(`/v3/${p.projectId}/requests/${requestId}/summary`, { token: other.admin.token })).status).toBe(403);
    const elsewhere = await t.post(`/v3/${other.projectId}/requests/${requestId}/summary`, { token: other.admin.token });
    expect(elsewhere.status).toBe(404);
    expect((await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token })).body.summary).toBeNull();
  });

  it('answers 400 naming a bad method', async () => {
    const res = await t.post(`/v3/${p.projectId}/requests/${await conversation()}/summary`, { token: p.admin.token, body: { method: 'poem' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'method' });
  });

  it('is the same over GraphQL', async () => {
    const requestId = await conversation();
    const res = await t.gql(
      `mutation($p: String!, $r: String!) { summarizeRequest(project_id: $p, request_id: $r) { summary method by } }`,
      { p: p.projectId, r: requestId },
      p.admin.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.summarizeRequest).toMatchObject({ method: 'extractive', by: p.admin.userId });
    const read = await t.gql(`query($p: String!, $r: String!) { request(project_id: $p, request_id: $r) { summary { summary } } }`, { p: p.projectId, r: requestId }, p.admin.token);
    expect(read.body.data.request.summary.summary).toBe(res.body.data.summarizeRequest.summary);
  });

  it('is on the request a posted message answers with (the batched post reads it with the request)', async () => {
    const requestId = await conversation();
    const made = await t.gql(
      `mutation($p: String!, $r: String!) { summarizeRequest(project_id: $p, request_id: $r) { summary } }`,
      { p: p.projectId, r: requestId },
      p.admin.token,
    );
    const posted = await send(t, p.projectId, p.admin.token, requestId, { text: 'The replacement is on its way.' });
    expect(posted.status).toBe(200);
    expect(posted.body.request.summary.summary).toBe(made.body.data.summarizeRequest.summary);
  });
});

describe('with a model', () => {
  let llm: FakeOpenAI;
  let node: Awaited<ReturnType<typeof createTestServer>>;
  let p: SeededProject;
  beforeAll(async () => {
    llm = await startFakeOpenAI();
    node = await createTestServer({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'sk-test', LLM_MODEL: 'house-model' });
    p = await node.client.seedProject('Model summaries');
  });
  afterAll(async () => {
    await node.client.close();
    await llm.close();
  });

  it("stores and shows the model's words, written from the transcript", async () => {
    const t = node.client;
    llm.onChat = () => ({ content: 'Wants a refund for a cracked screen [1]. Photo asked. Open: refund decision.' });
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'My phone arrived with a cracked screen, I want a refund.' });
    const res = await t.post(`/v3/${p.projectId}/requests/${requestId}/summary`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ method: 'model', summary: 'Wants a refund for a cracked screen. Photo asked. Open: refund decision.' });
    expect(JSON.stringify(llm.chatRequests.at(-1))).toContain('My phone arrived with a cracked screen, I want a refund.');
    expect((await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token })).body.summary.summary).toBe(res.body.summary);
  });

  it('falls back to the extractive summary when the model endpoint fails', async () => {
    const t = node.client;
    llm.onChat = () => ({ status: 500, error: 'down' });
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'My phone arrived with a cracked screen.' });
    const res = await t.post(`/v3/${p.projectId}/requests/${requestId}/summary`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ method: 'extractive' });
    expect(res.body.summary).toContain('"My phone arrived with a cracked screen."');
  });
});
