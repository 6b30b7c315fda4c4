import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from '../helpers/app.js';
import { launchBrowser, OpenedPages, type OpenedPage } from '../helpers/browser.js';
import { onlyAvailable, openRequest } from '../helpers/conversations.js';

// A support lead's week, as one journey in real headless Chromium (issue 38): on Monday a new
// conversation's SLA countdown turns red and the breach notification arrives in a background tab;
// on Tuesday the same person writes again and the lead merges the two conversations; on Wednesday
// a reply scheduled a few seconds ahead goes out and shows as sent; on Thursday the lead sets the
// retention policy (a refused value first) and reads the change and the merge in the audit log; on
// Friday the person asks for their data and to be forgotten: the lead exports it and erases them
// from the contact panel, on a phone (the desktop tab still on their conversation says it is
// gone). Each step asserts what the lead sees. Every page fails the file on a console error, an
// uncaught error or a failed request (but the one 404 of the erased conversation read again).
// Screenshots, desktop and 390 px, go to test/artifacts/operations-week-*.png.

let t: TestApp;
let p: SeededProject;
let browser: Browser;
const artifacts = new URL('../artifacts/', import.meta.url).pathname;
const desktop = { width: 1280, height: 860 };
const phone = { width: 390, height: 844 };

type Watched = OpenedPage;
const pages = new OpenedPages(() => browser);

/** The console signed in as the support lead (an admin of the project), at `path`. */
const openConsole = (path: string, viewport = desktop, init?: (context: BrowserContext) => Promise<void>) =>
  pages.console(`${t.baseUrl}${path}`, { ...p.admin, name: 'Lead' }, { viewport, init, contextOptions: { acceptDownloads: true } });

/** A tab left in the background, recording every browser notification it raises. */
async function backgroundTab(context: BrowserContext) {
  await context.grantPermissions(['notifications']);
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
}

const ticketOf = async (requestId: string) => String((await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token })).body.ticket_id);
const messageTexts = (page: Page) => page.getByTestId('message').locator('.text').allInnerTexts();

let notifications: Watched;
let lead: Watched;
let monday: { requestId: string; ticket: string };
let tuesday: { requestId: string; ticket: string };
const scheduledText = 'Good news: your parcel 5521 left our warehouse today';

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  t = (await createTestServer({ TIMER_SWEEP_INTERVAL: '250ms', RATE_LIMIT_REQUESTS: '3000' })).client;
  p = await t.seedProject('A lead\u2019s week');
  // The lead answers the conversations themself this week: new ones are routed to them.
  await onlyAvailable(t, p, [p.admin]);
  // Set up the week before: every conversation must have a first response within 6 seconds.
  const policy = await t.post(`/v3/${p.projectId}/sla_policies`, { token: p.admin.token, body: { name: 'Answer fast', first_response: '6s' } });
  expect(policy.status).toBe(200);
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  for (const w of pages.all) expect(w.problems).toEqual([]);
  await pages.close();
  await browser?.close();
  await t?.close();
});

