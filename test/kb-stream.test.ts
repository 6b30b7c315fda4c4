import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.js';
import { waitForStatus } from './helpers/kb-fixtures.js';
import { connect, subscribe } from './helpers/realtime.js';
import { publishDraft } from '../src/modules/kb/answering/answer-drafts.js';

// Answers as they are written: the kbAnswerStream subscription (the console's test box) and a
// bot's answer drafts (kbAnswerDrafts, the widget), against a local OpenAI-compatible server that
// streams server-sent events, and without a model (the extractive answer as one piece).

const streamQuery = `subscription($p: String!, $ns: String, $q: String!) {
  kbAnswerStream(project_id: $p, namespace: $ns, question: $q) { delta done result { answer success ids sources } }
}`;

interface Piece {
  delta: string | null;
  done: boolean;
  result: { answer: string; success: boolean; ids: string[]; sources: string[] } | null;
}

async function seed(t: TestApp, p: SeededProject) {
  const ns = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Shop' } })).body.id as string;
  const res = await t.post(`/v3/${p.projectId}/kb`, {
    token: p.admin.token,
    body: { namespace: ns, type: 'faq', name: 'Returns', content: 'Are returns free?\nReturns are free within thirty days of delivery.' },
  });
  await waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 300);
  return { ns, returns: res.body.value._id as string };
}

describe('without a model', () => {
  let node: Awaited<ReturnType<typeof createTestServer>>;
  let p: SeededProject;
  let ns: string;
  let returns: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    node = await createTestServer();
    p = await node.client.seedProject();
    ({ ns, returns } = await seed(node.client, p));
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await node.client.close();
  });

  it('streams the extractive answer as one piece, then the whole answer with its sources', async () => {
    const { client } = connect(node.server.url, p.admin.token);
    clients.push(client);
    const sub = subscribe<Piece>(client, streamQuery, { p: p.projectId, ns, q: 'Are returns free?' });
    const [first, last] = await sub.take(2);
    expect(first).toEqual({ delta: 'Returns are free within thirty days of delivery.', done: false, result: null });
    expect(last).toEqual({ delta: null, done: true, result: { answer: first.delta, success: true, ids: [returns], sources: ['Returns'] } });
  });

  it('ends with success false and no piece of text when the knowledge base has no answer', async () => {
    const { client } = connect(node.server.url, p.admin.token);
    clients.push(client);
    const sub = subscribe<Piece>(client, streamQuery, { p: p.projectId, ns, q: 'What is the capital of Peru?' });
    const [only] = await sub.take(1);
    expect(only).toMatchObject({ delta: null, done: true, result: { success: false, ids: [] } });
  });

  it('refuses bad input and roles below admin as the subscription starts', async () => {
    const { client } = connect(node.server.url, p.admin.token);
    clients.push(client);
    const empty = subscribe(client, streamQuery, { p: p.projectId, ns, q: ' ' });
    expect(JSON.stringify(await empty.failure())).toContain('BAD_USER_INPUT');
    const agent = connect(node.server.url, p.agent.token).client;
    clients.push(agent);
    const refused = subscribe(agent, streamQuery, { p: p.projectId, ns, q: 'Are returns free?' });
    expect(JSON.stringify(await refused.failure())).toContain('FORBIDDEN');
  });
});

