import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import {
  brotliBomb,
  deflateBomb,
  deflatedDocx,
  deflatedEntry,
  docxBomb,
  docxWith,
  gzipOf,
  incompleteHuffmanBomb,
  lzwRunBomb,
  makePdfWithContents,
  startSite,
  storedEntry,
  textOperatorsMiB,
  zlibOf,
  type FakeSite,
} from './helpers/kb-fixtures.js';

// Documents built to expand far past their size when read (decompression bombs). Each ends in
// status 400 with the reason, and the server answers /health within a second while it is read.

const megabyte = 1024 * 1024;

// Most documents go to an app that inflates a tenth of what is shipped (reading up to the limit
// is what a bomb costs), which also bounds what a fetched body inflates to; "the limits as
// shipped" checks the default.
const inflateLimit = 5 * megabyte;

/** An app with `overrides` and a seeded project, opened before the tests of the block it is made in. */
function appWith(overrides: Record<string, string>) {
  const opened = {} as { t: TestApp; p: SeededProject };
  beforeAll(async () => {
    opened.t = await createTestApp(overrides);
    opened.p = await opened.t.seedProject();
  });
  afterAll(() => opened.t.close());
  return opened;
}

let site: FakeSite;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site.close());
const main = appWith({ OUTBOUND_ALLOW_PRIVATE: 'true', KB_INFLATE_MAX_BYTES: String(inflateLimit) });

