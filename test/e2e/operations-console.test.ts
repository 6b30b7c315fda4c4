import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from '../helpers/app.js';
import { launchBrowser, OpenedPages } from '../helpers/browser.js';
import { newRequestId, onlyAvailable, send } from '../helpers/conversations.js';

// A support lead's operations in the console, in real headless Chromium (issue 38, items 3, 4 and
// 7): the audit log in Settings, merging two conversations of one person from the conversation,
// and a chart's bar opening the conversations behind it. Every page fails the file on a console
// error, an uncaught error or a failed request. Screenshots go to test/artifacts/operations-*.png.

let t: TestApp;
let p: SeededProject;
let browser: Browser;
const artifacts = new URL('../artifacts/', import.meta.url).pathname;

const pages = new OpenedPages(() => browser);

/** The console signed in as `as` (the token goes in as the sign-in form would leave it), at `path`. */
const openConsole = (path: string, as: { token: string; userId: string }, viewport?: { width: number; height: number }) =>
  pages.console(`${t.baseUrl}${path}`, { ...as, name: 'Lead' }, { viewport, contextOptions: { acceptDownloads: true } });

/** A conversation the project's visitor opens with these messages; its request_id and ticket. */
async function visitorWrites(...texts: string[]) {
  const requestId = newRequestId();
  for (const text of texts) expect((await send(t, p.projectId, p.guest.token, requestId, { text })).status).toBe(200);
  const { body } = await t.get(`/v3/${p.projectId}/requests/${requestId}`, { token: p.owner.token });
  return { requestId, ticket: String(body.ticket_id) };
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  t = (await createTestServer({ RATE_LIMIT_REQUESTS: '3000' })).client;
  p = await t.seedProject('Operations console');
  await onlyAvailable(t, p, [p.agent]);
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  for (const w of pages.all) expect(w.problems).toEqual([]);
  await pages.close();
  await browser?.close();
  await t?.close();
});

describe('the audit log in Settings', () => {
  it('shows a role change just made, with who made it, from where, and its before and after', async () => {
    const owner = await openConsole(`/console/projects/${p.projectId}/settings/team`, p.owner);
    await owner.page.getByLabel('Role of admin Test').selectOption('agent');
    await expect.poll(() => owner.page.getByLabel('Role of admin Test').inputValue()).toBe('agent');

    await owner.page.getByRole('tab', { name: 'Audit log' }).click();
    const row = owner.page.getByTestId('audit').locator('tr[data-action="project_user.update"]').first();
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain(p.owner.email);
    expect(await row.innerText()).toContain('changed project user');
    expect(await row.innerText()).toMatch(/127\.0\.0\.1/);
    await row.getByRole('button', { name: 'Details' }).click();
    const change = owner.page.getByRole('table', { name: 'Before and after' });
    await expect.poll(() => change.getByRole('row', { name: /^role/ }).innerText()).toMatch(/role\s+admin\s+agent/);
    await owner.page.screenshot({ path: `${artifacts}operations-audit.png`, fullPage: true });

    // The filters narrow it: another action lists none of these rows.
    await owner.page.getByLabel('Action').fill('lead.erase');
    await owner.page.getByText('No entries match.').waitFor();
    await owner.page.getByLabel('Action').fill('project_user.update');
    await owner.page.getByLabel('Who').selectOption({ label: `owner Test` });
    await row.waitFor();
    await owner.context.close();
    await t.put(`/v3/${p.projectId}/project_users/${p.admin.teammateId}`, { token: p.owner.token, body: { role: 'admin' } });
  }, 120_000);

  it('is not offered to an agent, and its address tells an agent it is for admins', async () => {
    const agent = await openConsole(`/console/projects/${p.projectId}/settings/canned-responses`, p.agent);
    await agent.page.getByRole('tab', { name: 'Canned responses' }).waitFor();
    // The role is read with the projects: once the tabs are final, the audit log is not among them.
    await expect.poll(() => agent.page.getByRole('tab').allInnerTexts()).toEqual(['Team', 'Departments', 'Bots', 'Knowledge bases', 'Webhooks', 'Canned responses', 'SLA policies']);
    await agent.page.goto(`${t.baseUrl}/console/projects/${p.projectId}/settings/audit`);
    await agent.page.getByRole('alert').getByText("The audit log is for the project's admins and owner.").waitFor();
    expect(await agent.page.getByTestId('audit').count()).toBe(0);
  }, 60_000);

  it("offers an agent neither a contact's export and erasure nor the retention policy (they are the admins')", async () => {
    const { requestId } = await visitorWrites('Please delete my account');
    const agent = await openConsole(`/console/projects/${p.projectId}/settings/privacy`, p.agent);
    await agent.page.getByRole('alert').getByText("Privacy and retention are for the project's admins and owner.").waitFor({ timeout: 15_000 });
    expect(await agent.page.getByRole('form', { name: 'Retention' }).count()).toBe(0);

    // The contact panel offers the actions once the role is read (with the projects): after that answer, and a render, they are absent.
    const roleRead = agent.page.waitForResponse((r) => r.url().endsWith('/graphql') && !!r.request().postData()?.includes('ConsoleProjects'));
    await agent.page.goto(`${t.baseUrl}/console/projects/${p.projectId}/conversations/${requestId}`);
    await roleRead;
    const contact = agent.page.getByRole('region', { name: 'Contact' });
    await contact.getByRole('button', { name: 'Edit contact' }).waitFor({ timeout: 15_000 });
    await agent.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await contact.getByRole('button', { name: 'Export data' }).count()).toBe(0);
    expect(await contact.getByRole('button', { name: 'Erase contact…' }).count()).toBe(0);
  }, 60_000);

  it('shows an agent the team read-only in Settings, without asking for the invitations an agent may not read', async () => {
    const agent = await openConsole(`/console/projects/${p.projectId}/settings/team`, p.agent);
    await agent.page.getByTestId('teammates').getByText(/owner Test/).waitFor();
    expect(await agent.page.getByText('Pending invitations').count()).toBe(0);
    expect(await agent.page.getByRole('form', { name: 'Invite' }).count()).toBe(0);
    expect(await agent.page.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0);
  }, 60_000);
});

