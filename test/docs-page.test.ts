import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.js';
import { blockExternal, launchBrowser } from './helpers/browser.js';

// The documentation page at /v3/docs in real headless Chromium, with every request that is not
// to this server aborted: it renders from the server's own assets, and "Try it out" calls the API.

describe('the docs page at /v3/docs', () => {
  let app: TestApp;
  let browser: Browser;
  let projectId: string;

  beforeAll(async () => {
    [app, browser] = await Promise.all([createTestApp(), launchBrowser()]);
    const owner = await app.newUser('owner');
    projectId = (await app.post('/v3/projects', { token: owner.token, body: { name: 'Docs project' } })).body._id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('serves its scripts and styles itself', async () => {
    const page = await app.get('/v3/docs');
    expect(page.status).toBe(200);
    const sources = [...String(page.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source.startsWith('/v3/docs/')).toBe(true);
      expect((await fetch(`${app.baseUrl}${source}`)).status, source).toBe(200);
    }
  });

  it('renders offline and a "Try it out" call succeeds', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const { blocked } = await blockExternal(page);
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    try {
      // Deep link: the page opens with this operation expanded.
      await page.goto(`${app.baseUrl}/v3/docs#/Projects/widgetSettings`);
      const title = page.locator('.swagger-ui .info .title');
      await title.waitFor({ timeout: 60_000 });
      expect(await title.textContent()).toContain('Support platform REST API');

      const operation = page.locator('#operations-Projects-widgetSettings');
      await operation.getByRole('button', { name: 'Try it out' }).click({ timeout: 60_000 });
      await operation.locator('tr[data-param-name="project_id"] input').fill(projectId);
      const answered = page.waitForResponse((r) => r.url() === `${app.baseUrl}/v3/${projectId}/widgets`);
      await operation.getByRole('button', { name: 'Execute' }).click();
      expect((await answered).status()).toBe(200);
      await expect
        .poll(() => operation.locator('.live-responses-table tbody .response-col_status').first().textContent(), { timeout: 10_000 })
        .toContain('200');

      expect(blocked).toEqual([]);
      expect(failed).toEqual([]);
    } finally {
      await context.close();
    }
  }, 150_000);
});
