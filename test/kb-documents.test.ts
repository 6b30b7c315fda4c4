import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { html, makeDocx, makePdf, startSite, waitForStatus, type FakeSite } from './helpers/kb-fixtures.js';

let t: TestApp;
let p: SeededProject;
let site: FakeSite;
let namespace: string;
beforeAll(async () => {
  site = await startSite();
  t = await createTestApp({
    OUTBOUND_ALLOW_PRIVATE: 'true',
    KB_CHUNK_SIZE: '300',
    KB_CHUNK_OVERLAP: '50',
    KB_FETCH_MAX_BYTES: '200000',
    KB_FETCH_TIMEOUT_MS: '1000',
  });
  p = await t.seedProject();
  namespace = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Docs' } })).body.id;
});
afterAll(async () => {
  await t.close();
  await site.close();
});

const kb = (suffix = '') => `/v3/${p.projectId}/kb${suffix}`;
const asAdmin = (body?: unknown) => ({ token: p.admin.token, body });
const ask = (question: string, ns = namespace) => t.post(kb('/qa'), asAdmin({ namespace: ns, question }));

async function index(body: Record<string, unknown>, status = 300) {
  const res = await t.post(kb(), asAdmin({ namespace, ...body }));
  expect(res.status).toBe(200);
  return waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, status);
}

const bytes = (data: Buffer, type = '') => new Blob([new Uint8Array(data)], { type });

function upload(file: Blob, filename: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', file, filename);
  return t.post(kb(), { token: p.admin.token, body: form });
}