describe('merging conversations from the console', () => {
  it('moves the other conversation\'s messages into this one, and the merged-away one points to it', async () => {
    const earlier = await visitorWrites('My parcel 4411 never arrived', 'It was due on Monday');
    const later = await visitorWrites('Any news about parcel 4411?');
    const agent = await openConsole(`/console/projects/${p.projectId}/conversations/${later.requestId}`, p.agent);
    await agent.page.getByTestId('message').first().waitFor({ timeout: 15_000 });

    await agent.page.getByRole('button', { name: 'Merge…' }).click();
    const dialog = agent.page.getByRole('dialog', { name: 'Merge conversations of this contact' });
    await dialog.getByRole('checkbox', { name: new RegExp(`#${earlier.ticket} My parcel 4411`) }).check();
    await agent.page.screenshot({ path: `${artifacts}operations-merge-dialog.png` });
    await dialog.getByRole('button', { name: 'Merge into this conversation' }).click();

    await agent.page.getByRole('status').getByText(`Merged #${earlier.ticket} into this conversation`).waitFor({ timeout: 15_000 });
    await expect
      .poll(() => agent.page.getByTestId('message').locator('.text').allInnerTexts(), { timeout: 15_000 })
      .toEqual(['My parcel 4411 never arrived', 'It was due on Monday', 'Any news about parcel 4411?']);
    await agent.page.screenshot({ path: `${artifacts}operations-merged.png` });

    // The contact panel lists the earlier one as merged; it opens on where it continues.
    const other = agent.page.getByRole('list', { name: 'Other conversations' }).getByRole('listitem').filter({ hasText: `#${earlier.ticket}` });
    await expect.poll(() => other.innerText(), { timeout: 15_000 }).toContain('merged');
    await other.getByRole('link').click();
    const pointer = agent.page.getByTestId('merged-into');
    await pointer.getByRole('link', { name: `#${later.ticket} My parcel 4411 never arrived` }).waitFor({ timeout: 15_000 });
    expect(await agent.page.getByTestId('status').innerText()).toBe('Closed (merged)');
    expect(await agent.page.getByRole('button', { name: 'Merge…' }).count()).toBe(0);
    await agent.page.screenshot({ path: `${artifacts}operations-merged-away.png` });
    await pointer.getByRole('link').click();
    await agent.page.waitForURL(`**/conversations/${later.requestId}`);
    await expect.poll(() => agent.page.getByTestId('message').count(), { timeout: 15_000 }).toBe(3);
  }, 120_000);

  it('says why a merge was refused, and changes nothing', async () => {
    const first = await visitorWrites('Invoice 77 is wrong');
    const second = await visitorWrites('About invoice 77 again');
    const agent = await openConsole(`/console/projects/${p.projectId}/conversations/${second.requestId}`, p.agent);
    await agent.page.getByTestId('message').first().waitFor({ timeout: 15_000 });
    await agent.page.getByRole('button', { name: 'Merge…' }).click();
    const dialog = agent.page.getByRole('dialog', { name: 'Merge conversations of this contact' });
    await dialog.getByRole('checkbox', { name: new RegExp(`#${first.ticket} Invoice 77`) }).check();
    // Meanwhile a teammate merged that conversation elsewhere.
    const elsewhere = await visitorWrites('Invoice 77, third time');
    expect((await t.post(`/v3/${p.projectId}/requests/${elsewhere.requestId}/merge`, { token: p.admin.token, body: { from: [first.requestId] } })).status).toBe(200);
    agent.expect(409);
    await dialog.getByRole('button', { name: 'Merge into this conversation' }).click();
    await dialog.getByRole('alert').getByText(/^Not merged: from: request .* was already merged into/).waitFor({ timeout: 15_000 });
    expect(await agent.page.getByTestId('message').locator('.text').allInnerTexts()).toEqual(['About invoice 77 again']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.isVisible()).toBe(false);
  }, 120_000);
});

