import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { blockExternal, launchBrowser } from './helpers/browser.js';
import { onlyAvailable } from './helpers/conversations.js';

// The live path in real headless Chromium: a visitor in the widget demo page and an agent in the
// console, both served by the server on 127.0.0.1 and talking to it only through the public
// GraphQL API (graphql-ws for what arrives live). Nothing may be fetched from elsewhere.

let t: TestApp;
let p: SeededProject;
let browser: Browser;
const artifacts = new URL('./artifacts/', import.meta.url).pathname;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const node = await createTestServer();
  t = node.client;
  p = await t.seedProject('Live');
  // New conversations are routed to the agent signed in to the console.
  await onlyAvailable(t, p, [p.agent]);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function newPage(viewport = { width: 1200, height: 800 }): Promise<{ page: Page; blocked: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const { blocked } = await blockExternal(page);
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  page.on('console', (message) => message.type() === 'warning' || message.type() === 'error' ? console.error(`page ${message.type()}: ${message.text()}`) : undefined);
  return { page, blocked };
}

/** The widget demo page of `projectId` with the chat open. */
async function openWidget(projectId = p.projectId) {
  const opened = await newPage({ width: 420, height: 760 });
  await opened.page.goto(`${t.baseUrl}/widget/demo?project_id=${projectId}`);
  await opened.page.getByRole('button', { name: 'Chat with us' }).click();
  await expect.poll(() => opened.page.getByTestId('widget-user').innerText(), { timeout: 20_000 }).not.toBe('Signing in…');
  return opened;
}

async function visitorSays(page: Page, text: string) {
  await page.getByLabel('Your message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** The console, signed in through its form as `account`, with the project open. */
async function openConsole(account: { email: string; password: string }) {
  const opened = await newPage();
  const { page } = opened;
  await page.goto(`${t.baseUrl}/console`);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.screenshot({ path: `${artifacts}console-signin.png` });
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: /Live/ }).click();
  await page.getByRole('tab', { name: /^All open/ }).click();
  return opened;
}

const widgetMessages = (page: Page) => page.getByTestId('widget-message').allInnerTexts();
const consoleMessages = (page: Page) => page.getByTestId('message').allInnerTexts();

