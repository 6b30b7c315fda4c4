import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';

let t: TestApp;
let shared: SeededProject;

beforeAll(async () => {
  t = await sharedTestApp();
  shared = await t.seedProject('Labels');
});
afterAll(() => t.close());

const defaultsDir = new URL('../src/modules/labels/defaults/', import.meta.url);
const shipped = (lang: string) => JSON.parse(readFileSync(new URL(`${lang}.json`, defaultsDir), 'utf8')) as Record<string, string>;

/** A project of its own, for tests that change its labels. */
const fresh = () => t.seedProject('Labels');

const save = (p: SeededProject, body: unknown, token = p.admin.token) => t.post(`/v3/${p.projectId}/labels`, { token, body });

describe('pre-translated labels', () => {
  it('ship English, Italian, French, Spanish, German and Portuguese with the same keys', () => {
    const files = readdirSync(defaultsDir).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace('.json', '')).sort()).toEqual(expect.arrayContaining(['de', 'en', 'es', 'fr', 'it', 'pt']));
    const englishKeys = Object.keys(shipped('en')).sort();
    expect(englishKeys.length).toBeGreaterThanOrEqual(30);
    for (const file of files) {
      const labels = shipped(file.replace('.json', ''));
      expect(Object.keys(labels).sort(), file).toEqual(englishKeys);
      expect(Object.values(labels).every((v) => typeof v === 'string' && v.trim().length > 0), file).toBe(true);
    }
  });

  it('GET /labels/default lists every shipped language', async () => {
    const res = await t.get(`/v3/${shared.projectId}/labels/default`, { token: shared.guest.token });
    expect(res.status).toBe(200);
    expect(res.body.map((l: { lang: string }) => l.lang).sort()).toEqual(['de', 'en', 'es', 'fr', 'it', 'pt']);
    const italian = res.body.find((l: { lang: string }) => l.lang === 'it');
    expect(italian).toEqual({ lang: 'it', data: shipped('it'), category: 'widget', default: false });
  });

  it('GET /labels/default is public: the widget may read it before signing in', async () => {
    const res = await t.get(`/v3/${shared.projectId}/labels/default`);
    expect(res.status).toBe(200);
  });

  it('GET /labels/default/:lang returns one shipped language', async () => {
    const res = await t.get(`/v3/${shared.projectId}/labels/default/fr`, { token: shared.guest.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ lang: 'fr', data: shipped('fr'), category: 'widget', default: false });
  });

  it('GET /labels/default/:lang serves a regional tag from its primary language', async () => {
    const res = await t.get(`/v3/${shared.projectId}/labels/default/pt-BR`);
    expect(res.body.lang).toBe('pt');
  });

  it('GET /labels/default/:lang falls back to English for a language not shipped', async () => {
    const res = await t.get(`/v3/${shared.projectId}/labels/default/ja`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ lang: 'en', default: true, data: shipped('en') });
  });

  it('GET /labels/default/:lang answers 400 for something that is not a language', async () => {
    const res = await t.get(`/v3/${shared.projectId}/labels/default/not_a language!`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'lang' });
  });
});

