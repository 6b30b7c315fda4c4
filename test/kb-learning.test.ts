import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { waitForStatus } from './helpers/kb-fixtures.js';

// Knowledge bases learn from agents: POST /kb/qa/feedback with helpful: true makes the question a
// learned phrasing of the content, used by retrieval at once; helpful: false keeps that content
// from answering that question first again. Visitors' thumbs on bot answers are counted only.

let t: TestApp;
let p: SeededProject;
let ns: string;
const contents: Record<string, string> = {};

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Learning');
  ns = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Help' } })).body.id;
  const add = async (key: string, content: string) => {
    const res = await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: { namespace: ns, type: 'faq', content } });
    contents[key] = res.body.value._id;
    await waitForStatus(t, p.projectId, p.admin.token, contents[key], 300);
  };
  await add('returns', 'How do I return an item?\nPrint the label from your account and drop the parcel at any post office.');
  await add('delivery', 'When will my order arrive?\nOrders arrive within three working days.');
  await add('payment', 'Which payment methods do you accept?\nWe accept cards, bank transfers and gift cards.');
});
afterAll(() => t.close());

const ask = (question: string) => t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { namespace: ns, question } });
const feedback = (body: Record<string, unknown>, token = p.agent.token, projectId = p.projectId) =>
  t.post(`/v3/${projectId}/kb/qa/feedback`, { token, body: { namespace: ns, ...body } });

describe('agents teach the knowledge base', () => {
  it('answers a question it could not answer once an agent files it against the content', async () => {
    const question = 'my parcel went to the neighbours, what now';
    expect((await ask(question)).body.success).toBe(false);
    const res = await feedback({ question, id: contents.delivery, helpful: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, namespace: ns, id: contents.delivery, helpful: true, phrasing: { question, content_id: contents.delivery } });
    const answer = await ask('My parcel went to the neighbours. What now?');
    expect(answer.body).toMatchObject({ success: true, id: contents.delivery });
    expect(answer.body.answer).toBe('Orders arrive within three working days.');
  });

  it('ranks the content first for a learned phrasing that another content matches better by its words', async () => {
    const question = 'can I send back a gift card purchase';
    expect((await ask(question)).body.id).not.toBe(contents.returns);
    await feedback({ question, id: contents.returns, helpful: true });
    expect((await ask(question)).body.id).toBe(contents.returns);
  });

  it('lists the learned phrasings on the content, and forgets one removed', async () => {
    const question = 'where do returns go';
    const created = (await feedback({ question, id: contents.returns, helpful: true })).body.phrasing;
    const list = await t.get(`/v3/${p.projectId}/kb/${contents.returns}/phrasings`, { token: p.agent.token });
    expect(list.status).toBe(200);
    expect(list.body.map((x: { question: string }) => x.question)).toContain(question);
    const removed = await t.delete(`/v3/${p.projectId}/kb/${contents.returns}/phrasings/${created._id}`, { token: p.agent.token });
    expect(removed.status).toBe(200);
    expect(removed.body._id).toBe(created._id);
    const after = await t.get(`/v3/${p.projectId}/kb/${contents.returns}/phrasings`, { token: p.agent.token });
    expect(after.body.map((x: { question: string }) => x.question)).not.toContain(question);
  });

  it('learns the same wording once', async () => {
    const first = await feedback({ question: 'Pay by card?', id: contents.payment, helpful: true });
    const again = await feedback({ question: 'pay by cards', id: contents.payment, helpful: true });
    expect(again.body.phrasing._id).toBe(first.body.phrasing._id);
  });

  it('keeps a content from answering a question first again once an agent says it did not help', async () => {
    const question = 'How do I return an item?';
    expect((await ask(question)).body.id).toBe(contents.returns);
    const res = await feedback({ question, id: contents.returns, helpful: false });
    expect(res.body).toMatchObject({ success: true, helpful: false, phrasing: null });
    const again = await ask('how do I return an item');
    expect(again.body.id).not.toBe(contents.returns);
    // A later helpful: true overrules it.
    await feedback({ question, id: contents.returns, helpful: true });
    expect((await ask(question)).body.id).toBe(contents.returns);
  });

  it('is the same over GraphQL (kbFeedback, kbPhrasings, deleteKbPhrasing)', async () => {
    const learned = await t.gql(
      `mutation($p: String!, $ns: String, $q: String, $id: String) {
        kbFeedback(project_id: $p, namespace: $ns, question: $q, id: $id, helpful: true) { success helpful phrasing { id question content_id } }
      }`,
      { p: p.projectId, ns, q: 'what cards can I use', id: contents.payment },
      p.agent.token,
    );
    expect(learned.body.errors).toBeUndefined();
    const phrasing = learned.body.data.kbFeedback.phrasing;
    const listed = await t.gql(`query($p: String!, $c: String!) { kbPhrasings(project_id: $p, content_id: $c) { id question } }`, { p: p.projectId, c: contents.payment }, p.agent.token);
    expect(listed.body.data.kbPhrasings).toContainEqual({ id: phrasing.id, question: 'what cards can I use' });
    const removed = await t.gql(
      `mutation($p: String!, $c: String!, $id: String!) { deleteKbPhrasing(project_id: $p, content_id: $c, phrasing_id: $id) { id } }`,
      { p: p.projectId, c: contents.payment, id: phrasing.id },
      p.agent.token,
    );
    expect(removed.body.data.deleteKbPhrasing.id).toBe(phrasing.id);
  });
});

