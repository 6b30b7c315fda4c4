import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { html, startSite, waitFor, waitForStatus, type FakeSite } from './helpers/kb-fixtures.js';

let t: TestApp;
let p: SeededProject;
let site: FakeSite;
beforeAll(async () => {
  site = await startSite();
  t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });
  p = await t.seedProject();
});
afterAll(async () => {
  await t.close();
  await site.close();
});

const kb = (suffix = '') => `/v3/${p.projectId}/kb${suffix}`;
const asAdmin = (body?: unknown) => ({ token: p.admin.token, body });
let pages = 0;

async function newNamespace(name = 'Help center') {
  const res = await t.post(kb('/namespace'), asAdmin({ name }));
  expect(res.status).toBe(200);
  return res.body.id as string;
}

async function addText(namespace: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await t.post(kb(), asAdmin({ type: 'text', content, namespace, ...extra }));
  expect(res.status).toBe(200);
  return res.body.value as { _id: string; name: string; status: number };
}

function page(text: string) {
  const path = `/page-${++pages}`;
  site.serve(path, { body: html(`Page ${pages}`, `<main><p>${text}</p></main>`) });
  return `${site.url}${path}`;
}

const ask = (namespace: string, question: string) => t.post(kb('/qa'), asAdmin({ namespace, question }));

describe('POST /v3/:project_id/kb', () => {
  it('creates a text content, answers it with status -1 and indexes it to 300', async () => {
    const namespace = await newNamespace();
    const res = await t.post(kb(), asAdmin({ name: 'Refunds', type: 'text', content: 'Refunds are paid within 14 days.', namespace }));
    expect(res.status).toBe(200);
    expect(res.body.lastErrorObject).toEqual({ n: 1, updatedExisting: false, upserted: res.body.value._id });
    expect(res.body.value).toMatchObject({ name: 'Refunds', type: 'text', namespace, status: -1, id_project: p.projectId, __v: expect.any(Number) });
    const indexed = await waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 300);
    expect(indexed.error).toBeNull();
  });

  it('puts a content without namespace in the default knowledge base', async () => {
    const res = await t.post(kb(), asAdmin({ type: 'text', content: 'Default namespace text.' }));
    const all = await t.get(kb('/namespace/all'), asAdmin());
    const defaultKb = all.body.find((k: { default: boolean }) => k.default);
    expect(res.body.value.namespace).toBe(defaultKb.id);
  });

  it.each([
    [{ content: 'x' }, 'type', /is required/],
    [{ type: 'video', content: 'x' }, 'type', /url, text, pdf, docx, faq/],
    [{ type: 'url' }, 'source', /required for type url/],
    [{ type: 'pdf', source: 'ftp://example.test/a.pdf' }, 'source', /http\(s\)/],
    [{ type: 'docx', source: 'not a url' }, 'source', /http\(s\)/],
    [{ type: 'url', source: 'https://example.test/', content: 'some text' }, 'content', /must be empty/],
    [{ type: 'text' }, 'content', /required for type text/],
    [{ type: 'text', content: '   ' }, 'content', /required/],
    [{ type: 'faq', content: 'How long is the warranty? Two years.' }, 'content', /question and an answer separated by a line break/],
    [{ type: 'faq', content: 'How long is the warranty?\n  ' }, 'content', /question and an answer/],
    [{ type: 'text', content: 'x', namespace: 'missing' }, 'namespace', /no knowledge base/],
  ])('answers 400 for %j naming %s', async (body, field, message) => {
    const res = await t.post(kb(), asAdmin(body));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'BAD_USER_INPUT', field });
    expect(res.body.message).toMatch(message);
  });

  it('accepts an faq made of a question, a line break and an answer', async () => {
    const namespace = await newNamespace();
    const value = await addText(namespace, 'How long is the warranty?\nTwo years from delivery.', { type: 'faq' });
    expect(value.name).toBe('How long is the warranty?');
    await waitForStatus(t, p.projectId, p.admin.token, value._id, 300);
  });

  it('upserts a url content on (namespace, type, source) and indexes the new version', async () => {
    const namespace = await newNamespace();
    const url = page('The shop opens at nine.');
    const first = await t.post(kb(), asAdmin({ type: 'url', source: url, namespace }));
    await waitForStatus(t, p.projectId, p.admin.token, first.body.value._id, 300);
    site.serve(new URL(url).pathname, { body: html('Hours', '<main><p>The shop opens at eleven on Sundays.</p></main>') });

    const second = await t.post(kb(), asAdmin({ type: 'url', source: url, namespace, name: 'Opening hours' }));
    expect(second.status).toBe(200);
    expect(second.body.lastErrorObject).toEqual({ n: 1, updatedExisting: true, upserted: null });
    expect(second.body.value).toMatchObject({ _id: first.body.value._id, name: 'Opening hours', status: -1 });
    await waitFor(async () => site.hits(new URL(url).pathname) >= 2, 'the page fetched again');
    await waitForStatus(t, p.projectId, p.admin.token, first.body.value._id, 300);
    const answer = await ask(namespace, 'When does the shop open on Sundays?');
    expect(answer.body.answer).toMatch(/eleven/);
    expect(answer.body.content_chunks.join(' ')).not.toMatch(/nine/);
  });

  it('never upserts text contents, even with the same source', async () => {
    const namespace = await newNamespace();
    const a = await addText(namespace, 'First text.', { source: 'manual' });
    const b = await addText(namespace, 'Second text.', { source: 'manual' });
    expect(a._id).not.toBe(b._id);
  });

  it('answers 403 to an agent and 401 without credentials', async () => {
    const body = { type: 'text', content: 'x' };
    expect((await t.post(kb(), { token: p.agent.token, body })).status).toBe(403);
    expect((await t.post(kb(), { body })).status).toBe(401);
  });
});