describe('reports that lead to their conversations', () => {
  it("lists the conversations of a day when its bar is clicked, each opening the conversation", async () => {
    await visitorWrites('Where is my refund?');
    const today = new Date().toISOString().slice(0, 10);
    const listed = (await t.get(`/v3/${p.projectId}/requests?status=all&limit=100`, { token: p.owner.token })).body;
    const owner = await openConsole(`/console/projects/${p.projectId}/reports`, p.owner);
    const bar = owner.page.getByRole('region', { name: 'Conversations per day' }).getByRole('link', { name: `${today}: ${listed.count} conversation${listed.count === 1 ? '' : 's'}` });
    await bar.waitFor({ timeout: 15_000 });
    await bar.hover();
    await owner.page.screenshot({ path: `${artifacts}operations-reports.png`, fullPage: true });
    await bar.click();

    await owner.page.getByRole('heading', { name: `Conversations created on ${today}` }).waitFor();
    await owner.page.getByRole('status').getByText(`${listed.count} conversation${listed.count === 1 ? '' : 's'}.`).waitFor();
    const rows = owner.page.getByTestId('report-conversations').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(listed.count);
    // Oldest first, each with its state (after the merges above, the first one merged away).
    expect(await rows.last().innerText()).toMatch(/Where is my refund\?.*open/s);
    await owner.page.screenshot({ path: `${artifacts}operations-report-conversations.png`, fullPage: true });
    const phone = await openConsole(new URL(owner.page.url()).pathname + new URL(owner.page.url()).search, p.owner, { width: 390, height: 844 });
    await expect.poll(() => phone.page.getByTestId('report-conversations').locator('tbody tr').count(), { timeout: 15_000 }).toBe(listed.count);
    await phone.page.screenshot({ path: `${artifacts}operations-report-conversations-phone.png`, fullPage: true });
    await phone.context.close();
    await rows.filter({ hasText: 'Where is my refund?' }).getByRole('link').click();
    await expect.poll(() => owner.page.getByTestId('message').locator('.text').allInnerTexts(), { timeout: 15_000 }).toEqual(['Where is my refund?']);
  }, 120_000);

  it("opens an agent's conversations from the first-response chart with the keyboard", async () => {
    const { requestId } = await visitorWrites('Do you ship to Norway?');
    expect((await send(t, p.projectId, p.agent.token, requestId, { text: 'We do.' })).status).toBe(200);
    const owner = await openConsole(`/console/projects/${p.projectId}/reports`, p.owner);
    const bar = owner.page.getByRole('region', { name: 'First response time per agent' }).getByRole('link', { name: /^agent Test: \d+ answered conversations?/ });
    await bar.waitFor({ timeout: 15_000 });
    await bar.focus();
    await owner.page.keyboard.press('Enter');
    await owner.page.getByRole('heading', { name: 'Conversations of agent Test, created in the last 30 days' }).waitFor();
    await expect.poll(() => owner.page.getByTestId('report-conversations').innerText()).toContain('Do you ship to Norway?');
  }, 120_000);

  it('lists the conversations given a rating from its satisfaction bar, and those with messages on a day from its point', async () => {
    const { requestId } = await visitorWrites('The parcel came broken');
    const visitor = p.guest.token;
    expect((await t.request('PATCH', `/v3/${p.projectId}/requests/${requestId}/rating`, { token: visitor, body: { rating: 2 } })).status).toBe(200);
    const owner = await openConsole(`/console/projects/${p.projectId}/reports`, p.owner);
    const rated = owner.page.getByRole('region', { name: 'Satisfaction (CSAT)' }).getByRole('link', { name: /^Rated 2: \d+ conversations?$/ });
    await rated.waitFor({ timeout: 15_000 });
    await rated.click();
    await owner.page.getByRole('heading', { name: 'Conversations rated 2, created in the last 30 days' }).waitFor();
    await expect.poll(() => owner.page.getByTestId('report-conversations').innerText()).toContain('The parcel came broken');

    await owner.page.goto(`${t.baseUrl}/console/projects/${p.projectId}/reports`);
    const today = new Date().toISOString().slice(0, 10);
    const point = owner.page.getByRole('region', { name: 'Messages per day' }).getByRole('link', { name: new RegExp(`^${today}: \\d+ messages?$`) });
    await point.waitFor({ timeout: 15_000 });
    await point.click();
    await owner.page.getByRole('heading', { name: `Conversations with messages on ${today}` }).waitFor();
    await expect.poll(() => owner.page.getByTestId('report-conversations').innerText()).toContain('The parcel came broken');
  }, 120_000);

  it('downloads the conversations of the range as CSV, one row per conversation', async () => {
    const total = (await t.get(`/v3/${p.projectId}/requests?status=all&limit=1`, { token: p.owner.token })).body.count;
    const owner = await openConsole(`/console/projects/${p.projectId}/reports`, p.owner);
    const [download] = await Promise.all([owner.page.waitForEvent('download'), owner.page.getByRole('button', { name: 'Download CSV (one row per conversation)' }).click()]);
    const lines = readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('id,created,first_response_seconds,resolution_seconds,agent,department,tags,rating,sla_breached');
    expect(lines).toHaveLength(1 + total);
  }, 60_000);
});
