import { mkdirSync } from 'node:fs';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from '../helpers/app.js';
import { launchBrowser, watchPage, type WatchedPage } from '../helpers/browser.js';
import { onlyAvailable } from '../helpers/conversations.js';

// The agent workspace as an agent used to Chatwoot expects it, in real headless Chromium, each
// scenario asserting what a person sees: typing both ways, ticks that turn to seen, attachments
// both ways, notifications in a hidden tab, keyboard navigation and canned responses from "/".
// Every page fails its scenario on a console error, an uncaught error or a failed request.

let t: TestApp;
let p: SeededProject;
let browser: Browser;
const artifacts = new URL('../artifacts/', import.meta.url).pathname;

interface Watched extends WatchedPage {
  context: BrowserContext;
}

async function open(
  viewport = { width: 1280, height: 860 },
  init?: (context: BrowserContext) => Promise<void>,
  options: { userAgent?: string; extraHTTPHeaders?: Record<string, string> } = {},
): Promise<Watched> {
  const context = await browser.newContext({ viewport, ...options });
  await init?.(context);
  return Object.assign(await watchPage(await context.newPage()), { context });
}

/** The console signed in as the project's agent (the token goes in as the sign-in form would leave it). */
async function openConsole(path = `/console/projects/${p.projectId}`, init?: (context: BrowserContext) => Promise<void>, as: { token: string; userId: string } = p.agent) {
  const auth = JSON.stringify({ token: as.token, userId: as.userId, name: 'Agent' });
  const opened = await open(undefined, async (context) => {
    await context.addInitScript((value) => localStorage.setItem('support-console:auth', value), auth);
    await init?.(context);
  });
  await opened.page.goto(`${t.baseUrl}${path}`);
  return opened;
}

async function openWidget(options: { userAgent?: string; extraHTTPHeaders?: Record<string, string> } = {}) {
  const w = await open({ width: 420, height: 760 }, undefined, options);
  await w.page.goto(`${t.baseUrl}/widget/demo?project_id=${p.projectId}`);
  await w.page.getByRole('button', { name: 'Chat with us' }).click();
  await expect.poll(() => w.page.getByTestId('widget-user').innerText(), { timeout: 20_000 }).not.toBe('Signing in…');
  return w;
}

