import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

// Export, import (create, replace, overwrite; JSON or multipart) and fork.

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Source');
  other = await t.seedProject('Target');
});
afterAll(() => t.close());

const bots = (rest = '', projectId = p.projectId) => `/v3/${projectId}/bots${rest}`;

async function createBot(body: Record<string, unknown> = {}, projectId = p.projectId, token = p.admin.token) {
  const res = await t.post(bots('', projectId), { token, body: { name: 'Exported', ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

async function intentsOf(botId: string, projectId = p.projectId, token = p.owner.token) {
  const res = await t.get(`/v3/${projectId}/faq?id_faq_kb=${botId}&limit=100&direction=1`, { token });
  expect(res.status).toBe(200);
  return res.body as Array<Record<string, any>>;
}

const byName = (intents: Array<Record<string, any>>) => Object.fromEntries(intents.map((i) => [i.intent_display_name, i]));

async function exported(botId: string, query = '') {
  const res = await t.get(bots(`/exportjson/${botId}${query}`), { token: p.admin.token });
  expect(res.status).toBe(200);
  return res.body;
}

describe('GET /v3/:project_id/bots/exportjson/:id', () => {
  it('exports the bot\'s fields and every intent', async () => {
    const bot = await createBot({ template: 'example', language: 'en', webhook_enabled: true });
    const doc = await exported(bot._id);
    expect(doc).toMatchObject({ name: 'Exported', language: 'en', webhook_enabled: true, type: 'internal' });
    expect(doc.intents).toHaveLength((await intentsOf(bot._id)).length);
    expect(doc.intents[0]).toEqual({
      intent_display_name: 'start',
      question: expect.any(String),
      answer: expect.any(String),
      enabled: true,
      webhook_enabled: false,
      language: 'en',
      attributes: expect.any(Object),
    });
    expect(JSON.stringify(doc)).not.toContain(bot.secret);
  });

  it('exports only the intents with intentsOnly=true', async () => {
    const bot = await createBot({ template: 'blank' });
    const doc = await exported(bot._id, '?intentsOnly=true');
    expect(Object.keys(doc)).toEqual(['intents']);
    expect(doc.intents.map((i: { intent_display_name: string }) => i.intent_display_name)).toEqual(['start', 'defaultFallback']);
  });

  it('is served at /faq_kb/exportjson too', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.get(`/v3/${p.projectId}/faq_kb/exportjson/${bot._id}`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.intents).toHaveLength(2);
  });

  it('is refused to an agent', async () => {
    const bot = await createBot({ template: 'blank' });
    expect((await t.get(bots(`/exportjson/${bot._id}`), { token: p.agent.token })).status).toBe(403);
  });
});

describe('POST /v3/:project_id/bots/importjson/:id', () => {
  it('with create=true makes a new bot equal to the exported one', async () => {
    const source = await createBot({ template: 'example', description: 'Round trip', language: 'en' });
    const doc = await exported(source._id);
    const res = await t.post(bots('/importjson/null?create=true'), { token: p.admin.token, body: doc });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Exported', description: 'Round trip', type: 'internal', external: false });
    expect(res.body._id).not.toBe(source._id);
    expect((await exported(res.body._id)).intents).toEqual(doc.intents);
  });

  it('without create adds the document\'s new intents and keeps those with the same name', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.post(bots(`/importjson/${bot._id}`), {
      token: p.admin.token,
      body: {
        intents: [
          { intent_display_name: 'start', question: '\\start', answer: 'Imported start' },
          { intent_display_name: 'refunds', question: 'Can I get a refund?', answer: 'Yes, within 30 days.' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body._id).toBe(bot._id);
    const intents = byName(await intentsOf(bot._id));
    expect(Object.keys(intents).sort()).toEqual(['defaultFallback', 'refunds', 'start']);
    expect(intents.start.answer).toBe('Hi! How can I help you?');
    expect(intents.refunds.answer).toBe('Yes, within 30 days.');
  });

  it('with overwrite=true replaces the intents with the same name', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.post(bots(`/importjson/${bot._id}?overwrite=true`), {
      token: p.admin.token,
      body: { intents: [{ intent_display_name: 'start', question: '\\start', answer: 'Imported start' }] },
    });
    expect(res.status).toBe(200);
    const intents = byName(await intentsOf(bot._id));
    expect(Object.keys(intents).sort()).toEqual(['defaultFallback', 'start']);
    expect(intents.start.answer).toBe('Imported start');
  });

  it('with replace=true removes every intent first', async () => {
    const bot = await createBot({ template: 'example' });
    const res = await t.post(bots(`/importjson/${bot._id}?replace=true`), {
      token: p.admin.token,
      body: { intents: [{ intent_display_name: 'only', question: 'q', answer: 'a' }] },
    });
    expect(res.status).toBe(200);
    expect((await intentsOf(bot._id)).map((i) => i.intent_display_name)).toEqual(['only']);
  });

  it('round-trips an export into another bot with replace=true', async () => {
    const source = await createBot({ template: 'example' });
    const target = await createBot({ template: 'blank' });
    const doc = await exported(source._id, '?intentsOnly=true');
    await t.post(bots(`/importjson/${target._id}?replace=true`), { token: p.admin.token, body: doc });
    expect((await exported(target._id, '?intentsOnly=true')).intents).toEqual(doc.intents);
  });

  it('round-trips an export into a bot with the same intent names with overwrite=true', async () => {
    const source = await createBot({ template: 'handoff' });
    const target = await createBot({ template: 'handoff' });
    const [start] = (await intentsOf(target._id)).filter((i) => i.intent_display_name === 'start');
    await t.put(`/v3/${p.projectId}/faq/${start._id}`, { token: p.admin.token, body: { answer: 'Changed', enabled: false } });
    const doc = await exported(source._id, '?intentsOnly=true');
    await t.post(bots(`/importjson/${target._id}?overwrite=true`), { token: p.admin.token, body: doc });
    expect((await exported(target._id, '?intentsOnly=true')).intents).toEqual(doc.intents);
  });

  it('reads the document from a multipart uploadFile', async () => {
    const source = await createBot({ template: 'handoff' });
    const doc = await exported(source._id);
    const form = new FormData();
    form.append('uploadFile', new Blob([JSON.stringify({ ...doc, name: 'Uploaded' })], { type: 'application/json' }), 'bot.json');
    const res = await t.post(`/v3/${p.projectId}/faq_kb/importjson/null?create=true`, { token: p.admin.token, body: form });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Uploaded');
    expect((await intentsOf(res.body._id)).map((i) => i.intent_display_name).sort()).toEqual(['agent_handoff', 'defaultFallback', 'start']);
  });

  it('answers 400 naming uploadFile when the upload is not JSON', async () => {
    const form = new FormData();
    form.append('uploadFile', new Blob(['{not json']), 'bot.json');
    const res = await t.post(bots('/importjson/null?create=true'), { token: p.admin.token, body: form });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field: 'uploadFile' });
  });

  it('refuses a multipart upload to an agent', async () => {
    const form = new FormData();
    form.append('uploadFile', new Blob([JSON.stringify({ name: 'X', intents: [] })]), 'bot.json');
    const res = await t.post(bots('/importjson/null?create=true'), { token: p.agent.token, body: form });
    expect(res.status).toBe(403);
  });

  it('answers 400 naming the intent whose display name appears twice', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.post(bots(`/importjson/${bot._id}`), {
      token: p.admin.token,
      body: { intents: [{ intent_display_name: 'a', answer: '1' }, { intent_display_name: 'a', answer: '2' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('intents.1.intent_display_name');
  });

  it('answers 400 naming name when create=true and the document has none', async () => {
    const res = await t.post(bots('/importjson/null?create=true'), { token: p.admin.token, body: { intents: [] } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('name');
  });

  it('answers 404 for an unknown bot without create', async () => {
    const res = await t.post(bots('/importjson/nope'), { token: p.admin.token, body: { intents: [] } });
    expect(res.status).toBe(404);
  });
});

describe('POST and PUT /v3/:project_id/bots/fork/:id', () => {
  it('copies the bot and its intents in the same project', async () => {
    const source = await createBot({ template: 'example', description: 'Original' });
    const res = await t.post(bots(`/fork/${source._id}`), { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Chatbot forked successfully', bot_id: expect.any(String) });
    const copy = await t.get(bots(`/${res.body.bot_id}`), { token: p.admin.token });
    expect(copy.body).toMatchObject({ name: 'Exported', description: 'Original', id_project: p.projectId, public: false });
    expect(copy.body.secret).not.toBe(source.secret);
    const original = (await intentsOf(source._id)).map((i) => [i.intent_display_name, i.answer]);
    expect((await intentsOf(res.body.bot_id)).map((i) => [i.intent_display_name, i.answer])).toEqual(original);
  });

  it('accepts PUT as well, at /faq_kb too', async () => {
    const source = await createBot({ template: 'blank' });
    const put = await t.put(bots(`/fork/${source._id}`), { token: p.admin.token });
    expect(put.status).toBe(200);
    const alias = await t.put(`/v3/${p.projectId}/faq_kb/fork/${source._id}`, { token: p.admin.token });
    expect(alias.status).toBe(200);
    expect(alias.body.bot_id).not.toBe(put.body.bot_id);
  });

  it('forks into another project where the caller is admin', async () => {
    const source = await createBot({ template: 'handoff' });
    await t.addMember(other.projectId, other.owner.token, p.admin, 'admin');
    const res = await t.post(bots(`/fork/${source._id}?projectid=${other.projectId}`), { token: p.admin.token });
    expect(res.status).toBe(200);
    const copy = await t.get(bots(`/${res.body.bot_id}`, other.projectId), { token: other.owner.token });
    expect(copy.status).toBe(200);
    expect(copy.body.id_project).toBe(other.projectId);
    expect((await intentsOf(res.body.bot_id, other.projectId, other.owner.token)).map((i) => i.intent_display_name).sort()).toEqual([
      'agent_handoff',
      'defaultFallback',
      'start',
    ]);
    expect((await t.get(bots(`/${res.body.bot_id}`), { token: p.owner.token })).status).toBe(404);
  });

  it('answers 403 for another project where the caller is not admin', async () => {
    const source = await createBot({ template: 'blank' });
    const res = await t.post(bots(`/fork/${source._id}?projectid=${other.projectId}`), { token: p.owner.token });
    expect(res.status).toBe(403);
  });

  it('answers 403 for a project where the caller is only an agent', async () => {
    const source = await createBot({ template: 'blank' });
    await t.addMember(other.projectId, other.owner.token, p.owner, 'agent');
    const res = await t.post(bots(`/fork/${source._id}?projectid=${other.projectId}`), { token: p.owner.token });
    expect(res.status).toBe(403);
  });

  it('with public=true forks another project\'s public bot', async () => {
    const shared = await createBot({ template: 'blank', public: true, name: 'Shared' }, other.projectId, other.owner.token);
    const res = await t.post(bots(`/fork/${shared._id}?public=true`), { token: p.admin.token });
    expect(res.status).toBe(200);
    const copy = await t.get(bots(`/${res.body.bot_id}`), { token: p.admin.token });
    expect(copy.body).toMatchObject({ name: 'Shared', id_project: p.projectId, public: false });
  });

  it('answers 404 for another project\'s bot that is not public', async () => {
    const hidden = await createBot({ template: 'blank' }, other.projectId, other.owner.token);
    expect((await t.post(bots(`/fork/${hidden._id}?public=true`), { token: p.admin.token })).status).toBe(404);
    expect((await t.post(bots(`/fork/${hidden._id}`), { token: p.admin.token })).status).toBe(404);
  });

  it('is refused to an agent', async () => {
    const source = await createBot({ template: 'blank' });
    expect((await t.post(bots(`/fork/${source._id}`), { token: p.agent.token })).status).toBe(403);
  });
});
