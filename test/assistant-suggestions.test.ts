import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { consumerCaughtUp } from './helpers/event-consumers.js';
import { waitForStatus } from './helpers/kb-fixtures.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

const resetAnswer = 'Open Settings, then Security, and press "Reset password": a link arrives by e-mail within a minute.';

/** A conversation as a team has it: the visitor asks, an agent answers and tags it, the agent closes it. */
async function resolved(project: SeededProject, question: string, answer: string, tag: string) {
  const requestId = newRequestId();
  expect((await send(t, project.projectId, project.guest.token, requestId, { text: question })).status).toBe(200);
  expect((await send(t, project.projectId, project.admin.token, requestId, { text: answer })).status).toBe(200);
  expect((await t.put(`/v3/${project.projectId}/requests/${requestId}/tag`, { token: project.admin.token, body: { tag } })).status).toBe(200);
  expect((await t.put(`/v3/${project.projectId}/requests/${requestId}/close`, { token: project.admin.token })).status).toBe(200);
  return requestId;
}

async function asked(project: SeededProject, text: string) {
  const requestId = newRequestId();
  expect((await send(t, project.projectId, project.guest.token, requestId, { text })).status).toBe(200);
  return requestId;
}

const suggestions = (project: SeededProject, requestId: string, token = project.admin.token) =>
  t.get(`/v3/${project.projectId}/requests/${requestId}/suggestions`, { token });

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Assistant');
  other = await t.seedProject('Assistant elsewhere');
  await resolved(p, 'How do I reset my password?', resetAnswer, 'account');
  await resolved(p, 'I cannot reset my password, the page fails', resetAnswer, 'account');
  await resolved(p, 'Where is my parcel? It has not arrived', 'Parcels ship within two days; the tracking link is in your order e-mail.', 'shipping');
  await eventually(() => consumerCaughtUp(t, 'assistant-history', p.projectId), 20_000);
});
afterAll(() => t.close());

