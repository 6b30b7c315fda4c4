import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';
import { html, startSite, waitForStatus, type FakeSite } from './helpers/kb-fixtures.js';

// Outbound safety of url contents and sitemaps. Private addresses are refused (the default);
// only 127.0.0.1 itself is exempted (OUTBOUND_ALLOWED_HOSTS), so the test site can start redirect chains.

let t: TestApp;
let p: SeededProject;
let site: FakeSite;
let port: string;
beforeAll(async () => {
  site = await startSite();
  port = new URL(site.url).port;
  t = await createTestApp({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  p = await t.seedProject();
});
afterAll(async () => {
  await t.close();
  await site.close();
});

const kb = (suffix = '') => `/v3/${p.projectId}/kb${suffix}`;
const asAdmin = (body?: unknown) => ({ token: p.admin.token, body });

async function failedWith(source: string, type = 'url') {
  const res = await t.post(kb(), asAdmin({ type, source }));
  expect(res.status).toBe(200);
  return waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 400);
}

describe('url contents pointing at non-public addresses', () => {
  it.each([
    ['loopback by name', () => `http://localhost:${port}/secret`],
    ['IPv6 loopback', () => `http://[::1]:${port}/secret`],
    ['the cloud metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private network address', () => 'http://10.0.0.1/admin'],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:7f00:1]:${port}/secret`],
  ])('end in status 400, refused, for %s', async (_what, source) => {
    const failed = await failedWith(source());
    expect(failed.error).toMatch(/refused: .*non-public address/);
    expect(site.hits('/secret')).toBe(0);
  });

  it('refuse a redirect from an allowed page to a private address, without requesting it', async () => {
    site.serve('/hop', { status: 302, headers: { location: `http://localhost:${port}/secret` } });
    const failed = await failedWith(`${site.url}/hop`);
    expect(failed.error).toMatch(/localhost.*refused/);
    expect(site.hits('/hop')).toBe(1);
    expect(site.hits('/secret')).toBe(0);
  });

  it('refuse the same way for pdf and docx sources', async () => {
    const failed = await failedWith(`http://localhost:${port}/secret.pdf`, 'pdf');
    expect(failed.error).toMatch(/refused/);
  });

  it('stop after five redirects', async () => {
    for (let i = 0; i < 7; i++) site.serve(`/loop-${i}`, { status: 302, headers: { location: `/loop-${i + 1}` } });
    const failed = await failedWith(`${site.url}/loop-0`);
    expect(failed.error).toMatch(/more than 5 redirects/);
    expect(site.hits('/loop-6')).toBe(0);
  });

  it('still index an allowed page', async () => {
    site.serve('/public', { body: html('Public', '<p>Allowed page.</p>') });
    const res = await t.post(kb(), asAdmin({ type: 'url', source: `${site.url}/public` }));
    await waitForStatus(t, p.projectId, p.admin.token, res.body.value._id, 300);
  });
});

describe('sitemaps at non-public addresses', () => {
  it('answer 400 naming the sitemap, without requesting it', async () => {
    const res = await t.post(kb('/sitemap'), asAdmin({ sitemap: `http://localhost:${port}/sitemap.xml` }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'sitemap' });
    expect(res.body.message).toMatch(/refused/);
    expect(site.hits('/sitemap.xml')).toBe(0);
  });

  it('report a sitemap of an index that points at a private address, without requesting it', async () => {
    site.serve('/index.xml', {
      headers: { 'content-type': 'application/xml' },
      body: `<sitemapindex><sitemap><loc>http://localhost:${port}/inner.xml</loc></sitemap></sitemapindex>`,
    });
    const res = await t.post(kb('/sitemap'), asAdmin({ sitemap: `${site.url}/index.xml` }));
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([{ url: `http://localhost:${port}/inner.xml`, message: expect.stringMatching(/refused/) }]);
    expect(site.hits('/inner.xml')).toBe(0);
  });
});