describe('indexing failures', () => {
  it('ends in status 400 with the reason at once when the page does not exist', async () => {
    const namespace = await newNamespace();
    const res = await t.post(kb(), asAdmin({ type: 'url', source: `${site.url}/missing-page`, namespace }));
    const failed = await waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 400);
    expect(failed.error).toMatch(/answered 404/);
    expect(site.hits('/missing-page')).toBe(1);
  });

  it('retries a failing page and indexes it once it answers', async () => {
    const namespace = await newNamespace();
    site.serve('/flaky', (_req, count) => (count === 1 ? { status: 503, body: 'busy' } : { body: html('Flaky', '<p>Back in stock tomorrow.</p>') }));
    const res = await t.post(kb(), asAdmin({ type: 'url', source: `${site.url}/flaky`, namespace }));
    const indexed = await waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 300);
    expect(indexed.error).toBeNull();
    expect(site.hits('/flaky')).toBe(2);
  });

  it('ends in status 400 after the last attempt when the page keeps failing', async () => {
    const namespace = await newNamespace();
    site.serve('/down', { status: 500, body: 'down' });
    const res = await t.post(kb(), asAdmin({ type: 'url', source: `${site.url}/down`, namespace }));
    const failed = await waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 400);
    expect(failed.error).toMatch(/answered 500/);
    expect(site.hits('/down')).toBe(3);
  });
});

describe('POST /v3/:project_id/kb/multi', () => {
  it('creates one url content per url, named after it, with status -1', async () => {
    const namespace = await newNamespace();
    const urls = [page('Alpha page text.'), page('Beta page text.')];
    const res = await t.post(`${kb('/multi')}?namespace=${namespace}`, asAdmin({ list: urls }));
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    for (const [i, content] of res.body.entries()) {
      expect(content).toMatchObject({ type: 'url', name: urls[i], source: urls[i], status: -1, namespace });
      await waitForStatus(t, p.projectId, p.admin.token, content._id, 300);
    }
  });

  it('answers 400 naming the entry that is not a url', async () => {
    const res = await t.post(kb('/multi'), asAdmin({ list: ['https://example.test/a', 'javascript:alert(1)'] }));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('list.1');
  });
});