describe('GET /requests/:request_id/suggestions', () => {
  it("suggests what the project's agents answered to a similar question in closed conversations", async () => {
    const requestId = await asked(p, 'Hi, I forgot my password. How can I reset it?');
    const res = await suggestions(p, requestId);
    expect(res.status).toBe(200);
    expect(res.body.replies[0]).toMatchObject({ text: resetAnswer, source: 'history' });
    expect(res.body.replies.length).toBeLessThanOrEqual(3);
    expect(res.body.question).toBe('Hi, I forgot my password. How can I reset it?');
  });

  it('suggests the tag agents put on similar conversations first', async () => {
    const res = await suggestions(p, await asked(p, 'my parcel has not arrived yet'));
    expect(res.body.tags[0].tag).toBe('shipping');
    expect(res.body.tags[0].score).toBeGreaterThan(0.5);
  });

  it('suggests the knowledge-base passage that answers, naming its content', async () => {
    const created = await t.post(`/v3/${p.projectId}/kb`, {
      token: p.admin.token,
      body: { type: 'faq', name: 'Gift cards', content: 'Can I pay with a gift card?\nGift cards are accepted at checkout, up to two per order.' },
    });
    expect(created.status).toBe(200);
    await waitForStatus(t, p.projectId, p.admin.token, created.body.value._id, 300);
    const res = await suggestions(p, await asked(p, 'Can I pay with my gift card?'));
    expect(res.body.replies).toContainEqual(
      expect.objectContaining({ source: 'kb', ref: created.body.value._id, text: 'Gift cards are accepted at checkout, up to two per order.' }),
    );
  });

  it('suggests a canned response that shares the question\'s words', async () => {
    const canned = await t.post(`/v3/${p.projectId}/canned`, {
      token: p.agent.token,
      body: { title: 'Opening hours', text: 'Our opening hours are 9 to 17, Monday to Friday.' },
    });
    const res = await suggestions(p, await asked(p, 'What are your opening hours?'));
    expect(res.body.replies).toContainEqual(expect.objectContaining({ source: 'canned', ref: canned.body._id }));
  });

  it('answers the latest visitor messages: an agent reply since starts a new question', async () => {
    const requestId = await asked(p, 'Where is my parcel?');
    await send(t, p.projectId, p.admin.token, requestId, { text: "Let me check." });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Also, how do I reset my password?' });
    const res = await suggestions(p, requestId);
    expect(res.body.question).toBe('Also, how do I reset my password?');
    expect(res.body.replies[0].text).toBe(resetAnswer);
  });

  it("detects the language of the visitor's first message", async () => {
    const res = await suggestions(p, await asked(p, "Bonjour, je voudrais savoir quand ma commande va arriver s'il vous plaît"));
    expect(res.body.language).toBe('fr');
  });

  it('flags an angry visitor', async () => {
    const angry = await suggestions(p, await asked(p, 'This is ridiculous, your service is terrible and useless. I am furious!'));
    expect(angry.body.sentiment).toBe('angry');
    const calm = await suggestions(p, await asked(p, 'Could you tell me when the shop opens?'));
    expect(calm.body.sentiment).toBe('neutral');
  });

  it('learns each of many conversations closed at once', async () => {
    const many = await t.seedProject('Assistant many closes');
    const topics = ['invoice', 'voucher', 'warranty', 'subscription', 'courier', 'wishlist', 'battery', 'checkout'];
    const answerOf = (topic: string) => `About your ${topic}: our ${topic} team answers within the hour.`;
    const conversations = await Promise.all(topics.map(async (topic) => {
      const requestId = newRequestId();
      await send(t, many.projectId, many.guest.token, requestId, { text: `A question about my ${topic}, please` });
      await send(t, many.projectId, many.admin.token, requestId, { text: answerOf(topic) });
      return requestId;
    }));
    await Promise.all(conversations.map((id) => t.put(`/v3/${many.projectId}/requests/${id}/close`, { token: many.admin.token })));
    await eventually(() => consumerCaughtUp(t, 'assistant-history', many.projectId), 20_000);
    for (const topic of topics) {
      const res = await suggestions(many, await asked(many, `What about my ${topic}?`));
      expect(res.body.replies[0]).toMatchObject({ text: answerOf(topic), source: 'history' });
    }
  });

  it('never suggests what another project learned', async () => {
    const res = await suggestions(other, await asked(other, 'How do I reset my password?'));
    expect(res.status).toBe(200);
    expect(res.body.replies.filter((r: { source: string }) => r.source === 'history')).toEqual([]);
    expect(res.body.tags).toEqual([]);
  });

  it("answers 404 for another project's request", async () => {
    const requestId = await asked(p, 'How do I reset my password?');
    const res = await t.get(`/v3/${other.projectId}/requests/${requestId}/suggestions`, { token: other.admin.token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
  });

  it("refuses a teammate of another project on this project's request", async () => {
    const requestId = await asked(p, 'How do I reset my password?');
    const res = await suggestions(p, requestId, other.admin.token);
    expect(res.status).toBe(403);
  });

  it('refuses roles below agent', async () => {
    const requestId = await asked(p, 'How do I reset my password?');
    expect((await suggestions(p, requestId, p.user.token)).status).toBe(403);
    expect((await suggestions(p, requestId, p.guest.token)).status).toBe(403);
    expect((await t.get(`/v3/${p.projectId}/requests/${requestId}/suggestions`)).status).toBe(401);
  });

  it('is the same over GraphQL', async () => {
    const requestId = await asked(p, 'I forgot my password, how to reset it?');
    const res = await t.gql(
      `query($p: String!, $r: String!) { requestSuggestions(project_id: $p, request_id: $r) { replies { text source ref score } tags { tag score } language sentiment } }`,
      { p: p.projectId, r: requestId },
      p.admin.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.requestSuggestions.replies[0]).toMatchObject({ text: resetAnswer, source: 'history' });
    expect(res.body.data.requestSuggestions.tags[0].tag).toBe('account');
    expect(res.body.data.requestSuggestions.language).toBe('en');
  });
});