describe('with a model that streams', () => {
  let llm: FakeOpenAI;
  let node: Awaited<ReturnType<typeof createTestServer>>;
  let t: TestApp;
  let p: SeededProject;
  let ns: string;
  let returns: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    llm = await startFakeOpenAI();
    node = await createTestServer({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'sk-test', LLM_MODEL: 'house-model' });
    t = node.client;
    p = await t.seedProject();
    ({ ns, returns } = await seed(t, p));
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await t.close();
    await llm.close();
  });

  it('sends each piece as the model writes it, citation marks left out, then the whole answer', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    llm.onChat = () => ({ pieces: ['Returns ', 'are free ', 'for thirty days ', '[1]', '.'], hold });
    const { client } = connect(node.server.url, p.admin.token);
    clients.push(client);
    const sub = subscribe<Piece>(client, streamQuery, { p: p.projectId, ns, q: 'Are returns free?' });
    // The first piece arrives while the model still holds the rest.
    const [first] = await sub.take(1);
    expect(first).toEqual({ delta: 'Returns', done: false, result: null });
    expect(llm.chatRequests.at(-1)).toMatchObject({ stream: true, model: 'house-model' });
    release();
    const last = await sub.waitFor((piece) => piece.done);
    const text = sub.events.filter((piece) => !piece.done).map((piece) => piece.delta).join('');
    expect(text).toBe('Returns are free for thirty days.');
    expect(last.result).toEqual({ answer: 'Returns are free for thirty days.', success: true, ids: [returns], sources: ['Returns'] });
  });

  it('shows nothing of a model that finds no answer, and ends with success false', async () => {
    llm.onChat = () => ({ pieces: ['NO_', 'ANSWER'] });
    const { client } = connect(node.server.url, p.admin.token);
    clients.push(client);
    const sub = subscribe<Piece>(client, streamQuery, { p: p.projectId, ns, q: 'Are returns free for sofas?' });
    const [only] = await sub.take(1);
    expect(only).toMatchObject({ delta: null, done: true, result: { success: false } });
  });

  it('lets the visitor watch a bot\'s knowledge answer grow, then receive it as the message that names the draft', async () => {
    llm.onChat = () => ({ pieces: ['Yes, ', 'returns ', 'are free ', '[1]'] });
    const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Kim', template: 'blank', kb_namespace: ns } });
    const dept = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'Desk', routing: 'assigned', id_bot: bot.body._id } });
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'hello', departmentid: dept.body._id });
    const { client } = connect(node.server.url, p.guest.token);
    clients.push(client);
    const drafts = subscribe<{ draft_id: string; delta: string; text: string; done: boolean; sender: string }>(
      client,
      `subscription($p: String!, $r: String!) { kbAnswerDrafts(project_id: $p, request_id: $r) { draft_id sender delta text done } }`,
      { p: p.projectId, r: requestId },
    );
    // The subscription is live once a probe published on its channel comes back (nothing is replayed).
    const probe = { request_id: requestId, draft_id: 'probe', sender: 'test', delta: '', text: '', done: false };
    await eventually(async () => {
      await publishDraft(node.server.app.services.infra.bus, p.projectId, probe);
      return drafts.events.length > 0;
    });
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Are returns free?' });
    const done = await drafts.waitFor((d) => d.done, 50_000);
    expect(drafts.events.filter((d) => !d.done && d.draft_id !== 'probe').map((d) => d.text)).toEqual(['Yes,', 'Yes, returns', 'Yes, returns are free']);
    expect(done).toMatchObject({ sender: `bot_${bot.body._id}`, text: 'Yes, returns are free', done: true });
    const message = await eventually(async () => {
      const res = await t.get(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.guest.token });
      return (res.body as Array<{ text: string; attributes: Record<string, any> }>).find((m) => m.attributes?.kb);
    });
    expect(message.text).toBe('Yes, returns are free');
    expect(message.attributes.kb).toMatchObject({ id: returns, draft_id: done.draft_id, question: 'Are returns free?' });
  }, 60_000);

  it('does not let another visitor follow the drafts of a request not theirs', async () => {
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'hello' });
    const stranger = await t.post('/v3/auth/signinAnonymously', { body: { id_project: p.projectId, firstname: 'Other' } });
    const { client } = connect(node.server.url, stranger.body.token);
    clients.push(client);
    const sub = subscribe(client, `subscription($p: String!, $r: String!) { kbAnswerDrafts(project_id: $p, request_id: $r) { text } }`, { p: p.projectId, r: requestId });
    expect(JSON.stringify(await sub.failure())).toContain('NOT_FOUND');
  });
});