describe('POST /v3/:project_id/labels', () => {
  it('stores a language; the first one becomes the project default', async () => {
    const p = await fresh();
    const res = await save(p, { lang: 'en', data: { LABEL_PLACEHOLDER: 'Ask us' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id_project: p.projectId,
      data: { lang: 'en', data: { LABEL_PLACEHOLDER: 'Ask us' }, category: null, default: true },
      attributes: {},
      createdBy: p.admin.userId,
      __v: 0,
    });
    expect(res.body._id).toBe(res.body.id);
  });

  it('replaces the translations of an existing language and keeps its default flag', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one', B: 'two' }, category: 'widget' });
    const res = await save(p, { lang: 'en', data: { A: 'uno' } });
    expect(res.body.data).toEqual({ lang: 'en', data: { A: 'uno' }, category: 'widget', default: true });
    expect(res.body.__v).toBe(1);
  });

  it('keeps the translations when only the default flag is sent', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    await save(p, { lang: 'it', data: { A: 'uno' } });
    const res = await save(p, { lang: 'it', default: true });
    expect(res.body.data).toMatchObject({ lang: 'it', data: { A: 'uno' }, default: true });
  });

  it('with default true moves the default from the previous language', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    await save(p, { lang: 'de', data: { A: 'eins' }, default: true });
    const list = await t.get(`/v3/${p.projectId}/labels`, { token: p.guest.token });
    expect(list.body.map((l: { data: { lang: string; default: boolean } }) => [l.data.lang, l.data.default])).toEqual([
      ['de', true],
      ['en', false],
    ]);
  });

  it('stores language identifiers lower-case with a hyphen', async () => {
    const p = await fresh();
    const res = await save(p, { lang: 'PT_br', data: { A: 'um' } });
    expect(res.body.data.lang).toBe('pt-br');
  });

  it('answers 400 when the default language would lose its flag', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    const res = await save(p, { lang: 'en', default: false });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('default');
  });

  it('answers 400 naming data for a new language without translations', async () => {
    const res = await save(shared, { lang: 'sv' });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('data');
  });

  it('answers 400 naming data when it is not an object', async () => {
    const res = await save(shared, { lang: 'sv', data: 'Hej' });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('data');
    expect(res.body.message).not.toMatch(/required/);
  });

  it('answers 400 naming the label whose value is not a string', async () => {
    const res = await save(shared, { lang: 'sv', data: { LABEL_PLACEHOLDER: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('data.LABEL_PLACEHOLDER');
  });

  it('answers 400 naming lang when it is missing or malformed', async () => {
    expect((await save(shared, { data: { A: 'a' } })).body.field).toBe('lang');
    const malformed = await save(shared, { lang: '../../etc', data: { A: 'a' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe('lang');
  });

  it('needs an admin: 403 for an agent, 401 without credentials', async () => {
    expect((await save(shared, { lang: 'en', data: { A: 'a' } }, shared.agent.token)).status).toBe(403);
    expect((await save(shared, { lang: 'en', data: { A: 'a' } }, shared.guest.token)).status).toBe(403);
    expect((await t.post(`/v3/${shared.projectId}/labels`, { body: { lang: 'en', data: {} } })).status).toBe(401);
  });

  it('logs label.create, then label.update, in the project event log', async () => {
    const p = await fresh();
    const created = await save(p, { lang: 'en', data: { A: 'one' } });
    await save(p, { lang: 'en', data: { A: 'two' } });
    const events = await t.infra.eventLog.readAfter(p.projectId, 0);
    const labelEvents = events.filter((e) => e.name.startsWith('label.'));
    expect(labelEvents.map((e) => [e.name, e.subject])).toEqual([
      ['label.create', created.body._id],
      ['label.update', created.body._id],
    ]);
  });
});

describe('GET /v3/:project_id/labels', () => {
  it('lists the project languages, the default first, for a guest', async () => {
    const p = await fresh();
    await save(p, { lang: 'it', data: { A: 'uno' } });
    await save(p, { lang: 'en', data: { A: 'one' } });
    const res = await t.get(`/v3/${p.projectId}/labels`, { token: p.guest.token });
    expect(res.status).toBe(200);
    expect(res.body.map((l: { data: { lang: string } }) => l.data.lang)).toEqual(['it', 'en']);
  });

  it('answers 401 without credentials and 403 to a user of another project', async () => {
    const other = await t.newUser('outsider');
    expect((await t.get(`/v3/${shared.projectId}/labels`)).status).toBe(401);
    expect((await t.get(`/v3/${shared.projectId}/labels`, { token: other.token })).status).toBe(403);
  });
});

describe('GET /v3/:project_id/labels/:lang', () => {
  it('returns the project translations of the language', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    await save(p, { lang: 'it', data: { A: 'uno' }, category: 'widget' });
    const res = await t.get(`/v3/${p.projectId}/labels/IT`, { token: p.guest.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ lang: 'it', data: { A: 'uno' }, category: 'widget', default: false });
  });

  it('serves a regional tag from its primary language', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    await save(p, { lang: 'pt', data: { A: 'um' } });
    const res = await t.get(`/v3/${p.projectId}/labels/pt-BR`, { token: p.guest.token });
    expect(res.body.lang).toBe('pt');
  });

  it('falls back to the project default language', async () => {
    const p = await fresh();
    await save(p, { lang: 'de', data: { A: 'eins' } });
    await save(p, { lang: 'it', data: { A: 'uno' } });
    const res = await t.get(`/v3/${p.projectId}/labels/fr`, { token: p.guest.token });
    expect(res.body).toMatchObject({ lang: 'de', default: true, data: { A: 'eins' } });
  });

  it('falls back to the shipped English labels when the project has none', async () => {
    const p = await fresh();
    const res = await t.get(`/v3/${p.projectId}/labels/fr`, { token: p.guest.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ lang: 'en', data: shipped('en'), category: 'widget', default: true });
  });

  it('answers 401 without credentials', async () => {
    expect((await t.get(`/v3/${shared.projectId}/labels/en`)).status).toBe(401);
  });
});

describe('PATCH /v3/:project_id/labels/:lang/default', () => {
  it('makes the language the only default', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    await save(p, { lang: 'es', data: { A: 'uno' } });
    const res = await t.patch(`/v3/${p.projectId}/labels/es/default`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ lang: 'es', default: true });
    const english = await t.get(`/v3/${p.projectId}/labels/en`, { token: p.admin.token });
    expect(english.body.default).toBe(false);
  });

  it('answers 404 for a language the project does not have', async () => {
    const res = await t.patch(`/v3/${shared.projectId}/labels/fi/default`, { token: shared.admin.token });
    expect(res.status).toBe(404);
  });

  it('answers 403 to an agent', async () => {
    const res = await t.patch(`/v3/${shared.projectId}/labels/en/default`, { token: shared.agent.token });
    expect(res.status).toBe(403);
  });
});

