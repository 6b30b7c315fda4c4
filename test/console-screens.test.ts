import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestApp } from './helpers/app.js';
import { blockExternal, launchBrowser } from './helpers/browser.js';

// The console as a newcomer meets it, in real headless Chromium: sign up, create a project, set it
// up from the settings screens. Screenshots of each screen go to test/artifacts/ for review.

let t: TestApp;
let browser: Browser;
const artifacts = new URL('./artifacts/', import.meta.url).pathname;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  t = (await createTestServer()).client;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function newPage(viewport: { width: number; height: number }) {
  const page = await browser.newPage({ viewport });
  const { blocked } = await blockExternal(page);
  return { page, blocked };
}

/** Signs up a newcomer through the form (keyboard only) and creates their first project. */
async function newcomer(page: Page, project: string) {
  await page.goto(`${t.baseUrl}/console`);
  await page.getByRole('button', { name: 'New here? Create an account' }).click();
  await page.getByLabel('First name').focus();
  await page.keyboard.type('Nina');
  await page.keyboard.press('Tab');
  await page.keyboard.type(`nina.${Math.random().toString(36).slice(2)}@example.test`);
  await page.keyboard.press('Tab');
  await page.keyboard.type('correct horse battery');
  await page.keyboard.press('Enter');
  await page.getByLabel('New project name').fill(project);
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('tab', { name: /^Mine/ }).waitFor();
}

describe('agent console screens', () => {
  it('lets a newcomer sign up, create a project and set it up from the settings screens', async () => {
    const { page, blocked } = await newPage({ width: 1200, height: 800 });
    await newcomer(page, 'Newco');
    await expect.poll(() => page.getByTestId('inbox').innerText()).toContain('No conversations here.');
    await page.getByRole('link', { name: 'Settings' }).click();

    await page.getByRole('tab', { name: 'Bots' }).click();
    await page.getByRole('form', { name: 'Create bot' }).getByLabel('Name').fill('Ada');
    await page.getByRole('button', { name: 'Create bot' }).click();
    // The example template's intents are listed under the new bot.
    await page.getByText('opening_hours').waitFor({ timeout: 10_000 });
    await page.screenshot({ path: `${artifacts}console-bots.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Departments' }).click();
    await page.getByText('Default Department (default)').waitFor();
    await page.screenshot({ path: `${artifacts}console-departments.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Knowledge bases' }).click();
    await page.getByRole('form', { name: 'Create knowledge base' }).getByLabel('Name').fill('Help center');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByRole('heading', { name: 'Help center' }).waitFor();
    await page.screenshot({ path: `${artifacts}console-kb.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Canned responses' }).click();
    await page.getByLabel('Title').fill('Hello');
    await page.getByLabel(/^Text/).fill('Hi $recipient_name, I am $agent_name.');
    await page.getByRole('button', { name: 'Add canned response' }).click();
    await page.getByText('Hi $recipient_name, I am $agent_name.').waitFor();

    await page.getByRole('tab', { name: 'Team' }).click();
    await page.getByRole('form', { name: 'Invite' }).getByLabel('E-mail').fill('teammate@example.test');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByTestId('invitations').getByText('teammate@example.test · agent').waitFor();
    await page.screenshot({ path: `${artifacts}console-team.png`, fullPage: true });
    expect(blocked).toEqual([]);
    await page.close();
  }, 120_000);

  it('fits a phone-sized screen: the inbox, then the conversation alone', async () => {
    const { page } = await newPage({ width: 390, height: 800 });
    await newcomer(page, 'Pocket');
    const projectId = new URL(await page.getByRole('link', { name: 'Widget demo' }).getAttribute('href') ?? '', t.baseUrl).searchParams.get('project_id')!;
    const visitor = await newPage({ width: 390, height: 800 });
    await visitor.page.goto(`${t.baseUrl}/widget/demo?project_id=${projectId}`);
    await visitor.page.getByRole('button', { name: 'Chat with us' }).click();
    await visitor.page.getByLabel('Your message').fill('Hi from my phone');
    await visitor.page.getByRole('button', { name: 'Send' }).click();
    await visitor.page.getByTestId('widget-message').waitFor();
    await visitor.page.screenshot({ path: `${artifacts}widget-phone.png` });

    await page.getByRole('tab', { name: /^All open/ }).click();
    await page.getByTestId('inbox').getByText('Hi from my phone').click();
    await page.getByTestId('message').first().waitFor();
    // On a phone the conversation replaces the inbox, with a way back.
    expect(await page.getByTestId('inbox').isVisible()).toBe(false);
    await page.getByRole('button', { name: '← Inbox' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${artifacts}console-phone.png` });
    await visitor.page.close();
    await page.close();
  }, 120_000);
});