describe('feedback input, roles and tenancy', () => {
  it('refuses a missing question, a missing verdict and a content of another knowledge base', async () => {
    expect((await feedback({ id: contents.returns, helpful: true })).body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'question' });
    expect((await feedback({ question: 'x y', id: contents.returns })).body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'helpful' });
    const other = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Other' } })).body.id;
    const res = await feedback({ namespace: other, question: 'returns', id: contents.returns, helpful: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
  });

  it('needs at least the agent role', async () => {
    expect((await feedback({ question: 'returns?', id: contents.returns, helpful: true }, p.user.token)).status).toBe(403);
    expect((await feedback({ question: 'returns?', id: contents.returns, helpful: true }, p.guest.token)).status).toBe(403);
    expect((await t.get(`/v3/${p.projectId}/kb/${contents.returns}/phrasings`, { token: p.user.token })).status).toBe(403);
    expect((await t.get(`/v3/${p.projectId}/kb/qa/feedback?namespace=${ns}`, { token: p.user.token })).status).toBe(403);
    expect((await feedback({ question: 'returns?', id: contents.returns, helpful: true }, '')).status).toBe(401);
  });

  it('never reaches a content of another project', async () => {
    const other = await t.seedProject('Elsewhere');
    const res = await t.post(`/v3/${other.projectId}/kb/qa/feedback`, { token: other.agent.token, body: { question: 'returns?', id: contents.returns, helpful: true } });
    expect(res.status).toBe(404);
    expect((await t.get(`/v3/${other.projectId}/kb/${contents.returns}/phrasings`, { token: other.agent.token })).status).toBe(404);
    const list = (await t.get(`/v3/${p.projectId}/kb/${contents.returns}/phrasings`, { token: p.agent.token })).body;
    expect(list.length).toBeGreaterThan(0);
    const removed = await t.delete(`/v3/${other.projectId}/kb/${contents.returns}/phrasings/${list[0]._id}`, { token: other.agent.token });
    expect(removed.status).toBe(404);
  });
});

describe('visitors rate bot answers', () => {
  it('counts a visitor\'s thumbs on the content, lists it for agents, and learns nothing from it', async () => {
    const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Kim', template: 'blank', kb_namespace: ns } });
    const dept = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'Desk', routing: 'assigned', id_bot: bot.body._id } });
    const requestId = newRequestId();
    const question = 'When will my order arrive?';
    await send(t, p.projectId, p.guest.token, requestId, { text: 'hello', departmentid: dept.body._id });
    await eventually(async () => (await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.guest.token })).body.length >= 2);
    await send(t, p.projectId, p.guest.token, requestId, { text: question });
    const reply = await eventually(async () => {
      const res = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.guest.token });
      return (res.body as Array<{ _id: string; sender: string; attributes: Record<string, any> }>).find((m) => m.attributes?.kb);
    });
    expect(reply.attributes.kb).toMatchObject({ id: contents.delivery, question });
    const rate = (helpful: boolean, token = p.guest.token) =>
      t.post(`/v3/${p.projectId}/requests/${requestId}/messages/${reply._id}/kb_feedback`, { token, body: { helpful } });
    const res = await rate(false);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ origin: 'visitor', helpful: false, content_id: contents.delivery, question, request_id: requestId });
    // A change of mind replaces the vote.
    await rate(true);
    const content = await t.get(`/v3/${p.projectId}/kb/${contents.delivery}`, { token: p.admin.token });
    expect(content.body).toMatchObject({ helpfulCount: 1, unhelpfulCount: 0 });
    const listed = await t.get(`/v3/${p.projectId}/kb/qa/feedback?namespace=${ns}&origin=visitor`, { token: p.agent.token });
    expect(listed.body).toEqual([expect.objectContaining({ message_id: reply._id, helpful: true, origin: 'visitor' })]);
    const phrasings = await t.get(`/v3/${p.projectId}/kb/${contents.delivery}/phrasings`, { token: p.agent.token });
    expect(phrasings.body.map((x: { question: string }) => x.question)).not.toContain(question);
    // Another visitor cannot rate a conversation not theirs.
    const stranger = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Other' } });
    expect((await rate(true, stranger.body.token)).status).toBe(404);
  });

  it('refuses to rate a message that is not a knowledge answer', async () => {
    const requestId = newRequestId();
    const sent = await send(t, p.projectId, p.guest.token, requestId, { text: 'hello there' });
    const res = await t.post(`/v3/${p.projectId}/requests/${requestId}/messages/${sent.body._id}/kb_feedback`, { token: p.guest.token, body: { helpful: true } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'message_id' });
  });
});
