import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { startSite, type FakeSite } from './helpers/kb-fixtures.js';

// POST /v3/:project_id/kb/sitemap against sitemaps that never answer and indexes that never end:
// one deadline for the whole call, a cap on the sitemap documents fetched, and an answer with what
// was gathered plus `errors` naming what was cut short.

const deadlineMs = 1500;
const maxDocuments = 10;

let t: TestApp;
let p: SeededProject;
let site: FakeSite;
beforeAll(async () => {
  site = await startSite();
  t = await createTestApp({
    OUTBOUND_ALLOW_PRIVATE: 'true',
    // Longer than the whole call: only the call's deadline can cut these fetches short.
    KB_FETCH_TIMEOUT_MS: '60000',
    KB_SITEMAP_TIMEOUT_MS: String(deadlineMs),
    KB_SITEMAP_MAX_DOCUMENTS: String(maxDocuments),
  });
  p = await t.seedProject();
});
afterAll(async () => {
  await t.close();
  await site.close();
});

const xml = { 'content-type': 'application/xml' };
const index = (paths: string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((path) => `<sitemap><loc>${site.url}${path}</loc></sitemap>`).join('')}</sitemapindex>`;
const urlset = (paths: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((path) => `<url><loc>${site.url}${path}</loc></url>`).join('')}</urlset>`;

function sitemap(body: unknown) {
  return t.post(`/v3/${p.projectId}/kb/sitemap`, { token: p.admin.token, body });
}

describe('one deadline for the whole call (KB_SITEMAP_TIMEOUT_MS)', () => {
  it('answers by the deadline when the sitemaps of an index never answer, with what was gathered and the ones cut short', async () => {
    const hanging = Array.from({ length: 8 }, (_, i) => `/hang-${i}.xml`);
    for (const path of hanging) site.serve(path, { hang: true });
    site.serve('/answers.xml', { headers: xml, body: urlset(['/gathered']) });
    site.serve('/slow-index.xml', { headers: xml, body: index(['/answers.xml', ...hanging]) });

    const started = Date.now();
    const res = await sitemap({ sitemap: `${site.url}/slow-index.xml` });
    const elapsed = Date.now() - started;

    expect(res.status).toBe(200);
    expect(elapsed).toBeLessThan(deadlineMs + 1000);
    expect(res.body.url).toBe(`${site.url}/slow-index.xml`);
    expect(res.body.sites).toEqual([`${site.url}/gathered`]);
    expect(res.body.errors).toEqual(
      hanging.map((path) => ({ url: `${site.url}${path}`, message: `not read: the call's ${deadlineMs} ms deadline passed` })),
    );
  });

  it('answers by the deadline when the sitemap named never answers', async () => {
    site.serve('/hang.xml', { hang: true });
    const started = Date.now();
    const res = await sitemap({ sitemap: `${site.url}/hang.xml` });
    expect(Date.now() - started).toBeLessThan(deadlineMs + 1000);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: `${site.url}/hang.xml`,
      sites: [],
      errors: [{ url: `${site.url}/hang.xml`, message: `not read: the call's ${deadlineMs} ms deadline passed` }],
    });
  });
});

describe('a cap on the sitemap documents fetched (KB_SITEMAP_MAX_DOCUMENTS)', () => {
  it('reads a deep and wide index level by level up to the cap and names the sitemaps not read', async () => {
    // An index of 6 indexes of 6 sitemaps each: 43 documents.
    const children = [1, 2, 3, 4, 5, 6].map((i) => `/deep-${i}.xml`);
    site.serve('/deep.xml', { headers: xml, body: index(children) });
    const leaves: string[] = [];
    for (const [i, child] of children.entries()) {
      const own = [1, 2, 3, 4, 5, 6].map((j) => `/deep-${i + 1}-${j}.xml`);
      site.serve(child, { headers: xml, body: index(own) });
      for (const leaf of own) site.serve(leaf, { headers: xml, body: urlset([`/page${leaf.replace('.xml', '')}`]) });
      leaves.push(...own);
    }

    const res = await sitemap({ sitemap: `${site.url}/deep.xml` });

    expect(res.status).toBe(200);
    const fetched = ['/deep.xml', ...children, ...leaves].filter((path) => site.hits(path) > 0);
    expect(fetched).toEqual(['/deep.xml', ...children, ...leaves.slice(0, 3)]);
    expect(res.body.sites).toEqual(leaves.slice(0, 3).map((leaf) => `${site.url}/page${leaf.replace('.xml', '')}`));
    expect(res.body.errors).toEqual(
      leaves.slice(3).map((leaf) => ({ url: `${site.url}${leaf}`, message: `not read: only ${maxDocuments} sitemap documents are fetched per call` })),
    );
  });

  it('names the first 100 sitemaps not read and counts the rest', async () => {
    const many = Array.from({ length: 300 }, (_, i) => `/wide-${i}.xml`);
    site.serve('/wide.xml', { headers: xml, body: index(many) });
    for (const path of many) site.serve(path, { headers: xml, body: urlset([`/page${path.replace('.xml', '')}`]) });

    const res = await sitemap({ sitemap: `${site.url}/wide.xml` });

    expect(res.status).toBe(200);
    expect(res.body.sites).toHaveLength(maxDocuments - 1);
    expect(res.body.errors).toHaveLength(101);
    expect(res.body.errors[0]).toEqual({ url: `${site.url}/wide-${maxDocuments - 1}.xml`, message: expect.stringMatching(/^not read: only 10 /) });
    expect(res.body.errors[100]).toEqual({ url: `${site.url}/wide.xml`, message: `191 more sitemaps not read: only ${maxDocuments} sitemap documents are fetched per call` });
  });
});