describe('url contents', () => {
  it('index the readable text of a page, without scripts, styles and navigation', async () => {
    site.serve(
      '/warranty',
      {
        body: html(
          'Warranty',
          '<header><a href="/">Home</a> <a href="/shop">Zebrashop navigation</a></header>' +
            '<nav><ul><li>Zebramenu item</li></ul></nav>' +
            '<main><h1>Warranty terms</h1><p>Every blender carries a warranty of <b>two years</b>.</p>' +
            '<script>var zebrascript = "warranty";</script><p>Keep the receipt.</p></main>' +
            '<footer>Zebrafooter warranty copyright</footer>',
        ),
      },
    );
    const content = await index({ type: 'url', source: `${site.url}/warranty` });
    expect(content.content).toBe('');
    const answer = await ask('How long is the warranty on a blender?');
    expect(answer.body.success).toBe(true);
    expect(answer.body.answer).toMatch(/two years/);
    expect(answer.body.content_chunks.join('\n')).toMatch(/Warranty terms\n+Every blender carries a warranty of two years\.\n+Keep the receipt\./);
    expect(answer.body.content_chunks.join('\n')).not.toMatch(/zebra/i);
    expect((await ask('zebrascript zebramenu zebrafooter zebrashop')).body.success).toBe(false);
  });

  it('follow redirects to the page', async () => {
    site.serve('/old-location', { status: 301, headers: { location: '/new-location' } });
    site.serve('/new-location', { body: html('Moved', '<p>The returns desk moved to the second floor.</p>') });
    await index({ type: 'url', source: `${site.url}/old-location` });
    expect((await ask('Where is the returns desk?')).body.answer).toMatch(/second floor/);
  });

  it('read a PDF the url answers with', async () => {
    site.serve('/leaflet', { headers: { 'content-type': 'application/pdf' }, body: makePdf(['Leaflet: the kettle boils in ninety seconds.']) });
    await index({ type: 'url', source: `${site.url}/leaflet` });
    expect((await ask('How fast does the kettle boil?')).body.answer).toMatch(/ninety seconds/);
  });

  it('end in status 400 for a page larger than KB_FETCH_MAX_BYTES', async () => {
    site.serve('/huge', { body: html('Huge', `<p>${'word '.repeat(60_000)}</p>`) });
    const failed = await index({ type: 'url', source: `${site.url}/huge` }, 400);
    expect(failed.error).toMatch(/larger than the 200000-byte limit/);
  });

  it('end in status 400 after retries when the page answers slower than KB_FETCH_TIMEOUT_MS', async () => {
    const impatient = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true', KB_FETCH_TIMEOUT_MS: '300' });
    try {
      const q = await impatient.seedProject();
      site.serve('/slow', { delayMs: 1000, body: html('Slow', '<p>Too late.</p>') });
      const res = await impatient.post(`/v3/${q.projectId}/kb`, { token: q.admin.token, body: { type: 'url', source: `${site.url}/slow` } });
      const failed = await waitForStatus(impatient, q.projectId, q.admin.token, res.body.value._id, 400);
      expect(failed.error).toMatch(/no answer within 300 ms/);
      expect(site.hits('/slow')).toBe(3);
    } finally {
      await impatient.close();
    }
  });

  it('end in status 400 for a document type that has no text', async () => {
    site.serve('/logo', { headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
    const failed = await index({ type: 'url', source: `${site.url}/logo` }, 400);
    expect(failed.error).toMatch(/unsupported document type image\/png/);
  });
});

describe('pdf and docx contents', () => {
  it('index a PDF from its url', async () => {
    site.serve('/manual.pdf', { headers: { 'content-type': 'application/octet-stream' }, body: makePdf(['Manual: descale the espresso machine monthly.']) });
    await index({ type: 'pdf', source: `${site.url}/manual.pdf` });
    expect((await ask('How often should the espresso machine be descaled?')).body.answer).toMatch(/monthly/);
  });

  it('index a DOCX from its url', async () => {
    site.serve('/policy.docx', { headers: { 'content-type': 'application/octet-stream' }, body: await makeDocx(['Shipping policy', 'Orders over fifty euros ship for free.']) });
    await index({ type: 'docx', source: `${site.url}/policy.docx` });
    expect((await ask('When is shipping free?')).body.answer).toMatch(/fifty euros/);
  });

  it('end in status 400 when the PDF is not readable', async () => {
    site.serve('/broken.pdf', { body: '%PDF-1.4 this is not really a pdf' });
    const failed = await index({ type: 'pdf', source: `${site.url}/broken.pdf` }, 400);
    expect(failed.error).toMatch(/not a readable PDF/);
  });
});

describe('uploaded documents (multipart POST /v3/:project_id/kb)', () => {
  it('index an uploaded PDF, named and sourced after the file', async () => {
    const res = await upload(bytes(makePdf(['Upload: the toaster has four slots.']), 'application/pdf'), 'toaster.pdf', { namespace });
    expect(res.status).toBe(200);
    expect(res.body.lastErrorObject).toEqual({ n: 1, updatedExisting: false, upserted: res.body.value._id });
    expect(res.body.value).toMatchObject({ type: 'pdf', source: 'toaster.pdf', name: 'toaster.pdf', status: -1, namespace, __v: expect.any(Number) });
    await waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 300);
    expect((await ask('How many slots does the toaster have?')).body.answer).toMatch(/four slots/);
  });

  it('index an uploaded DOCX and replace it when a file of the same name is uploaded again', async () => {
    const first = await upload(bytes(await makeDocx(['The fridge hums at night.'])), 'fridge.docx', { namespace, name: 'Fridge notes' });
    expect(first.body.value).toMatchObject({ type: 'docx', name: 'Fridge notes' });
    await waitForStatus(t, p.projectId, p.admin.token, first.body.value._id, 300);
    const second = await upload(bytes(await makeDocx(['The fridge is silent since the update.'])), 'fridge.docx', { namespace });
    expect(second.body.lastErrorObject).toEqual({ n: 1, updatedExisting: true, upserted: null });
    expect(second.body.value._id).toBe(first.body.value._id);
    await waitForStatus(t, p.projectId, p.admin.token, first.body.value._id, 300);
    const answer = await ask('Is the fridge silent?');
    expect(answer.body.answer).toMatch(/silent since the update/);
    expect(answer.body.content_chunks.join(' ')).not.toMatch(/hums/);
  });

  it('answers 400 for a file that is not what its name says', async () => {
    const res = await upload(new Blob(['just text']), 'fake.pdf', { namespace });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'file' });
  });

  it('answers 400 without a file', async () => {
    const form = new FormData();
    form.set('namespace', namespace);
    const res = await t.post(kb(), { token: p.admin.token, body: form });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('file');
  });

  it('answers 413 for a file larger than KB_FETCH_MAX_BYTES', async () => {
    const res = await upload(bytes(Buffer.concat([makePdf(['x']), Buffer.alloc(300_000)])), 'big.pdf', { namespace });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 403 to an agent', async () => {
    const form = new FormData();
    form.set('file', bytes(makePdf(['x'])), 'x.pdf');
    expect((await t.post(kb(), { token: p.agent.token, body: form })).status).toBe(403);
  });
});

