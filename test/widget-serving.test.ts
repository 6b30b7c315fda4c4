import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestApp } from './helpers/app.js';

// The browser clients come from the server itself (bundled in-process by esbuild on first use):
// pages, scripts and styles, with nothing to fetch elsewhere.

let t: TestApp;
beforeAll(async () => {
  t = (await createTestServer()).client;
});
afterAll(() => t?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.baseUrl}${path}`, { headers });

describe('browser clients served by the server', () => {
  it('serves /widget.js as a script with an ETag, and 304 when the client has it', async () => {
    const res = await get('/widget.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await res.text()).length).toBeGreaterThan(10_000);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/widget.js', { 'if-none-match': etag });
    expect(again.status).toBe(304);
  }, 60_000);

  it('serves the console page, its script and its styles', async () => {
    const page = await get('/console');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<script src="/console/app.js" defer></script>');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const script = await get('/console/app.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    const css = await get('/console/app.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('.workspace');
  }, 60_000);

  it('embeds the widget of the project named in the demo page address, escaped', async () => {
    const res = await get('/widget/demo?project_id=abc%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-project-id="abc&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"');
    expect(html).not.toContain('<script>alert(1)</script>');
  });

  it('tells how to use the demo page when the address has no project id', async () => {
    const html = await (await get('/widget/demo')).text();
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('/widget.js" data-project-id');
  });

  it.each([
    '/console/invitations/inv123?token=abc',
    '/console/verify-email?token=abc',
    '/console/reset-password?token=abc',
    '/console/forgot-password',
    '/console/projects/p1/conversations/support-group-1',
  ])('serves the console page at %s, where the server\'s e-mails link', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<script src="/console/app.js" defer></script>');
  });

  it.each([
    '/invitations/inv123?token=abc',
    '/verify-email?token=abc',
    '/reset-password?token=abc',
    '/forgot-password',
    '/dashboard/',
    '/dashboard',
  ])('serves the console page at the older e-mails\' address %s, query string and all', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    // Served where it was asked for (no redirect): the page reads the address, token included.
    expect(res.redirected).toBe(false);
    expect(res.url).toBe(`${t.baseUrl}${path}`);
    expect(await res.text()).toContain('<script src="/console/app.js" defer></script>');
  });

  it('serves no page for paths beside the older ones', async () => {
    expect((await get('/invitations/inv123/accept')).status).toBe(404);
    expect((await get('/verify-emails')).status).toBe(404);
  });

  it('leaves other methods on these paths to the API (no page for a POST)', async () => {
    const res = await fetch(`${t.baseUrl}/console`, { method: 'POST' });
    expect(res.status).not.toBe(200);
  });
});
