import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from '../helpers/app.js';
import { launchBrowser, OpenedPages, type OpenedPage } from '../helpers/browser.js';
import { onlyAvailable, openRequest } from '../helpers/conversations.js';

// A support lead's operations in real headless Chromium: a conversation's priority changed in the
// conversation shows in the inbox (and its filter); a message scheduled, edited and then sent at
// its time reaches the visitor; an admin adds an SLA policy in Settings (bad input refused), and a
// new conversation's countdown runs in the inbox row and the conversation's header, then turns red
// once the first response is overdue and the breach is recorded.
// Every page fails its scenario on a console error, an uncaught error or a failed request.
// Screenshots (desktop and a 390 px phone) go to test/artifacts/operations-*.png.

let t: TestApp;
let p: SeededProject;
let browser: Browser;
const artifacts = new URL('../artifacts/', import.meta.url).pathname;

type Watched = OpenedPage;
const pages = new OpenedPages(() => browser);
const open = (viewport?: { width: number; height: number }, init?: (context: BrowserContext) => Promise<void>) => pages.open({ viewport, init });

const openConsole = (
  path: string,
  viewport?: { width: number; height: number },
  as: { token: string; userId: string } = p.agent,
  init?: (context: BrowserContext) => Promise<void>,
) => pages.console(`${t.baseUrl}${path}`, as, { viewport, init });

async function openWidget() {
  const w = await open({ width: 420, height: 760 });
  await w.page.goto(`${t.baseUrl}/widget/demo?project_id=${p.projectId}`);
  await w.page.getByRole('button', { name: 'Chat with us' }).click();
  await expect.poll(() => w.page.getByTestId('widget-user').innerText(), { timeout: 20_000 }).not.toBe('Signing in…');
  return w;
}

const requestIdOf = (widget: Page) => widget.evaluate((project) => JSON.parse(localStorage.getItem(`support-widget:${project}`)!).requestId as string, p.projectId);

let visitor: Watched;
let agent: Watched;
let requestId: string;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  t = (await createTestServer({ TIMER_SWEEP_INTERVAL: '300ms' })).client;
  p = await t.seedProject('Operations');
  await onlyAvailable(t, p, [p.agent]);
  browser = await launchBrowser();
}, 240_000);

/** The visitor writes in the widget and the agent opens the conversation in the console. */
async function aConversation() {
  visitor = await openWidget();
  await visitor.page.getByLabel('Your message').fill('Our checkout is broken');
  await visitor.page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect.poll(() => visitor.page.getByTestId('widget-message').count()).toBe(1);
  requestId = await requestIdOf(visitor.page);
  agent = await openConsole(`/console/projects/${p.projectId}/conversations/${requestId}`);
  await agent.page.getByTestId('message').first().waitFor({ timeout: 20_000 });
}

afterAll(async () => {
  for (const w of pages.all) expect(w.problems).toEqual([]);
  await pages.close();
  await browser?.close();
  await t?.close();
});

describe('a support lead operates', () => {
  it('makes a conversation urgent in the conversation, and the inbox shows it and filters by it', async () => {
    await aConversation();
    await agent.page.getByLabel('Conversation priority').selectOption('urgent');
    const row = agent.page.locator(`[data-request-id="${requestId}"]`);
    await expect.poll(() => row.getByTestId('priority').innerText(), { timeout: 15_000 }).toBe('Urgent');
    await agent.page.screenshot({ path: `${artifacts}operations-priority.png` });
    const phone = await openConsole(`/console/projects/${p.projectId}`, { width: 390, height: 844 });
    await expect.poll(() => phone.page.locator(`[data-request-id="${requestId}"]`).getByTestId('priority').innerText(), { timeout: 20_000 }).toBe('Urgent');
    await phone.page.screenshot({ path: `${artifacts}operations-priority-phone.png` });
    expect((await t.get(`/v3/${p.projectId}/requests?priority=urgent`, { token: p.agent.token })).body.requests.map((r: { request_id: string }) => r.request_id)).toEqual([requestId]);
  }, 120_000);

  it('schedules a message, edits it while it waits, and the visitor receives it at its time', async () => {
    const region = agent.page.getByRole('region', { name: 'Scheduled messages' });
    // The new message's fields fit the side panel at desktop width: each its whole width, none cut off.
    const panel = (await agent.page.getByRole('complementary', { name: 'Details' }).boundingBox())!;
    for (const field of [region.getByLabel('Message'), region.getByLabel('Send at')]) {
      const box = (await field.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
      expect(box.width).toBeGreaterThan(panel.width * 0.8);
    }
    await region.getByLabel('Message').fill('We are looking into it');
    await region.getByRole('button', { name: 'Schedule' }).click();
    const scheduled = agent.page.getByTestId('scheduled-messages');
    await expect.poll(() => scheduled.innerText(), { timeout: 15_000 }).toContain('We are looking into it');
    expect(await scheduled.innerText()).toContain('Scheduled for');
    await region.getByRole('button', { name: 'Edit' }).click();
    await region.getByLabel('Scheduled text').fill('Fixed: checkout works again');
    await region.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => scheduled.innerText(), { timeout: 15_000 }).toContain('Fixed: checkout works again');
    await agent.page.screenshot({ path: `${artifacts}operations-scheduled.png` });
    // Not a minute-long wait: the time moves to two seconds from now, as another agent's edit would.
    const [row] = (await t.get(`/v3/${p.projectId}/requests/${requestId}/scheduled_messages`, { token: p.agent.token })).body;
    const moved = await t.patch(`/v3/${p.projectId}/requests/${requestId}/scheduled_messages/${row._id}`, {
      token: p.agent.token,
      body: { scheduled_at: new Date(Date.now() + 2000).toISOString() },
    });
    expect(moved.status).toBe(200);
    await expect.poll(() => visitor.page.getByTestId('widget-message').allInnerTexts(), { timeout: 30_000 }).toContainEqual(expect.stringContaining('Fixed: checkout works again'));
    await expect.poll(() => agent.page.getByTestId('message').allInnerTexts(), { timeout: 30_000 }).toContainEqual(expect.stringContaining('Fixed: checkout works again'));
    await expect.poll(() => scheduled.innerText(), { timeout: 20_000 }).toBe('None');
    await visitor.page.screenshot({ path: `${artifacts}operations-scheduled-sent-phone.png` });
  }, 120_000);
});