describe('DELETE /v3/:project_id/labels/:lang', () => {
  it('deletes a language and returns its record', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    const italian = await save(p, { lang: 'it', data: { A: 'uno' } });
    const res = await t.delete(`/v3/${p.projectId}/labels/it`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: italian.body._id, data: { lang: 'it' } });
    const after = await t.get(`/v3/${p.projectId}/labels/it`, { token: p.admin.token });
    expect(after.body.lang).toBe('en');
  });

  it('refuses to delete the default language with 400', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    const res = await t.delete(`/v3/${p.projectId}/labels/en`, { token: p.admin.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'lang' });
  });

  it('answers 404 for a language the project does not have', async () => {
    expect((await t.delete(`/v3/${shared.projectId}/labels/fi`, { token: shared.admin.token })).status).toBe(404);
  });

  it('answers 403 to an agent', async () => {
    expect((await t.delete(`/v3/${shared.projectId}/labels/fi`, { token: shared.agent.token })).status).toBe(403);
  });
});

describe('DELETE /v3/:project_id/labels', () => {
  it('deletes every language of the project', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    await save(p, { lang: 'it', data: { A: 'uno' } });
    const res = await t.delete(`/v3/${p.projectId}/labels/`, { token: p.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, deleted: 2 });
    expect((await t.get(`/v3/${p.projectId}/labels`, { token: p.admin.token })).body).toEqual([]);
  });

  it('answers 403 to an agent', async () => {
    expect((await t.delete(`/v3/${shared.projectId}/labels`, { token: shared.agent.token })).status).toBe(403);
  });
});