describe('chunking', () => {
  it('splits long texts into chunks of at most KB_CHUNK_SIZE characters', async () => {
    const ns = (await t.post(kb('/namespace'), asAdmin({ name: 'Chunks' }))).body.id;
    const sentences = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} talks about the lighthouse keeper.`);
    const res = await t.post(kb(), asAdmin({ namespace: ns, type: 'text', content: sentences.join(' ') }));
    await waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 300);
    const answer = await t.post(kb('/qa'), asAdmin({ namespace: ns, question: 'What does sentence number 29 talk about?' }));
    expect(answer.body.answer).toMatch(/Sentence number 29 talks about the lighthouse keeper/);
    const [chunk] = answer.body.content_chunks;
    expect(chunk.length).toBeLessThanOrEqual(300);
    expect(chunk).not.toMatch(/number 0 /);
  });
});

describe('POST /v3/:project_id/kb/sitemap', () => {
  it('lists the urls of a sitemap without storing anything', async () => {
    site.serve('/sitemap.xml', {
      headers: { 'content-type': 'application/xml' },
      body:
        '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        `<url><loc>${site.url}/a</loc><lastmod>2024-01-01</lastmod></url><url><loc> ${site.url}/b?x=1&amp;y=2 </loc></url></urlset>`,
    });
    const before = await t.get(`${kb()}?namespace=${namespace}`, asAdmin());
    const res = await t.post(kb('/sitemap'), asAdmin({ sitemap: `${site.url}/sitemap.xml` }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: `${site.url}/sitemap.xml`, sites: [`${site.url}/a`, `${site.url}/b?x=1&y=2`], errors: [] });
    const after = await t.get(`${kb()}?namespace=${namespace}`, asAdmin());
    expect(after.body.count).toBe(before.body.count);
  });

  it('follows a sitemap index to its sitemaps and reports the ones that fail', async () => {
    site.serve('/index.xml', {
      headers: { 'content-type': 'application/xml' },
      body:
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        `<sitemap><loc>${site.url}/part-1.xml</loc></sitemap><sitemap><loc>${site.url}/part-missing.xml</loc></sitemap></sitemapindex>`,
    });
    site.serve('/part-1.xml', {
      headers: { 'content-type': 'text/xml' },
      body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url}/c</loc></url></urlset>`,
    });
    const res = await t.post(kb('/sitemap'), asAdmin({ sitemap: `${site.url}/index.xml` }));
    expect(res.body.sites).toEqual([`${site.url}/c`]);
    expect(res.body.errors).toEqual([{ url: `${site.url}/part-missing.xml`, message: expect.stringMatching(/answered 404/) }]);
  });

  it('reports a document that is not a sitemap', async () => {
    site.serve('/not-a-sitemap.xml', { headers: { 'content-type': 'application/xml' }, body: '<rss><channel/></rss>' });
    const res = await t.post(kb('/sitemap'), asAdmin({ sitemap: `${site.url}/not-a-sitemap.xml` }));
    expect(res.status).toBe(200);
    expect(res.body.sites).toEqual([]);
    expect(res.body.errors[0].message).toMatch(/not a sitemap/);
  });

  it('answers 400 without a sitemap url', async () => {
    const res = await t.post(kb('/sitemap'), asAdmin({ sitemap: 'file:///etc/passwd' }));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('sitemap');
  });
});