describe('a support lead sets an SLA', () => {
  it('adds an SLA policy in Settings, after a refused duration that adds nothing', async () => {
    const admin = await openConsole(`/console/projects/${p.projectId}/settings/sla-policies`, undefined, p.admin);
    const form = admin.page.getByRole('form', { name: 'Add SLA policy' });
    const list = admin.page.getByRole('list', { name: 'SLA policies' });
    await expect.poll(() => list.innerText(), { timeout: 20_000 }).toContain('No SLA policy yet.');
    await form.getByLabel('Name').fill('Quick first answer');
    await form.getByLabel('First response').fill('soon');
    admin.expect(400);
    await form.getByRole('button', { name: 'Add SLA policy' }).click();
    await expect.poll(() => admin.page.getByRole('alert').innerText(), { timeout: 15_000 }).toContain('first_response');
    expect(await list.innerText()).toContain('No SLA policy yet.');
    await form.getByLabel('First response').fill('15s');
    await form.getByLabel('Urgent').check();
    await form.getByLabel('High').check();
    await form.getByLabel('Normal').check();
    await form.getByRole('button', { name: 'Add SLA policy' }).click();
    await expect.poll(() => list.getByTestId('sla-policy').allInnerTexts(), { timeout: 15_000 }).toEqual([expect.stringContaining('Quick first answer')]);
    expect(await list.innerText()).toContain('first response 15s');
    await admin.page.screenshot({ path: `${artifacts}operations-sla-policies.png` });
    const stored = (await t.get(`/v3/${p.projectId}/sla_policies`, { token: p.admin.token })).body;
    expect(stored).toEqual([expect.objectContaining({ name: 'Quick first answer', first_response_seconds: 15, priorities: ['urgent', 'hight', 'normal'] })]);
  }, 120_000);

  it('counts down to the first response in the inbox and the conversation, and turns red once it is breached', async () => {
    const id = await openRequest(t, p, { text: 'Is anyone there?' });
    const console = await openConsole(`/console/projects/${p.projectId}/conversations/${id}`);
    const header = console.page.locator('.conversation-header').getByTestId('sla');
    const row = console.page.locator(`[data-request-id="${id}"]`).getByTestId('sla');
    // The header and the inbox row count down together (a slow machine may take seconds to show them).
    await expect.poll(async () => [await header.innerText(), await row.innerText()], { timeout: 20_000 }).toEqual([
      expect.stringMatching(/^First response in \d+s$/),
      expect.stringMatching(/^First response in \d+s$/),
    ]);
    const first = await row.innerText();
    expect(await row.getAttribute('data-state')).toBe('soon');
    // Live: the same row a moment later shows less time left.
    await expect.poll(() => row.innerText(), { timeout: 5_000 }).not.toBe(first);
    await console.page.screenshot({ path: `${artifacts}operations-sla-countdown.png` });
    await expect.poll(() => header.getAttribute('data-state'), { timeout: 20_000 }).toBe('breached');
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toMatch(/^First response overdue \d+s$/);
    expect(await row.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(180, 35, 24)');
    await expect
      .poll(async () => (await t.get(`/v3/${p.projectId}/requests/${id}`, { token: p.agent.token })).body.sla.breached, { timeout: 20_000 })
      .toEqual(['first_response']);
    await console.page.screenshot({ path: `${artifacts}operations-sla-breached.png` });
    const phone = await openConsole(`/console/projects/${p.projectId}`, { width: 390, height: 844 });
    await expect.poll(() => phone.page.locator(`[data-request-id="${id}"]`).getByTestId('sla').getAttribute('data-state'), { timeout: 20_000 }).toBe('breached');
    await phone.page.screenshot({ path: `${artifacts}operations-sla-breached-phone.png` });
  }, 120_000);

  it('tells the agent of a breach in a background tab with a notification', async () => {
    const agentTab = await openConsole(`/console/projects/${p.projectId}`, undefined, p.agent, async (context) => {
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
    await agentTab.page.getByRole('checkbox', { name: 'Notifications' }).check();
    await expect.poll(() => agentTab.page.getByRole('checkbox', { name: 'Notifications' }).isChecked()).toBe(true);
    await openRequest(t, p, { text: 'Nobody answers' });
    const shown = () => agentTab.page.evaluate(() => (window as unknown as { shown: string[] }).shown);
    await expect.poll(shown, { timeout: 30_000 }).toContain('SLA breached');
    expect(await shown()).toContain('SLA due soon');
  }, 120_000);
});