describe('GET /v3/:project_id/kb', () => {
  it('lists with count, query and kbs, filtered and paged', async () => {
    const namespace = await newNamespace();
    for (const name of ['c-third', 'a-first', 'b-second']) await addText(namespace, `Text of ${name}.`, { name, source: `src-${name}` });
    await addText(namespace, 'Question?\nAnswer.', { type: 'faq', name: 'faq-one' });

    const all = await t.get(`${kb()}?namespace=${namespace}`, asAdmin());
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(4);
    expect(all.body.query).toEqual({ limit: 20, sortField: 'updatedAt', direction: -1 });
    expect(all.body.kbs).toHaveLength(4);

    const sorted = await t.get(`${kb()}?namespace=${namespace}&type=text&sortField=name&direction=1&limit=2&page=1`, asAdmin());
    expect(sorted.body.count).toBe(3);
    expect(sorted.body.query).toEqual({ limit: 2, sortField: 'name', direction: 1 });
    expect(sorted.body.kbs.map((c: { name: string }) => c.name)).toEqual(['c-third']);

    const searched = await t.get(`${kb()}?namespace=${namespace}&search=SRC-A`, asAdmin());
    expect(searched.body.kbs.map((c: { name: string }) => c.name)).toEqual(['a-first']);
  });

  it('filters by status', async () => {
    const namespace = await newNamespace();
    const done = await addText(namespace, 'Indexed text.');
    await waitForStatus(t, p.projectId, p.admin.token, done._id, 300);
    await t.post(kb(), asAdmin({ type: 'url', source: `${site.url}/never-there`, namespace }));
    const failed = await waitFor(async () => {
      const res = await t.get(`${kb()}?namespace=${namespace}&status=400`, asAdmin());
      return res.body.count === 1 ? res.body : null;
    }, 'one failed content');
    expect(failed.kbs[0].source).toBe(`${site.url}/never-there`);
    const indexed = await t.get(`${kb()}?namespace=${namespace}&status=300`, asAdmin());
    expect(indexed.body.kbs.map((c: { _id: string }) => c._id)).toEqual([done._id]);
  });

  it.each([
    ['sortField=password', 'sortField'],
    ['direction=2', 'direction'],
    ['status=250', 'status'],
    ['limit=0', 'limit'],
    ['page=-1', 'page'],
    ['type=video', 'type'],
  ])('answers 400 for %s', async (query, field) => {
    const res = await t.get(`${kb()}?${query}`, asAdmin());
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });
});

describe('GET and DELETE /v3/:project_id/kb/:content_id', () => {
  it('answers one content', async () => {
    const namespace = await newNamespace();
    const value = await addText(namespace, 'One content.');
    const res = await t.get(kb(`/${value._id}`), asAdmin());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: value._id, id: value._id, content: 'One content.', type: 'text' });
  });

  it('answers 404 for an unknown content and for another project\'s content', async () => {
    expect((await t.get(kb('/nope'), asAdmin())).status).toBe(404);
    const other = await t.seedProject('Other');
    const theirs = await t.post(`/v3/${other.projectId}/kb`, { token: other.admin.token, body: { type: 'text', content: 'Theirs.' } });
    expect((await t.get(kb(`/${theirs.body.value._id}`), asAdmin())).status).toBe(404);
    expect((await t.delete(kb(`/${theirs.body.value._id}`), asAdmin())).status).toBe(404);
  });

  it('deletes a content with its chunks and answers the deleted record', async () => {
    const namespace = await newNamespace();
    const value = await addText(namespace, 'Parcels to Iceland travel by boat.');
    await waitForStatus(t, p.projectId, p.admin.token, value._id, 300);
    expect((await ask(namespace, 'How do parcels reach Iceland?')).body.success).toBe(true);

    const res = await t.delete(kb(`/${value._id}`), asAdmin());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: value._id, content: 'Parcels to Iceland travel by boat.' });
    expect((await t.get(kb(`/${value._id}`), asAdmin())).status).toBe(404);
    const after = await ask(namespace, 'How do parcels reach Iceland?');
    expect(after.body).toMatchObject({ success: false, ids: [], content_chunks: null });
  });
});