describe('visitor widget and agent console, live', () => {
  it('exchange messages both ways, and the new conversation reaches the open inbox live', async () => {
    const agent = await openConsole(p.agent);
    const visitor = await openWidget();
    await visitorSays(visitor.page, 'Hello, my parcel is late');
    await expect.poll(() => widgetMessages(visitor.page), { timeout: 10_000 }).toEqual([expect.stringContaining('Hello, my parcel is late')]);
    // The console never polls: the entry arrives by its subscription, or not at all (how fast a
    // message reaches subscribers is measured by `npm run bench messages`).
    const entry = agent.page.getByTestId('inbox').getByText('Hello, my parcel is late');
    await entry.waitFor({ timeout: 10_000 }).catch(async (e) => {
      await agent.page.screenshot({ path: `${artifacts}debug-inbox.png` });
      console.error(await agent.page.locator('body').innerText());
      throw e;
    });
    await agent.page.screenshot({ path: `${artifacts}console-inbox.png` });

    await entry.click();
    await expect.poll(() => consoleMessages(agent.page), { timeout: 10_000 }).toEqual([expect.stringContaining('Hello, my parcel is late')]);
    await agent.page.getByLabel('Reply', { exact: true }).fill('Sorry about that! Let me check.');
    await agent.page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => widgetMessages(visitor.page), { timeout: 5_000 }).toContainEqual(expect.stringContaining('Sorry about that! Let me check.'));

    await visitorSays(visitor.page, 'Thanks!');
    await expect.poll(() => consoleMessages(agent.page), { timeout: 5_000 }).toContainEqual(expect.stringContaining('Thanks!'));
    await agent.page.screenshot({ path: `${artifacts}console-conversation.png` });
    await visitor.page.screenshot({ path: `${artifacts}widget-conversation.png` });

    // Closing asks the visitor for a rating.
    await agent.page.getByRole('button', { name: 'Close', exact: true }).click();
    await visitor.page.getByRole('button', { name: '5 out of 5' }).click();
    await visitor.page.getByRole('button', { name: 'Send rating' }).click();
    await visitor.page.getByText('Thank you for your rating!').waitFor();
    expect([...agent.blocked, ...visitor.blocked]).toEqual([]);
    await agent.page.context().close();
    await visitor.page.context().close();
  }, 120_000);

  it("shows a bot's answer with its quick replies, and a quick reply answers for the visitor", async () => {
    const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Ada', template: 'example' } });
    expect(bot.status).toBe(200);
    // A project whose default department is the bot's: what the widget opens goes to the bot.
    const departments = await t.get(`/v3/${p.projectId}/departments`, { token: p.owner.token });
    const defaultDept = departments.body.find((d: { default?: boolean }) => d.default);
    expect((await t.patch(`/v3/${p.projectId}/departments/${defaultDept._id}`, { token: p.owner.token, body: { id_bot: bot.body._id } })).status).toBe(200);

    const visitor = await openWidget();
    await visitorSays(visitor.page, 'hello');
    const prices = visitor.page.getByRole('button', { name: 'Prices' });
    await prices.waitFor({ timeout: 10_000 }).catch(async (e) => {
      console.error(await widgetMessages(visitor.page), JSON.stringify((await t.get(`/v3/${p.projectId}/departments`, { token: p.owner.token })).body));
      throw e;
    });
    await visitor.page.screenshot({ path: `${artifacts}widget-bot.png` });
    await prices.click();
    await expect.poll(async () => (await widgetMessages(visitor.page)).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    const texts = await widgetMessages(visitor.page);
    expect(texts[2]).toContain('Prices');
    expect(texts[3]).toContain('Ada');
    expect(visitor.blocked).toEqual([]);
    await t.patch(`/v3/${p.projectId}/departments/${defaultDept._id}`, { token: p.owner.token, body: { id_bot: null } });
    await visitor.page.context().close();
  }, 120_000);

  it('honours the advanced message attributes: input disabled, placeholder, user details, hidden messages', async () => {
    const visitor = await openWidget();
    await visitorSays(visitor.page, 'I want to order');
    await expect.poll(() => widgetMessages(visitor.page)).toHaveLength(1);
    const requestId = await visitor.page.evaluate((project) => JSON.parse(localStorage.getItem(`support-widget:${project}`)!).requestId, p.projectId);
    const say = async (body: Record<string, unknown>) =>
      expect((await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.agent.token, body })).status).toBe(200);
    await say({ text: 'Only for agents', attributes: { subtype: 'info' } });
    await say({ text: 'Pick a size below', attributes: { disableInputMessage: true, inputMessagePlaceholder: 'Use the buttons', updateUserFullname: 'Ann Smith' } });
    const input = visitor.page.getByLabel('Your message');
    await expect.poll(() => input.isDisabled(), { timeout: 10_000 }).toBe(true);
    expect(await input.getAttribute('placeholder')).toBe('Use the buttons');
    await expect.poll(() => visitor.page.getByTestId('widget-user').innerText()).toContain('Ann Smith');
    const texts = await widgetMessages(visitor.page);
    expect(texts.some((text) => text.includes('Only for agents'))).toBe(false);
    // The next message enables the input again.
    await say({ text: 'Or just type it' });
    await expect.poll(() => input.isDisabled(), { timeout: 10_000 }).toBe(false);
    expect(await input.getAttribute('placeholder')).toBe('Type your message…');
    expect(visitor.blocked).toEqual([]);
    await visitor.page.context().close();
  }, 120_000);

  it('resumes after a dropped connection without missing what was said meanwhile', async () => {
    const opened = await newPage({ width: 420, height: 760 });
    const { page } = opened;
    // The page's websockets go through this proxy, so the test can cut them as a network drop would.
    const sockets: Array<{ close(): Promise<void> }> = [];
    await page.routeWebSocket(/\/graphql$/, (ws) => {
      const server = ws.connectToServer();
      sockets.push({ close: async () => (await server.close(), await ws.close()) });
    });
    await page.goto(`${t.baseUrl}/widget/demo?project_id=${p.projectId}`);
    await page.getByRole('button', { name: 'Chat with us' }).click();
    await visitorSays(page, 'Are you there?');
    await expect.poll(() => widgetMessages(page)).toHaveLength(1);
    const requestId = await page.evaluate((project) => JSON.parse(localStorage.getItem(`support-widget:${project}`)!).requestId, p.projectId);
    const say = async (text: string) =>
      expect((await t.post(`/v3/${p.projectId}/requests/${requestId}/messages`, { token: p.owner.token, body: { text } })).status).toBe(200);
    // One answer arrives live: the widget now holds a cursor (its seq) to resume from.
    await say('Yes, here');
    await expect.poll(() => widgetMessages(page), { timeout: 10_000 }).toHaveLength(2);

    await Promise.all(sockets.splice(0).map((s) => s.close()));
    await page.getByText('Reconnecting…').waitFor({ timeout: 5_000 });
    await say('First while away');
    await say('Second while away');
    await expect.poll(() => widgetMessages(page), { timeout: 15_000 }).toEqual([
      expect.stringContaining('Are you there?'),
      expect.stringContaining('Yes, here'),
      expect.stringContaining('First while away'),
      expect.stringContaining('Second while away'),
    ]);
    expect(opened.blocked).toEqual([]);
    await page.context().close();
  }, 120_000);
});