describe('POST /v3/:project_id/labels/default/clone', () => {
  it('copies a shipped language into the project', async () => {
    const p = await fresh();
    const res = await t.post(`/v3/${p.projectId}/labels/default/clone`, { token: p.admin.token, body: { lang: 'it' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ lang: 'it', data: shipped('it'), category: 'widget', default: true });
  });

  it('replaces the project translations of that language and keeps its default flag', async () => {
    const p = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    await save(p, { lang: 'de', data: { CUSTOM: 'x' } });
    const res = await t.post(`/v3/${p.projectId}/labels/default/clone`, { token: p.admin.token, body: { lang: 'de' } });
    expect(res.body.data).toMatchObject({ lang: 'de', data: shipped('de'), default: false });
  });

  it('answers 400 naming lang for a language not shipped, or none', async () => {
    const unknown = await t.post(`/v3/${shared.projectId}/labels/default/clone`, { token: shared.admin.token, body: { lang: 'ja' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('lang');
    const missing = await t.post(`/v3/${shared.projectId}/labels/default/clone`, { token: shared.admin.token, body: {} });
    expect(missing.body.field).toBe('lang');
  });

  it('answers 403 to an agent', async () => {
    const res = await t.post(`/v3/${shared.projectId}/labels/default/clone`, { token: shared.agent.token, body: { lang: 'it' } });
    expect(res.status).toBe(403);
  });
});

describe('tenancy', () => {
  it('another project\'s owner cannot reach our languages through their project (404) or ours (403)', async () => {
    const p = await fresh();
    const other = await fresh();
    await save(p, { lang: 'en', data: { A: 'one' } });
    await save(p, { lang: 'it', data: { A: 'uno' } });
    const viaTheirs = await t.delete(`/v3/${other.projectId}/labels/it`, { token: other.owner.token });
    expect(viaTheirs.status).toBe(404);
    expect((await t.patch(`/v3/${other.projectId}/labels/it/default`, { token: other.owner.token })).status).toBe(404);
    const viaOurs = await t.delete(`/v3/${p.projectId}/labels/it`, { token: other.owner.token });
    expect(viaOurs.status).toBe(403);
    expect((await t.get(`/v3/${p.projectId}/labels/it`, { token: p.guest.token })).body.lang).toBe('it');
  });
});

describe('GraphQL', () => {
  it('saves and reads labels', async () => {
    const p = await fresh();
    const saved = await t.gql(
      `mutation($p: String!) { saveLabel(project_id: $p, lang: "fr", data: { BONJOUR: "Bonjour" }) { _id revision data { lang data default } } }`,
      { p: p.projectId },
      p.admin.token,
    );
    expect(saved.body.data.saveLabel).toMatchObject({ revision: 0, data: { lang: 'fr', data: { BONJOUR: 'Bonjour' }, default: true } });
    const read = await t.gql(
      `query($p: String!) { label(project_id: $p, lang: "fr") { lang data } labels(project_id: $p) { _id } }`,
      { p: p.projectId },
      p.guest.token,
    );
    expect(read.body.data.label).toEqual({ lang: 'fr', data: { BONJOUR: 'Bonjour' } });
    expect(read.body.data.labels).toEqual([{ _id: saved.body.data.saveLabel._id }]);
  });

  it('refuses saveLabel to an agent with FORBIDDEN', async () => {
    const res = await t.gql(
      `mutation($p: String!) { saveLabel(project_id: $p, lang: "fr", data: {}) { _id } }`,
      { p: shared.projectId },
      shared.agent.token,
    );
    expect(res.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('clones, makes default and deletes through mutations', async () => {
    const p = await fresh();
    const vars = { p: p.projectId };
    await t.gql(`mutation($p: String!) { cloneDefaultLabel(project_id: $p, lang: "en") { _id } }`, vars, p.admin.token);
    await t.gql(`mutation($p: String!) { cloneDefaultLabel(project_id: $p, lang: "es") { _id } }`, vars, p.admin.token);
    const made = await t.gql(`mutation($p: String!) { makeLabelDefault(project_id: $p, lang: "es") { data { default } } }`, vars, p.admin.token);
    expect(made.body.data.makeLabelDefault.data.default).toBe(true);
    const deleted = await t.gql(`mutation($p: String!) { deleteLabel(project_id: $p, lang: "en") { data { lang } } }`, vars, p.admin.token);
    expect(deleted.body.data.deleteLabel.data.lang).toBe('en');
    const all = await t.gql(`mutation($p: String!) { deleteLabels(project_id: $p) { deleted } }`, vars, p.admin.token);
    expect(all.body.data.deleteLabels.deleted).toBe(1);
  });
});
