import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { waitForStatus } from './helpers/kb-fixtures.js';

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await sharedTestApp();
  p = await t.seedProject();
});
afterAll(() => t.close());

const kb = (suffix = '') => `/v3/${p.projectId}/kb${suffix}`;
const asAdmin = (body?: unknown) => ({ token: p.admin.token, body });
const defaults = { model: 'gpt-4o-mini', max_tokens: 256, temperature: 0.7, top_k: 4, context: '' };

async function create(name: string) {
  const res = await t.post(kb('/namespace'), asAdmin({ name }));
  expect(res.status).toBe(200);
  return res.body as { id: string; name: string };
}

describe('GET /v3/:project_id/kb/namespace/all', () => {
  it('always lists the project\'s default knowledge base, with default preview settings', async () => {
    const res = await t.get(kb('/namespace/all'), asAdmin());
    expect(res.status).toBe(200);
    const defaultKbs = res.body.filter((k: { default: boolean }) => k.default);
    expect(defaultKbs).toHaveLength(1);
    expect(defaultKbs[0]).toMatchObject({ id_project: p.projectId, preview_settings: defaults, __v: 0 });
    expect(defaultKbs[0]._id).toBe(defaultKbs[0].id);
  });

  it('creates a single default knowledge base even when asked for it concurrently', async () => {
    const fresh = await t.seedProject('Fresh');
    const lists = await Promise.all(
      [1, 2, 3].map(() => t.get(`/v3/${fresh.projectId}/kb/namespace/all`, { token: fresh.admin.token })),
    );
    const ids = new Set(lists.flatMap((l) => l.body.filter((k: { default: boolean }) => k.default).map((k: { id: string }) => k.id)));
    expect(ids.size).toBe(1);
  });

  it('answers 403 to an agent', async () => {
    expect((await t.get(kb('/namespace/all'), { token: p.agent.token })).status).toBe(403);
  });
});

describe('POST /v3/:project_id/kb/namespace', () => {
  it('creates a knowledge base that is not the default, with default preview settings', async () => {
    const res = await t.post(kb('/namespace'), asAdmin({ name: 'Product docs' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Product docs', default: false, preview_settings: defaults });
    const all = await t.get(kb('/namespace/all'), asAdmin());
    expect(all.body.map((k: { id: string }) => k.id)).toContain(res.body.id);
  });

  it('answers 400 without a name', async () => {
    const res = await t.post(kb('/namespace'), asAdmin({}));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('name');
  });
});

describe('PUT /v3/:project_id/kb/namespace/:id', () => {
  it('renames and changes only the preview settings given', async () => {
    const created = await create('Old name');
    const res = await t.put(kb(`/namespace/${created.id}`), asAdmin({ name: 'New name', preview_settings: { max_tokens: 512, context: 'Be brief.' } }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'New name', preview_settings: { ...defaults, max_tokens: 512, context: 'Be brief.' }, __v: 1 });
    const again = await t.put(kb(`/namespace/${created.id}`), asAdmin({ preview_settings: { temperature: 0 } }));
    expect(again.body.preview_settings).toEqual({ ...defaults, max_tokens: 512, context: 'Be brief.', temperature: 0 });
  });

  it.each([
    [{ max_tokens: 0 }, 'preview_settings.max_tokens'],
    [{ max_tokens: 8193 }, 'preview_settings.max_tokens'],
    [{ temperature: -0.1 }, 'preview_settings.temperature'],
    [{ temperature: 2.5 }, 'preview_settings.temperature'],
    [{ top_k: 0 }, 'preview_settings.top_k'],
    [{ top_k: 51 }, 'preview_settings.top_k'],
    [{ model: ' ' }, 'preview_settings.model'],
  ])('answers 400 for preview settings %j', async (settings, field) => {
    const created = await create('Ranges');
    const res = await t.put(kb(`/namespace/${created.id}`), asAdmin({ preview_settings: settings }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field });
  });

  it('accepts the limits of each range', async () => {
    const created = await create('Limits');
    const low = await t.put(kb(`/namespace/${created.id}`), asAdmin({ preview_settings: { max_tokens: 1, temperature: 0, top_k: 1 } }));
    expect(low.status).toBe(200);
    const high = await t.put(kb(`/namespace/${created.id}`), asAdmin({ preview_settings: { max_tokens: 8192, temperature: 2, top_k: 50 } }));
    expect(high.body.preview_settings).toMatchObject({ max_tokens: 8192, temperature: 2, top_k: 50 });
  });

  it('answers 404 for an unknown knowledge base', async () => {
    expect((await t.put(kb('/namespace/nope'), asAdmin({ name: 'x' }))).status).toBe(404);
  });
});

describe('DELETE /v3/:project_id/kb/namespace/:id', () => {
  async function withContent(namespace: string) {
    const res = await t.post(kb(), asAdmin({ type: 'text', content: 'Some text to keep or drop.', namespace }));
    await waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 300);
    return res.body.value._id as string;
  }

  it('deletes a knowledge base and its contents', async () => {
    const created = await create('Temporary');
    const contentId = await withContent(created.id);
    const res = await t.delete(kb(`/namespace/${created.id}`), asAdmin());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'knowledge base Temporary deleted' });
    const all = await t.get(kb('/namespace/all'), asAdmin());
    expect(all.body.map((k: { id: string }) => k.id)).not.toContain(created.id);
    expect((await t.get(kb(`/${contentId}`), asAdmin())).status).toBe(404);
  });

  it('deletes only the contents with contents_only=true', async () => {
    const created = await create('Keep me');
    const contentId = await withContent(created.id);
    const res = await t.delete(`${kb(`/namespace/${created.id}`)}?contents_only=true`, asAdmin());
    expect(res.body).toEqual({ success: true, message: 'contents of knowledge base Keep me deleted' });
    expect((await t.get(kb(`/${contentId}`), asAdmin())).status).toBe(404);
    const all = await t.get(kb('/namespace/all'), asAdmin());
    expect(all.body.map((k: { id: string }) => k.id)).toContain(created.id);
  });

  it('refuses to delete the default knowledge base, but deletes its contents', async () => {
    const all = await t.get(kb('/namespace/all'), asAdmin());
    const defaultKb = all.body.find((k: { default: boolean }) => k.default);
    const contentId = await withContent(defaultKb.id);

    const refused = await t.delete(kb(`/namespace/${defaultKb.id}`), asAdmin());
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'contents_only' });

    const cleared = await t.delete(`${kb(`/namespace/${defaultKb.id}`)}?contents_only=true`, asAdmin());
    expect(cleared.body.success).toBe(true);
    expect((await t.get(kb(`/${contentId}`), asAdmin())).status).toBe(404);
    const after = await t.get(kb('/namespace/all'), asAdmin());
    expect(after.body.find((k: { default: boolean }) => k.default).id).toBe(defaultKb.id);
  });

  it('answers 404 for another project\'s knowledge base', async () => {
    const other = await t.seedProject('Other');
    const theirs = await t.post(`/v3/${other.projectId}/kb/namespace`, { token: other.admin.token, body: { name: 'Theirs' } });
    expect((await t.delete(kb(`/namespace/${theirs.body.id}`), asAdmin())).status).toBe(404);
  });
});