async function visitorSays(page: Page, text: string) {
  await page.getByLabel('Your message').fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

const requestIdOf = (widget: Page) => widget.evaluate((project) => JSON.parse(localStorage.getItem(`support-widget:${project}`)!).requestId as string, p.projectId);

/** A visitor with an open conversation, and the agent's console on it. */
async function conversation(first: string) {
  const visitor = await openWidget();
  await visitorSays(visitor.page, first);
  await expect.poll(() => visitor.page.getByTestId('widget-message').count()).toBe(1);
  const requestId = await requestIdOf(visitor.page);
  const agent = await openConsole(`/console/projects/${p.projectId}/conversations/${requestId}`);
  await agent.page.getByTestId('message').first().waitFor({ timeout: 10_000 });
  return { visitor, agent, requestId };
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  // Behind a trusted proxy on this machine: the widget's X-Forwarded-For names the visitor.
  // One agent's token drives a dozen consoles within a minute here (each conversation opened now
  // also reads its summary, suggestions and scheduled messages): past the 600 a minute a person
  // never reaches, so the file's budget is raised rather than its scenarios spread over minutes.
  t = (await createTestServer({ TRUST_PROXY: 'loopback', RATE_LIMIT_REQUESTS: '3000' })).client;
  p = await t.seedProject('Workspace');
  await onlyAvailable(t, p, [p.agent]);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the agent workspace', () => {
  it('shows typing both ways within 300 ms, and clears it when the typist sends', async () => {
    const { visitor, agent } = await conversation('Is anyone there?');
    await agent.page.getByLabel('Reply', { exact: true }).pressSequentially('Yes, one moment');
    const start = Date.now();
    await visitor.page.getByTestId('typing').getByText('is typing…').waitFor({ timeout: 2_000 });
    expect(Date.now() - start).toBeLessThan(300 + 200);
    await agent.page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => visitor.page.getByTestId('typing').count(), { timeout: 2_000 }).toBe(0);

    await visitor.page.getByLabel('Your message').pressSequentially('Thanks');
    await agent.page.getByTestId('typing').getByText('is typing…').waitFor({ timeout: 2_000 });
    await visitor.page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => agent.page.getByTestId('typing').count(), { timeout: 2_000 }).toBe(0);
    expect(visitor.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
    await visitor.context.close();
    await agent.context.close();
  }, 60_000);

  it("turns the agent's ticks to seen when the visitor has the chat open, and the visitor's when the agent reads", async () => {
    const { visitor, agent } = await conversation('Where is my order?');
    // The agent's view marks the visitor's message seen.
    await expect.poll(() => visitor.page.locator('.sw-receipt').last().getAttribute('aria-label'), { timeout: 10_000 }).toBe('Seen');
    await agent.page.getByLabel('Reply', { exact: true }).fill('It ships today.');
    await agent.page.getByRole('button', { name: 'Send', exact: true }).click();
    const tick = agent.page.getByTestId('message').last().locator('.receipt');
    await expect.poll(() => tick.getAttribute('aria-label'), { timeout: 10_000 }).toBe('Seen');
    await agent.page.screenshot({ path: `${artifacts}workspace-receipts.png` });
    expect(visitor.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
    await visitor.context.close();
    await agent.context.close();
  }, 60_000);

  it('shows an image the visitor sends as a thumbnail to the agent, and a PDF as a download', async () => {
    const { visitor, agent } = await conversation('Here is a photo of the damage');
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c0392b' } }).png().toBuffer();
    await visitor.page.getByLabel('Attach a file', { exact: true }).setInputFiles({ name: 'damage.png', mimeType: 'image/png', buffer: photo });
    const thumbnail = agent.page.getByTestId('attachment-image');
    await thumbnail.waitFor({ timeout: 10_000 });
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThanOrEqual(200);

    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF');
    await agent.page.getByLabel('Attach a file', { exact: true }).setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: pdf });
    const link = visitor.page.getByTestId('attachment-file');
    await link.waitFor({ timeout: 10_000 }).catch(async (e) => {
      console.error(await agent.page.locator('body').innerText(), agent.problems, visitor.problems);
      throw e;
    });
    expect(await link.innerText()).toContain('invoice.pdf');
    const [download] = await Promise.all([visitor.page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('invoice.pdf');
    await agent.page.screenshot({ path: `${artifacts}workspace-attachments.png` });
    expect(visitor.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
    await visitor.context.close();
    await agent.context.close();
  }, 60_000);

  it('refuses a file over the server limit before uploading it, saying why', async () => {
    const visitor = await openWidget();
    await visitorSays(visitor.page, 'A big one');
    const limit = (await t.get('/v3/files/limits')).body.maxBytes as number;
    await visitor.page.getByLabel('Attach a file', { exact: true }).setInputFiles({ name: 'huge.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(limit + 1) });
    await expect.poll(() => visitor.page.getByRole('alert').innerText()).toContain('huge.pdf');
    expect(visitor.problems).toEqual([]);
    await visitor.context.close();
  }, 60_000);

  it('raises a notification and counts in the title while the tab is hidden', async () => {
    const agent = await openConsole(`/console/projects/${p.projectId}`, async (context) => {
      await context.grantPermissions(['notifications']);
      // The tab is in the background, and every notification raised is recorded.
      await context.addInitScript(() => {
        const shown: string[] = [];
        (window as unknown as { shown: string[] }).shown = shown;
        Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });
        const Real = window.Notification;
        class Recording extends Real {
          constructor(title: string, options?: NotificationOptions) {
            super(title, options);
            shown.push(title);
          }
        }
        Object.defineProperty(Recording, 'permission', { get: () => 'granted' });
        window.Notification = Recording as typeof Notification;
      });
    });
    await agent.page.getByRole('checkbox', { name: 'Notifications' }).check();
    await expect.poll(() => agent.page.getByRole('checkbox', { name: 'Notifications' }).isChecked()).toBe(true);
    const visitor = await openWidget();
    await visitorSays(visitor.page, 'Hello from a hidden tab');
    await expect.poll(() => agent.page.title(), { timeout: 5_000 }).toMatch(/^\(\d+\) Support console$/);
    await expect.poll(() => agent.page.evaluate(() => (window as unknown as { shown: string[] }).shown), { timeout: 5_000 }).toContain('New conversation');
    expect(visitor.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
    await visitor.context.close();
    await agent.context.close();
  }, 60_000);

  it('moves between conversations with j and k, and lists the shortcuts with ?', async () => {
    await conversation('First for the keyboard').then((c) => c.visitor.context.close().then(() => c.agent.context.close()));
    await conversation('Second for the keyboard').then((c) => c.visitor.context.close().then(() => c.agent.context.close()));
    const agent = await openConsole();
    await agent.page.getByTestId('inbox').getByText('Second for the keyboard').waitFor();
    await agent.page.keyboard.press('j');
    const first = new URL(agent.page.url()).pathname;
    expect(first).toMatch(/\/conversations\//);
    await agent.page.keyboard.press('j');
    await expect.poll(() => new URL(agent.page.url()).pathname).not.toBe(first);
    await agent.page.keyboard.press('k');
    await expect.poll(() => new URL(agent.page.url()).pathname).toBe(first);
    await agent.page.keyboard.press('?');
    await agent.page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Next conversation').waitFor();
    await agent.page.keyboard.press('Escape');
    await expect.poll(() => agent.page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);
    expect(agent.problems).toEqual([]);
    await agent.context.close();
  }, 90_000);

  it('inserts a canned response from / in the reply box', async () => {
    expect((await t.post(`/v3/${p.projectId}/canned`, { token: p.admin.token, body: { title: 'greet', text: 'Hello $recipient_name, how can I help?' } })).status).toBe(200);
    const { visitor, agent } = await conversation('Hi');
    const reply = agent.page.getByLabel('Reply', { exact: true });
    await reply.pressSequentially('/gre');
    await agent.page.getByRole('listbox', { name: 'Canned responses' }).getByText('/greet').waitFor();
    await reply.press('Enter');
    await expect.poll(() => reply.inputValue()).toMatch(/^Hello .+, how can I help\?$/);
    expect(agent.problems).toEqual([]);
    await visitor.context.close();
    await agent.context.close();
  }, 60_000);

  it('counts unread messages per conversation and per view, and clears them when the agent reads', async () => {
    const agent = await openConsole();
    const visitor = await openWidget();
    await visitorSays(visitor.page, 'Unread one');
    const entry = agent.page.getByTestId('inbox').locator('li', { hasText: 'Unread one' });
    await expect.poll(() => entry.getByTestId('unread').innerText().catch(() => '0'), { timeout: 5_000 }).toBe('1');
    await visitorSays(visitor.page, 'Unread two');
    await expect.poll(() => entry.getByTestId('unread').innerText().catch(() => '0'), { timeout: 5_000 }).toBe('2');
    await expect.poll(() => agent.page.getByRole('tab', { name: /^Mine/ }).locator('.unread').innerText().catch(() => '0')).not.toBe('0');
    await entry.getByRole('link').click();
    await expect.poll(() => entry.getByTestId('unread').count(), { timeout: 5_000 }).toBe(0);
    expect(visitor.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
    await visitor.context.close();
    await agent.context.close();
  }, 60_000);

  it('finds a word of a message posted a second earlier, by its prefix, and opens its conversation', async () => {
    const agent = await openConsole();
    const visitor = await openWidget();
    await visitorSays(visitor.page, 'My refunds never arrived');
    await expect.poll(() => visitor.page.getByTestId('widget-message').count()).toBe(1);
    const requestId = await requestIdOf(visitor.page);
    await agent.page.keyboard.press('s');
    await agent.page.keyboard.type('refun');
    const results = agent.page.getByTestId('search-results');
    await results.getByText('My refunds never arrived').first().click({ timeout: 5_000 });
    await expect.poll(() => new URL(agent.page.url()).pathname).toBe(`/console/projects/${p.projectId}/conversations/${requestId}`);
    await agent.page.getByTestId('message').first().waitFor();
    expect(visitor.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
    await visitor.context.close();
    await agent.context.close();
  }, 60_000);

  it("shows the visitor's browser, system and location (through a trusted proxy) in the contact panel, and edits the contact", async () => {
    const visitor = await openWidget({
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      extraHTTPHeaders: { 'x-forwarded-for': '8.8.8.8' },
    });
    await visitorSays(visitor.page, 'Where are you shipping from?');
    await expect.poll(() => visitor.page.getByTestId('widget-message').count()).toBe(1);
    const requestId = await requestIdOf(visitor.page);
    const agent = await openConsole(`/console/projects/${p.projectId}/conversations/${requestId}`);
    const contact = agent.page.getByRole('region', { name: 'Contact' });
    await expect.poll(() => contact.getByTestId('browser').innerText(), { timeout: 5_000 }).toContain('Chrome');
    expect(await contact.getByTestId('os').innerText()).toContain('Windows');
    expect(await contact.getByTestId('location').innerText()).toContain('US');
    await contact.getByRole('button', { name: 'Edit contact' }).click();
    await contact.getByLabel('E-mail').fill('dana@example.test');
    await contact.getByRole('button', { name: 'Save contact' }).click();
    await expect.poll(() => contact.getByTestId('contact').innerText()).toContain('dana@example.test');
    await agent.page.screenshot({ path: `${artifacts}workspace-contact.png` });
    expect(visitor.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
    await visitor.context.close();
    await agent.context.close();
  }, 60_000);

  it('filters the list by tag, and remembers the filter after a reload', async () => {
    const { visitor, agent, requestId } = await conversation('Tagged for the filter');
    await visitor.context.close();
    expect((await t.put(`/v3/${p.projectId}/requests/${requestId}/tag`, { token: p.agent.token, body: { tag: 'urgent' } })).status).toBe(200);
    await agent.page.goto(`${t.baseUrl}/console/projects/${p.projectId}/views/open`);
    await agent.page.getByRole('button', { name: /^Filters/ }).click();
    await agent.page.getByRole('form', { name: 'Filters' }).getByLabel('Tag', { exact: true }).fill('urgent');
    const inbox = agent.page.getByTestId('inbox');
    await expect.poll(() => inbox.locator('a[data-request-id]').evaluateAll((links) => links.map((a) => a.getAttribute('data-request-id'))), { timeout: 5_000 }).toEqual([requestId]);
    await agent.page.reload();
    await expect.poll(() => inbox.locator('a[data-request-id]').evaluateAll((links) => links.map((a) => a.getAttribute('data-request-id'))), { timeout: 5_000 }).toEqual([requestId]);
    expect(await agent.page.getByRole('button', { name: /^Filters/ }).innerText()).toBe('Filters (1)');
    await agent.page.getByRole('button', { name: /^Filters/ }).click();
    await agent.page.getByRole('button', { name: 'Clear filters' }).click();
    expect(agent.problems).toEqual([]);
    await agent.context.close();
  }, 60_000);

  it('draws the reports for the data there is, and exports a chart as CSV', async () => {
    const { requestId, visitor, agent: first } = await conversation('A conversation to report on');
    await first.context.close();
    await visitor.context.close();
    await t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.agent.token });
    // Reports are the admins' (as the analytics queries are).
    const agent = await openConsole(`/console/projects/${p.projectId}/reports`, undefined, p.admin);
    await agent.page.getByRole('heading', { name: 'Reports' }).waitFor();
    await expect.poll(() => agent.page.getByTestId('chart').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    const drawn = await agent.page.getByTestId('chart').first().evaluate((canvas: HTMLCanvasElement) => canvas.width > 0 && canvas.height > 0);
    expect(drawn).toBe(true);
    await expect.poll(() => agent.page.locator('.kpis').innerText()).toMatch(/Conversations\s+[1-9]/);
    const [download] = await Promise.all([
      agent.page.waitForEvent('download'),
      agent.page.getByRole('region', { name: 'Conversations per day' }).getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('conversations-per-day.csv');
    await agent.page.screenshot({ path: `${artifacts}workspace-reports.png`, fullPage: true });
    expect(agent.problems).toEqual([]);
    await agent.context.close();
  }, 60_000);
});
