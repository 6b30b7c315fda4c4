import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let p: SeededProject;
let other: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject('Bots');
  other = await t.seedProject('Elsewhere');
});
afterAll(() => t.close());

const bots = (rest = '') => `/v3/${p.projectId}/bots${rest}`;
const faq = (rest = '') => `/v3/${p.projectId}/faq${rest}`;

async function createBot(body: Record<string, unknown> = {}) {
  const res = await t.post(bots(), { token: p.admin.token, body: { name: 'Helper', ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

async function intentsOf(botId: string, token = p.agent.token) {
  const res = await t.get(faq(`?id_faq_kb=${botId}&limit=100&direction=1`), { token });
  expect(res.status).toBe(200);
  return res.body as Array<Record<string, any>>;
}

async function eventNames(subject: string) {
  const events = await t.infra.database.prisma.domainEvent.findMany({ where: { subject }, orderBy: { seq: 'asc' } });
  return events.map((e) => e.name);
}

describe('POST /v3/:project_id/bots', () => {
  it('creates an internal bot with the bot fields, external false and the secret for an admin', async () => {
    const res = await t.post(bots(), {
      token: p.admin.token,
      body: { name: 'Greeter', description: 'Says hello', language: 'IT', webhook_enabled: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Greeter',
      description: 'Says hello',
      language: 'it',
      webhook_enabled: true,
      type: 'internal',
      external: false,
      trashed: false,
      public: false,
      id_project: p.projectId,
      createdBy: p.admin.userId,
      __v: 0,
    });
    expect(res.body._id).toBe(res.body.id);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(await eventNames(res.body._id)).toEqual(['bot.create']);
  });

  it('starts from the example template by default', async () => {
    const bot = await createBot();
    const names = (await intentsOf(bot._id)).map((i) => i.intent_display_name);
    expect(names).toEqual(expect.arrayContaining(['start', 'defaultFallback', 'agent_handoff', 'opening_hours', 'callback', 'goodbye']));
  });

  it('gives the blank template only the start and default-fallback intents', async () => {
    const bot = await createBot({ template: 'blank' });
    const intents = await intentsOf(bot._id);
    expect(intents.map((i) => i.intent_display_name).sort()).toEqual(['defaultFallback', 'start']);
    expect(intents.every((i) => i.answer && i.enabled && i.language === 'en')).toBe(true);
  });

  it('gives the handoff template an intent whose answer hands off to an agent', async () => {
    const bot = await createBot({ template: 'handoff' });
    const intents = await intentsOf(bot._id);
    expect(intents.map((i) => i.intent_display_name).sort()).toEqual(['agent_handoff', 'defaultFallback', 'start']);
    const handoff = intents.find((i) => i.intent_display_name === 'agent_handoff')!;
    expect(handoff.answer).toContain('\\agent');
    expect(handoff.question.split('\n')).toContain('talk to an agent');
  });

  it('gives the example template FAQ answers, buttons and a form', async () => {
    const bot = await createBot({ template: 'example', language: 'fr' });
    const intents = await intentsOf(bot._id);
    const start = intents.find((i) => i.intent_display_name === 'start')!;
    expect(start.attributes.attachment.buttons.map((b: { value: string }) => b.value)).toContain('Talk to an agent');
    expect(intents.find((i) => i.intent_display_name === 'callback')!.form.fields.map((f: { name: string }) => f.name)).toEqual(['name', 'email']);
    expect(intents.find((i) => i.intent_display_name === 'goodbye')!.answer).toContain('\\close');
    expect(intents.every((i) => i.language === 'fr')).toBe(true);
  });

  it('creates an external bot with its url and no intents', async () => {
    const bot = await createBot({ type: 'external', url: 'https://bots.example.com/hook' });
    expect(bot).toMatchObject({ type: 'external', external: true, url: 'https://bots.example.com/hook' });
    expect(await intentsOf(bot._id)).toEqual([]);
  });

  it('answers 400 naming url for an external bot without one', async () => {
    const res = await t.post(bots(), { token: p.admin.token, body: { name: 'X', type: 'external' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field: 'url' });
  });

  it('answers 400 naming template for an external bot with one', async () => {
    const res = await t.post(bots(), {
      token: p.admin.token,
      body: { name: 'X', type: 'external', url: 'https://bots.example.com', template: 'blank' },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('template');
  });

  it.each([
    ['template', { template: 'fancy' }],
    ['type', { type: 'robot' }],
    ['language', { language: 'english' }],
    ['name', { name: '' }],
    ['url', { type: 'external', url: 'ftp://bots.example.com' }],
  ])('answers 400 naming %s when it is invalid', async (field, body) => {
    const res = await t.post(bots(), { token: p.admin.token, body: { name: 'X', ...body } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it('is refused to an agent', async () => {
    const res = await t.post(bots(), { token: p.agent.token, body: { name: 'X' } });
    expect(res.status).toBe(403);
  });

  it('is served at /faq_kb too', async () => {
    const res = await t.post(`/v3/${p.projectId}/faq_kb`, { token: p.admin.token, body: { name: 'Sdk bot', template: 'blank' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Sdk bot', type: 'internal' });
  });
});

describe('GET /v3/:project_id/bots', () => {
  it('lists the project\'s bots to an agent, without the secret', async () => {
    const bot = await createBot({ name: 'Listed' });
    const res = await t.get(bots(), { token: p.agent.token });
    expect(res.status).toBe(200);
    const listed = res.body.find((b: { _id: string }) => b._id === bot._id);
    expect(listed).toMatchObject({ name: 'Listed', external: false, secret: null });
  });

  it('shows the secret to an admin', async () => {
    const bot = await createBot();
    const res = await t.get(bots(`/${bot._id}`), { token: p.owner.token });
    expect(res.status).toBe(200);
    expect(res.body.secret).toBe(bot.secret);
  });

  it('answers the same at /faq_kb', async () => {
    const [a, b] = await Promise.all([t.get(bots(), { token: p.agent.token }), t.get(`/v3/${p.projectId}/faq_kb`, { token: p.agent.token })]);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
  });

  it('is refused to an end user', async () => {
    expect((await t.get(bots(), { token: p.guest.token })).status).toBe(403);
    expect((await t.get(bots(), { token: p.user.token })).status).toBe(403);
  });

  it('answers 404 for a bot of another project', async () => {
    const res = await t.post(`/v3/${other.projectId}/bots`, { token: other.owner.token, body: { name: 'Theirs' } });
    const got = await t.get(bots(`/${res.body._id}`), { token: p.owner.token });
    expect(got.status).toBe(404);
    expect(got.body.code).toBe('NOT_FOUND');
  });
});

describe('PUT /v3/:project_id/bots/:id', () => {
  it('changes the fields given and bumps the revision', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.put(bots(`/${bot._id}`), {
      token: p.admin.token,
      body: { name: 'Renamed', description: 'New', language: 'de', webhook_enabled: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', description: 'New', language: 'de', webhook_enabled: true });
    expect(res.body.__v).toBeGreaterThan(bot.__v);
    expect(await eventNames(bot._id)).toEqual(['bot.create', 'bot.update']);
  });

  it('turns a bot external when given a url', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.put(`/v3/${p.projectId}/faq_kb/${bot._id}`, {
      token: p.admin.token,
      body: { type: 'external', url: 'https://engine.example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'external', external: true, url: 'https://engine.example.com' });
  });

  it('answers 400 naming url when a bot turns external without one', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.put(bots(`/${bot._id}`), { token: p.admin.token, body: { type: 'external' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('url');
  });

  it('answers 404 for an unknown bot', async () => {
    expect((await t.put(bots('/nope'), { token: p.admin.token, body: { name: 'X' } })).status).toBe(404);
  });
});

describe('DELETE /v3/:project_id/bots/:id', () => {
  it('marks the bot trashed, leaves it out of the list and takes it out of its departments', async () => {
    const bot = await createBot({ template: 'blank' });
    const department = await t.post(`/v3/${p.projectId}/departments`, { token: p.owner.token, body: { name: 'With bot', id_bot: bot._id } });
    expect(department.body.id_bot).toBe(bot._id);

    const res = await t.delete(bots(`/${bot._id}`), { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: bot._id, trashed: true });
    const listed = await t.get(bots(), { token: p.admin.token });
    expect(listed.body.map((b: { _id: string }) => b._id)).not.toContain(bot._id);
    const after = await t.get(`/v3/${p.projectId}/departments/${department.body._id}`, { token: p.owner.token });
    expect(after.body.id_bot).toBeNull();
    expect(await eventNames(bot._id)).toEqual(['bot.create', 'bot.delete']);
  });

  it('still shows a deleted bot by id, trashed', async () => {
    const bot = await createBot({ template: 'blank' });
    await t.delete(bots(`/${bot._id}`), { token: p.admin.token });
    const res = await t.get(bots(`/${bot._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body.trashed).toBe(true);
  });

  it('answers 404 the second time', async () => {
    const bot = await createBot({ template: 'blank' });
    await t.delete(bots(`/${bot._id}`), { token: p.admin.token });
    expect((await t.delete(bots(`/${bot._id}`), { token: p.admin.token })).status).toBe(404);
  });
});

describe('/v3/:project_id/faq_kb, the SDK\'s name for bots', () => {
  it('reads, updates and deletes a bot like /bots', async () => {
    const bot = await createBot({ template: 'blank' });
    const kb = (rest: string) => `/v3/${p.projectId}/faq_kb${rest}`;
    const got = await t.get(kb(`/${bot._id}`), { token: p.agent.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ _id: bot._id, name: 'Helper' });
    expect((await t.put(kb(`/${bot._id}`), { token: p.admin.token, body: { name: 'Via alias' } })).body.name).toBe('Via alias');
    const deleted = await t.delete(kb(`/${bot._id}`), { token: p.admin.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.trashed).toBe(true);
  });

  it('keeps its routes\' auth: an agent may not delete', async () => {
    const bot = await createBot({ template: 'blank' });
    expect((await t.delete(`/v3/${p.projectId}/faq_kb/${bot._id}`, { token: p.agent.token })).status).toBe(403);
  });
});

describe('intents at /v3/:project_id/faq', () => {
  it('creates an intent with its fields, in the bot\'s language by default', async () => {
    const bot = await createBot({ template: 'blank', language: 'es' });
    const res = await t.post(faq(), {
      token: p.admin.token,
      body: {
        id_faq_kb: bot._id,
        intent_display_name: 'shipping',
        question: 'How long is shipping?',
        answer: 'Three days.',
        webhook_enabled: true,
        attributes: { attachment: { type: 'template', buttons: [{ type: 'text', value: 'Thanks' }] } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id_faq_kb: bot._id,
      id_project: p.projectId,
      intent_display_name: 'shipping',
      question: 'How long is shipping?',
      answer: 'Three days.',
      enabled: true,
      webhook_enabled: true,
      language: 'es',
      attributes: { attachment: { buttons: [{ value: 'Thanks' }] } },
      __v: 0,
    });
    expect(await eventNames(res.body._id)).toEqual(['intent.create']);
  });

  it('names an intent created without a display name', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.post(faq(), { token: p.admin.token, body: { id_faq_kb: bot._id, question: 'q', answer: 'a' } });
    expect(res.status).toBe(200);
    expect(res.body.intent_display_name).toMatch(/^intent_/);
  });

  it('answers 409 for a display name the bot already has', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.post(faq(), { token: p.admin.token, body: { id_faq_kb: bot._id, intent_display_name: 'start', answer: 'x' } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', field: 'intent_display_name' });
  });

  it('allows the same display name in another bot', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.post(faq(), { token: p.admin.token, body: { id_faq_kb: bot._id, intent_display_name: 'shipping', answer: 'x' } });
    expect(res.status).toBe(200);
  });

  it('answers 404 for a bot of another project', async () => {
    const theirs = await t.post(`/v3/${other.projectId}/bots`, { token: other.owner.token, body: { name: 'Theirs' } });
    const res = await t.post(faq(), { token: p.admin.token, body: { id_faq_kb: theirs.body._id, answer: 'x' } });
    expect(res.status).toBe(404);
  });

  it('answers 400 naming the field of an invalid form', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.post(faq(), {
      token: p.admin.token,
      body: { id_faq_kb: bot._id, answer: 'x', form: { fields: [{ name: 'email', label: 'Email?', regex: '(a+)+$' }] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('form.fields.0.regex');
  });

  it('answers 400 naming id_faq_kb when it is missing', async () => {
    const res = await t.post(faq(), { token: p.admin.token, body: { answer: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('id_faq_kb');
  });

  it('reads one intent', async () => {
    const bot = await createBot({ template: 'blank' });
    const [start] = (await intentsOf(bot._id)).filter((i) => i.intent_display_name === 'start');
    const res = await t.get(faq(`/${start._id}`), { token: p.agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: start._id, intent_display_name: 'start' });
  });

  it('updates an intent, keeping display names unique', async () => {
    const bot = await createBot({ template: 'blank' });
    const [start] = (await intentsOf(bot._id)).filter((i) => i.intent_display_name === 'start');
    const renamed = await t.put(faq(`/${start._id}`), { token: p.admin.token, body: { answer: 'Welcome!', enabled: false } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ answer: 'Welcome!', enabled: false, __v: 1 });
    const clash = await t.put(faq(`/${start._id}`), { token: p.admin.token, body: { intent_display_name: 'defaultFallback' } });
    expect(clash.status).toBe(409);
  });

  it('deletes an intent', async () => {
    const bot = await createBot({ template: 'blank' });
    const [start] = (await intentsOf(bot._id)).filter((i) => i.intent_display_name === 'start');
    const res = await t.delete(faq(`/${start._id}`), { token: p.admin.token });
    expect(res.status).toBe(200);
    expect((await t.get(faq(`/${start._id}`), { token: p.agent.token })).status).toBe(404);
  });

  it('counts intent changes in the bot\'s revision', async () => {
    const bot = await createBot({ template: 'blank' });
    await t.post(faq(), { token: p.admin.token, body: { id_faq_kb: bot._id, answer: 'x' } });
    const res = await t.get(bots(`/${bot._id}`), { token: p.agent.token });
    expect(res.body.__v).toBe(bot.__v + 1);
  });

  it('lists by bot, display name and text, with page and limit', async () => {
    const bot = await createBot({ template: 'example' });
    const byName = await t.get(faq(`?id_faq_kb=${bot._id}&intent_display_name=prices`), { token: p.agent.token });
    expect(byName.body.map((i: { intent_display_name: string }) => i.intent_display_name)).toEqual(['prices']);
    const byText = await t.get(faq(`?id_faq_kb=${bot._id}&text=PASSWORD`), { token: p.agent.token });
    expect(byText.body.map((i: { intent_display_name: string }) => i.intent_display_name).sort()).toEqual(['reset_password', 'start']);
    const all = await intentsOf(bot._id);
    const page = await t.get(faq(`?id_faq_kb=${bot._id}&direction=1&limit=3&page=1`), { token: p.agent.token });
    expect(page.body.map((i: { _id: string }) => i._id)).toEqual(all.slice(3, 6).map((i) => i._id));
  });

  it('answers 400 naming limit when it is too large', async () => {
    const res = await t.get(faq('?limit=100000'), { token: p.agent.token });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('limit');
  });

  it('never lists another project\'s intents', async () => {
    const theirs = await t.post(`/v3/${other.projectId}/bots`, { token: other.owner.token, body: { name: 'Theirs' } });
    const res = await t.get(faq(`?id_faq_kb=${theirs.body._id}`), { token: p.owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('refuses writes to an agent', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.post(faq(), { token: p.agent.token, body: { id_faq_kb: bot._id, answer: 'x' } });
    expect(res.status).toBe(403);
  });

  it('is served through GraphQL as well', async () => {
    const bot = await createBot({ template: 'blank' });
    const res = await t.gql(
      `mutation ($p: String!, $b: String) { createIntent(project_id: $p, id_faq_kb: $b, intent_display_name: "gql", answer: "Hi") { id intent_display_name } }`,
      { p: p.projectId, b: bot._id },
      p.admin.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createIntent.intent_display_name).toBe('gql');
  });
});
