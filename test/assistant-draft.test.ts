import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { eventually, newRequestId, send } from './helpers/conversations.js';
import { consumerCaughtUp } from './helpers/event-consumers.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.js';
import { connect, subscribe } from './helpers/realtime.js';

// With a chat model configured (a local OpenAI-compatible server), the assistant drafts a reply
// grounded in the other sources' suggestions, cites what it used, and streams it as it is written.

const resetAnswer = 'Open Settings, then Security, and press Reset password.';
const draftQuery = `subscription($p: String!, $r: String!) {
  requestSuggestionDraft(project_id: $p, request_id: $r) { delta done reply { text source cites { source ref } } }
}`;

let llm: FakeOpenAI;
let node: Awaited<ReturnType<typeof createTestServer>>;
let t: TestApp;
let p: SeededProject;
let learnedFrom: string;
const clients: Client[] = [];

beforeAll(async () => {
  llm = await startFakeOpenAI();
  node = await createTestServer({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'sk-test', LLM_MODEL: 'house-model' });
  t = node.client;
  p = await t.seedProject('Drafts');
  learnedFrom = newRequestId();
  await send(t, p.projectId, p.guest.token, learnedFrom, { text: 'How do I reset my password?' });
  await send(t, p.projectId, p.admin.token, learnedFrom, { text: resetAnswer });
  await t.put(`/v3/${p.projectId}/requests/${learnedFrom}/close`, { token: p.admin.token });
  await eventually(() => consumerCaughtUp(t, 'assistant-history', p.projectId), 20_000);
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await t.close();
  await llm.close();
});

async function asked(text: string) {
  const requestId = newRequestId();
  await send(t, p.projectId, p.guest.token, requestId, { text });
  return requestId;
}

describe('a model-drafted reply', () => {
  it("comes first among the suggestions, in the model's words, citing the suggestion it used", async () => {
    llm.onChat = () => ({ content: 'Hello! You can reset it under Settings > Security [1].' });
    const res = await t.get(`/v3/${p.projectId}/requests/${await asked('I forgot my password, how do I reset it?')}/suggestions`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.replies[0]).toMatchObject({ source: 'model', text: 'Hello! You can reset it under Settings > Security.', cites: [{ source: 'history', ref: learnedFrom }] });
    expect(res.body.replies[1]).toMatchObject({ source: 'history', text: resetAnswer });
  });

  it('is grounded in the suggestions: they are the numbered passages the model is given', async () => {
    llm.onChat = () => ({ content: 'Reset it in Settings [1].' });
    await t.get(`/v3/${p.projectId}/requests/${await asked('password reset please')}/suggestions`, { token: p.admin.token });
    const sent = JSON.stringify(llm.chatRequests.at(-1));
    expect(sent).toContain(resetAnswer);
    expect(sent).toContain('password reset please');
  });

  it('is left out when the model finds no answer in the sources', async () => {
    llm.onChat = () => ({ content: 'NO_ANSWER' });
    const res = await t.get(`/v3/${p.projectId}/requests/${await asked('How do I reset my password?')}/suggestions`, { token: p.admin.token });
    expect(res.body.replies.map((r: { source: string }) => r.source)).not.toContain('model');
    expect(res.body.replies[0].text).toBe(resetAnswer);
  });

  it('is left out, and the others still answered, when the model endpoint fails', async () => {
    llm.onChat = () => ({ status: 500, error: 'boom' });
    const res = await t.get(`/v3/${p.projectId}/requests/${await asked('How do I reset my password?')}/suggestions`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.replies[0]).toMatchObject({ source: 'history', text: resetAnswer });
  });

  it('streams as it is written, then ends with the whole reply', async () => {
    llm.onChat = () => ({ content: 'Go to Settings and reset it [1].', pieces: ['Go to ', 'Settings ', 'and reset it', ' [1].'] });
    const { client } = connect(node.server.url, p.admin.token);
    clients.push(client);
    const sub = subscribe<{ delta: string | null; done: boolean; reply: { text: string; source: string; cites: unknown[] } | null }>(client, draftQuery, {
      p: p.projectId,
      r: await asked('how to reset my password'),
    });
    let pieces = await sub.take(1);
    while (!pieces.at(-1)!.done) pieces = await sub.take(pieces.length + 1);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.filter((x) => !x.done).map((x) => x.delta).join('')).toBe('Go to Settings and reset it.');
    expect(pieces.at(-1)).toEqual({ delta: null, done: true, reply: { text: 'Go to Settings and reset it.', source: 'model', cites: [{ source: 'history', ref: learnedFrom }] } });
  });
});