describe("a support lead's week", () => {
  it('Monday: a new conversation counts down to its first response, turns red once breached, and the breach is notified', async () => {
    notifications = await openConsole(`/console/projects/${p.projectId}`, desktop, backgroundTab);
    await notifications.page.getByRole('checkbox', { name: 'Notifications' }).check();
    await expect.poll(() => notifications.page.getByRole('checkbox', { name: 'Notifications' }).isChecked()).toBe(true);

    const requestId = await openRequest(t, p, { text: 'My parcel 5521 has not arrived' });
    monday = { requestId, ticket: await ticketOf(requestId) };
    const { body } = await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.admin.token });
    expect((await t.put(`/v3/${p.projectId}/leads/${body.lead._id}`, { token: p.admin.token, body: { fullname: 'Maya Lind', email: 'maya@example.test' } })).status).toBe(200);

    lead = await openConsole(`/console/projects/${p.projectId}/conversations/${requestId}`);
    const header = lead.page.locator('.conversation-header').getByTestId('sla');
    const row = lead.page.locator(`[data-request-id="${requestId}"]`).getByTestId('sla');
    await expect.poll(() => header.innerText(), { timeout: 20_000 }).toMatch(/^First response (in \d+s|overdue \d+s)$/);
    await lead.page.screenshot({ path: `${artifacts}operations-week-countdown.png` });
    await expect.poll(() => header.getAttribute('data-state'), { timeout: 20_000 }).toBe('breached');
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toMatch(/^First response overdue \d+s$/);
    expect(await row.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(180, 35, 24)');
    const shown = () => notifications.page.evaluate(() => (window as unknown as { shown: string[] }).shown);
    await expect.poll(shown, { timeout: 20_000 }).toContain('SLA breached');
    expect(await shown()).toContain('SLA due soon');
    await lead.page.screenshot({ path: `${artifacts}operations-week-breached.png` });

    const small = await openConsole(`/console/projects/${p.projectId}`, phone);
    await expect.poll(() => small.page.locator(`[data-request-id="${requestId}"]`).getByTestId('sla').getAttribute('data-state'), { timeout: 20_000 }).toBe('breached');
    await small.page.screenshot({ path: `${artifacts}operations-week-breached-phone.png` });
    await small.context.close();
  }, 120_000);

  it('Tuesday: the same person writes again, and the lead merges the two conversations into one', async () => {
    const requestId = await openRequest(t, p, { text: 'Still no parcel 5521, any news?' });
    tuesday = { requestId, ticket: await ticketOf(requestId) };
    await lead.page.goto(`${t.baseUrl}/console/projects/${p.projectId}/conversations/${requestId}`);
    await expect.poll(() => messageTexts(lead.page), { timeout: 20_000 }).toEqual(['Still no parcel 5521, any news?']);

    await lead.page.getByRole('button', { name: 'Merge…' }).click();
    const dialog = lead.page.getByRole('dialog', { name: 'Merge conversations of this contact' });
    await dialog.getByRole('checkbox', { name: new RegExp(`#${monday.ticket} My parcel 5521`) }).check();
    await dialog.getByRole('button', { name: 'Merge into this conversation' }).click();
    await lead.page.getByRole('status').getByText(`Merged #${monday.ticket} into this conversation`).waitFor({ timeout: 15_000 });
    await expect.poll(() => messageTexts(lead.page), { timeout: 15_000 }).toEqual(['My parcel 5521 has not arrived', 'Still no parcel 5521, any news?']);
    const other = lead.page.getByRole('list', { name: 'Other conversations' }).getByRole('listitem').filter({ hasText: `#${monday.ticket}` });
    await expect.poll(() => other.innerText(), { timeout: 15_000 }).toContain('merged');
    await lead.page.screenshot({ path: `${artifacts}operations-week-merged.png` });
  }, 120_000);

  it('Wednesday: a reply scheduled a few seconds ahead goes out by itself and shows as sent', async () => {
    const region = lead.page.getByRole('region', { name: 'Scheduled messages' });
    await region.getByLabel('Message').fill(scheduledText);
    // Six seconds from now, in the browser's own time zone, as the lead would pick it.
    const soon = await lead.page.evaluate(() => {
      const d = new Date(Date.now() + 6000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    });
    await region.getByLabel('Send at').fill(soon);
    await region.getByRole('button', { name: 'Schedule' }).click();
    const scheduled = lead.page.getByTestId('scheduled-messages');
    await expect.poll(() => scheduled.innerText(), { timeout: 10_000 }).toContain(scheduledText);
    expect(await scheduled.innerText()).toContain('Scheduled for');
    await lead.page.screenshot({ path: `${artifacts}operations-week-scheduled.png` });

    const sent = lead.page.getByTestId('message').filter({ hasText: scheduledText });
    await sent.waitFor({ timeout: 30_000 });
    expect(await sent.getByTestId('sent-as-scheduled').innerText()).toContain('sent as scheduled');
    await expect.poll(() => scheduled.innerText(), { timeout: 20_000 }).toBe('None');
    const [row] = (await t.get(`/v3/${p.projectId}/requests/${tuesday.requestId}/scheduled_messages`, { token: p.admin.token })).body;
    expect(row).toMatchObject({ status: 'sent', text: scheduledText });
    await lead.page.screenshot({ path: `${artifacts}operations-week-scheduled-sent.png` });

    const small = await openConsole(`/console/projects/${p.projectId}/conversations/${tuesday.requestId}`, phone);
    await small.page.getByTestId('message').filter({ hasText: scheduledText }).getByTestId('sent-as-scheduled').waitFor({ timeout: 20_000 });
    await small.page.screenshot({ path: `${artifacts}operations-week-scheduled-sent-phone.png` });
    await small.context.close();
  }, 120_000);

  it('Thursday: the lead sets how long closed conversations are kept, then reads the change and the merge in the audit log', async () => {
    await lead.page.goto(`${t.baseUrl}/console/projects/${p.projectId}/settings/privacy`);
    const policy = lead.page.getByTestId('retention-policy');
    await expect.poll(() => policy.innerText(), { timeout: 20_000 }).toBe('Closed conversations are kept forever.');
    const form = lead.page.getByRole('form', { name: 'Retention' });
    await form.getByLabel('Keep closed conversations for (days)').fill('-5');
    lead.expect(400);
    await form.getByRole('button', { name: 'Save retention' }).click();
    await expect.poll(() => lead.page.getByRole('alert').innerText(), { timeout: 15_000 }).toMatch(/retention_days.*0 \(keep forever\) or more/);
    expect(await policy.innerText()).toBe('Closed conversations are kept forever.');
    expect((await t.get(`/v3/projects/${p.projectId}`, { token: p.admin.token })).body.retention_days ?? null).toBeNull();

    await form.getByLabel('Keep closed conversations for (days)').fill('30');
    await form.getByRole('button', { name: 'Save retention' }).click();
    await expect.poll(() => policy.innerText(), { timeout: 15_000 }).toBe('Closed conversations are deleted 30 days after they closed, with their messages and files.');
    expect(await lead.page.getByRole('alert').count()).toBe(0);
    await lead.page.screenshot({ path: `${artifacts}operations-week-retention.png`, fullPage: true });

    await lead.page.getByRole('tab', { name: 'Audit log' }).click();
    const audit = lead.page.getByTestId('audit');
    const change = audit.locator('tr[data-action="project.update"]').first();
    await change.waitFor({ timeout: 15_000 });
    expect(await change.innerText()).toContain(p.admin.email);
    await change.getByRole('button', { name: 'Details' }).click();
    await expect.poll(() => lead.page.getByRole('table', { name: 'Before and after' }).getByRole('row', { name: /^retention_days/ }).innerText()).toMatch(/retention_days\s+.*\s+30$/);
    const merge = audit.locator('tr[data-action="request.merge"]').first();
    expect(await merge.innerText()).toContain(p.admin.email);
    expect(await merge.innerText()).toContain(tuesday.requestId);
    await lead.page.screenshot({ path: `${artifacts}operations-week-audit.png`, fullPage: true });
  }, 120_000);

  it('Friday: the person asks for their data and to be forgotten; the lead exports it, then erases them from the contact panel on a phone', async () => {
    await lead.page.goto(`${t.baseUrl}/console/projects/${p.projectId}/conversations/${tuesday.requestId}`);
    const contact = lead.page.getByRole('region', { name: 'Contact' });
    await expect.poll(() => contact.getByTestId('contact').innerText(), { timeout: 20_000 }).toContain('Maya Lind');
    const [download] = await Promise.all([lead.page.waitForEvent('download'), contact.getByRole('button', { name: 'Export data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^lead-.+\.json$/);
    const held = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(held.lead).toMatchObject({ fullname: 'Maya Lind', email: 'maya@example.test' });
    expect(held.requests.map((r: { request_id: string }) => r.request_id).sort()).toEqual([monday.requestId, tuesday.requestId].sort());
    expect(held.messages.map((m: { text: string }) => m.text)).toEqual(expect.arrayContaining(['My parcel 5521 has not arrived', 'Still no parcel 5521, any news?', scheduledText]));
    // The erasure happens on the phone; the desktop tab stays on the conversation, which is about to go.

    const small = await openConsole(`/console/projects/${p.projectId}/conversations/${tuesday.requestId}`, phone);
    const panel = small.page.getByRole('region', { name: 'Contact' });
    await expect.poll(() => panel.getByTestId('contact').innerText(), { timeout: 20_000 }).toContain('Maya Lind');
    await panel.getByRole('button', { name: 'Erase contact…' }).click();
    const dialog = small.page.getByRole('dialog', { name: 'Erase Maya Lind?' });
    const list = dialog.getByTestId('erase-list');
    await expect.poll(() => list.innerText(), { timeout: 15_000 }).toContain('2 conversations');
    expect(await list.innerText()).toContain(`#${monday.ticket} My parcel 5521 has not arrived`);
    // After the merge, the surviving conversation opens with the earliest message too.
    expect(await list.innerText()).toContain(`#${tuesday.ticket} My parcel 5521 has not arrived`);
    expect(await list.innerText()).toContain('maya@example.test');
    await small.page.screenshot({ path: `${artifacts}operations-week-erase-phone.png` });
    lead.expect(404);
    await dialog.getByRole('button', { name: 'Erase Maya Lind and 2 conversations' }).click();

    await small.page.waitForURL(`**/projects/${p.projectId}/views/**`, { timeout: 15_000 });
    await expect
      .poll(() => small.page.getByTestId('erased').innerText(), { timeout: 15_000 })
      .toContain('Maya Lind was erased: the contact and 2 conversations, with their messages and files, were deleted.');
    await expect.poll(() => small.page.locator(`[data-request-id="${tuesday.requestId}"], [data-request-id="${monday.requestId}"]`).count(), { timeout: 15_000 }).toBe(0);
    await small.page.screenshot({ path: `${artifacts}operations-week-erased-phone.png` });
    // The tab still showing the conversation says it is gone.
    await lead.page.getByTestId('conversation-gone').getByText('This conversation no longer exists: it was deleted').waitFor({ timeout: 15_000 });
    expect(await lead.page.getByTestId('message').count()).toBe(0);
    expect(await lead.page.getByRole('region', { name: 'Contact' }).count()).toBe(0);
    await lead.page.screenshot({ path: `${artifacts}operations-week-erased.png` });
    expect((await t.get(`/v3/${p.projectId}/requests/${tuesday.requestId}`, { token: p.admin.token })).status).toBe(404);
    expect((await t.get(`/v3/${p.projectId}/requests/${monday.requestId}`, { token: p.admin.token })).status).toBe(404);

    // The erasure itself is in the audit log, with the counts and no word of what was said.
    await small.page.goto(`${t.baseUrl}/console/projects/${p.projectId}/settings/audit`);
    const erased = small.page.getByTestId('audit').locator('tr[data-action="lead.erase"]').first();
    await erased.waitFor({ timeout: 15_000 });
    expect(await erased.innerText()).toContain(p.admin.email);
    await small.page.screenshot({ path: `${artifacts}operations-week-audit-phone.png`, fullPage: true });
  }, 120_000);
});