/** Polls the content until it ends (300 or 400), timing a /health request at every turn. */
async function outcome(app: TestApp, project: SeededProject, contentId: string) {
  const deadline = Date.now() + 60_000;
  let slowestHealthMs = 0;
  for (;;) {
    const started = performance.now();
    const health = await app.get('/health');
    slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
    expect(health.status).toBe(200);
    const content = await app.get(`/v3/${project.projectId}/kb/${contentId}`, { token: project.admin.token });
    if (content.body.status === 300 || content.body.status === 400) return { content: content.body, slowestHealthMs };
    if (Date.now() > deadline) throw new Error(`content ${contentId} still in status ${content.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Uploads a file as a content (multipart POST /v3/:project_id/kb) and waits for its outcome. */
async function uploaded(file: Buffer, filename: string, { t, p } = main) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)]), filename);
  const res = await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: form });
  expect(res.status).toBe(200);
  return outcome(t, p, res.body.value._id);
}

async function fetched(path: string, type = 'url', { t, p } = main) {
  const res = await t.post(`/v3/${p.projectId}/kb`, { token: p.admin.token, body: { type, source: `${site.url}${path}` } });
  expect(res.status).toBe(200);
  return outcome(t, p, res.body.value._id);
}

describe('the limits as shipped', () => {
  // 50 MiB decompressed per document, 10 MiB per fetched body.
  const shipped = appWith({ OUTBOUND_ALLOW_PRIVATE: 'true' });

  it('a 200 MB word/document.xml in a small upload ends in 400 at 50 MiB, the server answering /health within a second', async () => {
    const bomb = docxBomb(200);
    expect(bomb.length).toBeLessThan(megabyte);
    const { content, slowestHealthMs } = await uploaded(bomb, 'bomb.docx', shipped);
    expect(content.status).toBe(400);
    expect(content.error).toContain('decompresses to more than 52428800 bytes (stopped in word/document.xml)');
    expect(slowestHealthMs).toBeLessThan(1000);
  });

  it('a small gzip body of a fetched url inflating to gigabytes ends in 400 at 10 MiB', async () => {
    site.serve('/shipped-gzip', { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: gzipOf(deflateBomb(Buffer.alloc(megabyte), 2048)) });
    const { content } = await fetched('/shipped-gzip', 'url', shipped);
    expect(content.status).toBe(400);
    expect(content.error).toContain('the gzip body decompresses to more than 10485760 bytes');
  });

  it('a small gzip body inflating to megabytes of HTML within the limit is parsed off the event loop, /health answering within a second', async () => {
    // Mostly markup: parsing it takes seconds, and the text it leaves is stored quickly.
    const row = '<div><span>x</span> <span>y</span></div>';
    const unit = Buffer.from(row.repeat(Math.floor(megabyte / row.length)));
    const page = deflateBomb(unit, 4, Buffer.from('<html><body><main><p>A dull table follows.</p>'), Buffer.from('</main></body></html>'));
    site.serve('/dull.html', { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: gzipOf(page, true) });
    const { content, slowestHealthMs } = await fetched('/dull.html', 'url', shipped);
    expect(content.status).toBe(300);
    expect(slowestHealthMs).toBeLessThan(1000);
  });
});

describe('DOCX archives', () => {
  it('a 200 MB word/document.xml in a small upload ends in 400, the server answering /health within a second', async () => {
    const bomb = docxBomb(200);
    const { content, slowestHealthMs } = await uploaded(bomb, 'bomb.docx');
    expect(content.status).toBe(400);
    expect(content.error).toContain(`decompresses to more than ${inflateLimit} bytes (stopped in word/document.xml)`);
    expect(slowestHealthMs).toBeLessThan(1000);
  });

  it('are measured by what they inflate to, not by the sizes they declare', async () => {
    const { content } = await uploaded(docxBomb(200, 4096), 'liar.docx');
    expect(content.status).toBe(400);
    expect(content.error).toContain(`decompresses to more than ${inflateLimit} bytes`);
  });

  it('with more than 10,000 entries end in 400 before any is read', async () => {
    const padding = Array.from({ length: 10_001 }, (_, i) => storedEntry(`customXml/item${i}.xml`, '<a/>'));
    const docx = docxWith(deflatedEntry('word/document.xml', Buffer.from('<w:document/>')), padding);
    const { content } = await uploaded(docx, 'crowded.docx');
    expect(content.status).toBe(400);
    expect(content.error).toMatch(/more than 10000 entries/);
  });

  it('fetched from a url are held to the same limit', async () => {
    site.serve('/bomb.docx', { headers: { 'content-type': 'application/octet-stream' }, body: docxBomb(200) });
    const { content } = await fetched('/bomb.docx', 'docx');
    expect(content.status).toBe(400);
    expect(content.error).toContain(`decompresses to more than ${inflateLimit} bytes`);
  });

  it('still read when they stay within the limit', async () => {
    const { content } = await uploaded(deflatedDocx(['The kettle switches itself off.']), 'kettle.docx');
    expect(content.status).toBe(300);
  });
});

describe('PDF streams', () => {
  const flate = (megabytes: number) => zlibOf(deflateBomb(textOperatorsMiB, megabytes));

  it('a page stream inflating to 200 MB ends in 400, the server answering /health within a second', async () => {
    const pdf = makePdfWithContents(flate(200), '/Filter /FlateDecode');
    expect(pdf.length).toBeLessThan(megabyte);
    const { content, slowestHealthMs } = await uploaded(pdf, 'bomb.pdf');
    expect(content.status).toBe(400);
    expect(content.error).toContain(`the PDF decompresses to more than ${inflateLimit} bytes`);
    expect(slowestHealthMs).toBeLessThan(1000);
  });

  it('compressed twice are counted through both layers', async () => {
    const twice = zlib.deflateSync(flate(200));
    expect(twice.length).toBeLessThan(64 * 1024);
    const { content } = await uploaded(makePdfWithContents(twice, '/Filter [/FlateDecode /Fl]'), 'twice.pdf');
    expect(content.status).toBe(400);
    expect(content.error).toMatch(/decompresses to more than/);
  });

  it('referring back before their own start (zlib refuses that, PDF.js reads zeros) are still counted', async () => {
    const zeros = Buffer.alloc(megabyte);
    const outOfWindow = zlib.deflateRawSync(zeros, { dictionary: zeros.subarray(0, 32 * 1024), finishFlush: zlib.constants.Z_FULL_FLUSH });
    const stream = Buffer.concat([Buffer.from([0x78, 0xda]), outOfWindow, deflateBomb(zeros, 200).deflated, Buffer.alloc(4)]);
    const { content } = await uploaded(makePdfWithContents(stream, '/Filter /FlateDecode'), 'backwards.pdf');
    expect(content.status).toBe(400);
    expect(content.error).toMatch(/decompresses to more than/);
  });

  it('that zlib finds corrupt but PDF.js would inflate (an incomplete Huffman code) end in 400 unread', async () => {
    const pdf = makePdfWithContents(incompleteHuffmanBomb(800_000), '/Filter /FlateDecode');
    const { content } = await uploaded(pdf, 'incomplete.pdf');
    expect(content.status).toBe(400);
    expect(content.error).toMatch(/the PDF has a corrupt compressed stream \(invalid literal\/lengths set\) whose size cannot be checked/);
  });

  it('compressed with LZW are counted too', async () => {
    const { content } = await uploaded(makePdfWithContents(lzwRunBomb(60_000), '/Filter /LZWDecode'), 'lzw.pdf');
    expect(content.status).toBe(400);
    expect(content.error).toMatch(/decompresses to more than/);
  });

  it('named under an indirect or escaped filter are counted too', async () => {
    const pdf = makePdfWithContents(flate(200), '/Fil#74er 6 0 R', ['/Fl#61teDecode']);
    const { content } = await uploaded(pdf, 'escaped.pdf');
    expect(content.status).toBe(400);
    expect(content.error).toMatch(/decompresses to more than/);
  });

  it('marked as an image but used as page contents are counted', async () => {
    const pdf = makePdfWithContents(flate(200), '/Subtype /Image /Filter /FlateDecode');
    const { content } = await uploaded(pdf, 'disguised.pdf');
    expect(content.status).toBe(400);
    expect(content.error).toMatch(/decompresses to more than/);
  });

  it('in an encrypted PDF cannot be checked, so the PDF ends in 400 unread', async () => {
    const pdf = makePdfWithContents(flate(1), '/Filter /FlateDecode', ['<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>'], '/Encrypt 6 0 R /ID [<01> <01>]');
    const { content } = await uploaded(pdf, 'locked.pdf');
    expect(content.status).toBe(400);
    expect(content.error).toMatch(/encrypted PDFs are not read/);
  });

  it('are still read when they stay within the limit', async () => {
    const stream = zlib.deflateSync('BT /F1 12 Tf 72 720 Td (The toaster has four slots.) Tj ET');
    const { content } = await uploaded(makePdfWithContents(stream, '/Filter /FlateDecode'), 'toaster.pdf');
    expect(content.status).toBe(300);
  });
});

describe('HTTP content encodings of fetched urls', () => {
  it.each([
    ['gzip', async () => gzipOf(deflateBomb(Buffer.alloc(megabyte), 2048))],
    ['deflate', async () => zlibOf(deflateBomb(Buffer.alloc(megabyte), 2048))],
    ['br', () => brotliBomb(1024)],
  ])('a small %s body inflating to gigabytes ends in 400, the server answering /health within a second', async (encoding, body) => {
    const path = `/encoded-${encoding}`;
    site.serve(path, { headers: { 'content-type': 'text/html', 'content-encoding': encoding }, body: await body() });
    const { content, slowestHealthMs } = await fetched(path);
    expect(content.status).toBe(400);
    expect(content.error).toContain(`the ${encoding} body decompresses to more than ${inflateLimit} bytes`);
    expect(slowestHealthMs).toBeLessThan(1000);
  });
});

describe('gzipped sitemaps', () => {
  it('one inflating to gigabytes is reported in errors, the others still listed, /health answering within a second', async () => {
    site.serve('/sitemap-ok.xml', { headers: { 'content-type': 'application/xml' }, body: `<urlset><url><loc>${site.url}/listed</loc></url></urlset>` });
    site.serve('/sitemap-bomb.xml.gz', { headers: { 'content-type': 'application/gzip' }, body: gzipOf(deflateBomb(Buffer.alloc(megabyte), 2048)) });
    site.serve('/sitemap-index.xml', {
      headers: { 'content-type': 'application/xml' },
      body: `<sitemapindex><sitemap><loc>${site.url}/sitemap-ok.xml</loc></sitemap><sitemap><loc>${site.url}/sitemap-bomb.xml.gz</loc></sitemap></sitemapindex>`,
    });
    const { t, p } = main;
    let answered = false;
    const call = t.post(`/v3/${p.projectId}/kb/sitemap`, { token: p.admin.token, body: { sitemap: `${site.url}/sitemap-index.xml` } });
    void call.finally(() => (answered = true));
    let slowestHealthMs = 0;
    while (!answered) {
      const started = performance.now();
      expect((await t.get('/health')).status).toBe(200);
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
    }
    const res = await call;
    expect(res.status).toBe(200);
    expect(res.body.sites).toEqual([`${site.url}/listed`]);
    expect(res.body.errors).toEqual([{ url: `${site.url}/sitemap-bomb.xml.gz`, message: `the gzipped sitemap decompresses to more than ${inflateLimit} bytes` }]);
    expect(slowestHealthMs).toBeLessThan(1000);
  });
});

describe('reading in worker threads', () => {
  const limited = appWith({ KB_EXTRACT_MAX_MEMORY_MB: '128' });

  it('a document needing more memory than KB_EXTRACT_MAX_MEMORY_MB ends in 400, the server answering /health within a second', async () => {
    // 30 MiB of paragraphs stays within the decompression limit, but mammoth needs gigabytes for it.
    const { content, slowestHealthMs } = await uploaded(docxBomb(30), 'heavy.docx', limited);
    expect(content.status).toBe(400);
    expect(content.error).toMatch(/needs more than 128 MB of memory to read/);
    expect(slowestHealthMs).toBeLessThan(1000);
  });
});

describe('a document not read within KB_EXTRACT_TIMEOUT_MS', () => {
  const slow = appWith({ KB_EXTRACT_TIMEOUT_MS: '300' });

  it('ends in 400 naming the deadline', async () => {
    // 16 MiB of text operators: within the decompression limit, seconds of PDF.js.
    const pdf = makePdfWithContents(zlibOf(deflateBomb(textOperatorsMiB, 16)), '/Filter /FlateDecode');
    const { content } = await uploaded(pdf, 'slow.pdf', slow);
    expect(content.status).toBe(400);
    expect(content.error).toMatch(/could not be read within 300 ms/);
  });
});
