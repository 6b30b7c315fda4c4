import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestApp } from '../helpers/app.js';
import { launchBrowser, watchPage, type WatchedPage } from '../helpers/browser.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';

// A support team's first day, in real headless Chromium against one server, with nothing typed
// into curl: the owner signs up and invites a teammate who joins through the e-mailed link; a
// visitor writes and the agent sees it where the inbox opens; replies cross both ways; a bot on
// the default department answers; a knowledge base learns a text and answers a test question;
// the conversation is closed, rated, reopened and goes on; a reload keeps the place; availability
// changes reach the other agent live; GraphiQL shows the schema; the widget says when the team is
// away. Each scenario builds on the one before, as a day does. Every page fails its scenario on a
// console error, an uncaught error, a failed request or an error status it did not expect.
// Screenshots (desktop and a 390 px phone) go to test/artifacts/first-day-*.png.

let t: TestApp;
let smtp: SmtpSink;
let browser: Browser;
const artifacts = new URL('../artifacts/', import.meta.url).pathname;

interface Watched extends WatchedPage {
  context: BrowserContext;
}

const opened: Watched[] = [];

async function open(viewport = { width: 1280, height: 860 }): Promise<Watched> {
  const context = await browser.newContext({ viewport });
  const watched = Object.assign(await watchPage(await context.newPage()), { context });
  opened.push(watched);
  return watched;
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${artifacts}first-day-${name}.png` });
}

/** The same address at a phone's width (390 px), signed in as the desktop page is. */
async function phoneShot(from: Page, name: string, ready: (page: Page) => Promise<unknown>) {
  const auth = await from.evaluate(() => localStorage.getItem('support-console:auth'));
  const phone = await open({ width: 390, height: 844 });
  await phone.context.addInitScript((value) => value && localStorage.setItem('support-console:auth', value), auth);
  await phone.page.goto(from.url());
  await ready(phone.page);
  await shot(phone.page, `${name}-phone`);
  expect(phone.problems).toEqual([]);
  await phone.context.close();
}

const ann = { email: `ann.${Date.now()}@acme.test`, password: 'ann has a long password', name: 'Ann' };
const bob = { email: `bob.${Date.now()}@acme.test`, password: 'bob has a long password', name: 'Bob' };
let owner: Watched;
let agent: Watched;
let visitor: Watched;
let projectId: string;

const inbox = (page: Page) => page.getByTestId('inbox');
const consoleMessages = (page: Page) => page.getByTestId('message').allInnerTexts();
const widgetMessages = (page: Page) => page.getByTestId('widget-message').allInnerTexts();
const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });
const countOf = async (page: Page, view: string) => (await tab(page, view).locator('.count').innerText()).trim();

async function openWidget(viewport = { width: 420, height: 760 }) {
  const w = await open(viewport);
  await w.page.goto(`${t.baseUrl}/widget/demo?project_id=${projectId}`);
  await w.page.getByRole('button', { name: 'Chat with us' }).click();
  await expect.poll(() => w.page.getByTestId('widget-user').innerText(), { timeout: 20_000 }).not.toBe('Signing in…');
  return w;
}

async function visitorSays(page: Page, text: string) {
  await page.getByLabel('Your message').fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

async function agentSays(page: Page, text: string) {
  await page.getByLabel('Reply', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

async function settings(page: Page, section: string) {
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: section }).click();
}

/**
 * How long after `act` (run in `from`) the text `text` appears in `where` of `page`, measured in the
 * browser (both pages share its clock): a MutationObserver notes the moment it is rendered, so the
 * test's own polling adds nothing. Waits up to `timeoutMs` for it.
 */
async function timeToScreen(page: Page, where: string, text: string, from: Page, act: () => Promise<void>, timeoutMs = 10_000) {
  await page.evaluate(
    ([selector, wanted]) => {
      const w = window as unknown as { shownAt?: number };
      delete w.shownAt;
      const check = () => {
        if (w.shownAt === undefined && document.querySelector(selector)?.textContent?.includes(wanted)) w.shownAt = Date.now();
      };
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
      check();
    },
    [where, text] as const,
  );
  const startedAt = await from.evaluate(() => Date.now());
  await act();
  const shownAt = await expect
    .poll(() => page.evaluate(() => (window as unknown as { shownAt?: number }).shownAt), { timeout: timeoutMs })
    .toBeTypeOf('number')
    .then(() => page.evaluate(() => (window as unknown as { shownAt: number }).shownAt));
  return shownAt - startedAt;
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  smtp = await startSmtpSink();
  t = (await createTestServer({ SMTP_URL: smtp.url, EVENT_SWEEP_INTERVAL: '200ms' })).client;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await smtp?.close();
});

describe("a support team's first day in the browser", () => {
  it('an owner signs up, creates a project and invites a teammate, who joins through the e-mailed link', async () => {
    owner = await open();
    const { page } = owner;
    await page.goto(`${t.baseUrl}/console`);
    await page.getByRole('button', { name: 'New here? Create an account' }).click();
    await page.getByLabel('First name').fill(ann.name);
    await page.getByLabel('E-mail').fill(ann.email);
    await page.getByLabel('Password').fill(ann.password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('New project name').fill('Acme Support');
    await page.getByRole('button', { name: 'Create project' }).click();
    // The inbox opens on the owner's own conversations, with every view's count.
    await expect.poll(() => tab(page, 'Mine').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => countOf(page, 'Mine')).toBe('0');
    projectId = new URL(page.url()).pathname.split('/')[3];
    expect(page.url()).toBe(`${t.baseUrl}/console/projects/${projectId}`);
    // Her own presence is right at once: online and available, with no reload.
    const me = page.getByTestId('team').locator('li', { hasText: ann.name });
    await expect.poll(() => me.innerText(), { timeout: 5_000 }).toContain('online · available');

    await settings(page, 'Team');
    await page.getByRole('form', { name: 'Invite' }).getByLabel('E-mail').fill(bob.email);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText(`Invitation e-mailed to ${bob.email}.`).waitFor();
    await shot(page, 'team');

    const mail = await smtp.mailTo(bob.email, (m) => m.subject.startsWith('You are invited'));
    const link = new URL(mail.links.find((l) => l.includes('/invitations/'))!);
    agent = await open();
    await agent.page.goto(`${t.baseUrl}${link.pathname}${link.search}`);
    await agent.page.getByRole('heading', { name: 'You are invited to join a team' }).waitFor();
    await agent.page.getByLabel('First name').fill(bob.name);
    await agent.page.getByLabel('Choose a password').fill(bob.password);
    await shot(agent.page, 'invitation');
    await agent.page.getByRole('button', { name: 'Join the team' }).click();
    await agent.page.getByRole('link', { name: /Acme Support/ }).click();
    await tab(agent.page, 'Mine').waitFor();
    // Ann's screens learn that Bob joined, with no reload.
    await page.getByTestId('teammates').getByText(bob.name).waitFor({ timeout: 5_000 });
    await owner.page.getByRole('link', { name: 'Inbox' }).click();
    await owner.page.getByTestId('team').getByText(bob.name).waitFor({ timeout: 5_000 });
    expect(owner.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
  }, 120_000);

  it("shows a teammate's availability change to the other agent within a second", async () => {
    await owner.page.getByRole('link', { name: 'Inbox' }).click();
    const bobOnAnnsScreen = owner.page.getByTestId('team').locator('li', { hasText: bob.name });
    await expect.poll(() => bobOnAnnsScreen.innerText(), { timeout: 5_000 }).toContain('online · available');
    const bobId = JSON.parse((await agent.page.evaluate(() => localStorage.getItem('support-console:auth')))!).userId;
    const took = await timeToScreen(owner.page, `[data-testid=team] li[data-teammate="${bobId}"]`, 'unavailable', agent.page, () => agent.page.getByRole('switch').click());
    expect(took).toBeLessThan(1_000);
    await expect.poll(() => bobOnAnnsScreen.innerText()).toContain('unavailable');
    expect(owner.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
  }, 60_000);

  it("a visitor writes and the agent sees it in the view the inbox opens on, within a second, with the count", async () => {
    await owner.page.getByRole('link', { name: 'Inbox' }).click();
    await tab(owner.page, 'Mine').waitFor();
    visitor = await openWidget();
    await visitor.page.getByLabel('Your message').fill('Hello, my parcel is late');
    const took = await timeToScreen(owner.page, '[data-testid=inbox]', 'Hello, my parcel is late', visitor.page, () =>
      visitor.page.getByRole('button', { name: 'Send', exact: true }).click(),
    );
    expect(took).toBeLessThan(1_000);
    await expect.poll(() => countOf(owner.page, 'Mine')).toBe('1');
    await expect.poll(() => countOf(owner.page, 'All open')).toBe('1');
    await shot(owner.page, 'inbox');
    await phoneShot(owner.page, 'inbox', (p) => inbox(p).getByText('Hello, my parcel is late').waitFor());
    expect(visitor.problems).toEqual([]);
    expect(owner.problems).toEqual([]);
  }, 60_000);

  it('carries replies both ways, and the conversation has its own address', async () => {
    await inbox(owner.page).getByText('Hello, my parcel is late').click();
    await expect.poll(() => consoleMessages(owner.page)).toEqual([expect.stringContaining('Hello, my parcel is late')]);
    expect(new URL(owner.page.url()).pathname).toMatch(new RegExp(`^/console/projects/${projectId}/conversations/support-group-`));
    await agentSays(owner.page, 'Sorry about that! Let me check.');
    await expect.poll(() => widgetMessages(visitor.page), { timeout: 5_000 }).toContainEqual(expect.stringContaining('Sorry about that! Let me check.'));
    await visitorSays(visitor.page, 'Thanks, order 1234');
    await expect.poll(() => consoleMessages(owner.page), { timeout: 5_000 }).toContainEqual(expect.stringContaining('Thanks, order 1234'));
    await shot(owner.page, 'conversation');
    await shot(visitor.page, 'widget');
    expect(visitor.problems).toEqual([]);
    expect(owner.problems).toEqual([]);
  }, 60_000);

  it('shows tags in the conversation and the list, and removes them', async () => {
    const { page } = owner;
    await page.getByLabel('Add a tag').fill('vip');
    await page.getByRole('complementary', { name: 'Details' }).getByRole('button', { name: 'Add' }).first().click();
    await page.getByRole('list', { name: 'Tags' }).getByText('vip').waitFor();
    await inbox(page).locator('.chip', { hasText: 'vip' }).waitFor({ timeout: 5_000 });
    await page.getByRole('button', { name: 'Remove tag vip' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Tags' }).innerText()).toContain('None');
    await expect.poll(() => inbox(page).locator('.chip', { hasText: 'vip' }).count(), { timeout: 5_000 }).toBe(0);
    expect(owner.problems).toEqual([]);
  }, 60_000);

  it('keeps the place on a reload: the conversation opens again from its address', async () => {
    const address = owner.page.url();
    await owner.page.reload();
    await expect.poll(() => consoleMessages(owner.page), { timeout: 10_000 }).toContainEqual(expect.stringContaining('Thanks, order 1234'));
    expect(owner.page.url()).toBe(address);
    // A shared link opens it for another signed-in teammate too (Bob is an agent of the project).
    expect(owner.problems).toEqual([]);
  }, 60_000);

  it('closes, takes a rating with its comment, reopens, and the visitor writes again', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => page.getByTestId('status').innerText()).toBe('Closed');
    await visitor.page.getByRole('button', { name: '4 out of 5' }).click({ timeout: 10_000 });
    await visitor.page.getByLabel('A comment (optional)').fill('Quick help');
    await visitor.page.getByRole('button', { name: 'Send rating' }).click();
    await visitor.page.getByText('Thank you for your rating!').waitFor();
    // The rating reaches the console with no reload.
    await expect.poll(() => page.getByTestId('rating').innerText().catch(() => ''), { timeout: 5_000 }).toContain('4/5');
    expect(await page.getByTestId('rating').innerText()).toContain('Quick help');
    // What happened is in the conversation's timeline, between its messages.
    await expect.poll(() => page.getByTestId('timeline').allInnerTexts(), { timeout: 5_000 }).toEqual(
      expect.arrayContaining([expect.stringContaining(`Closed by ${ann.name}`), expect.stringContaining('Rated 4/5')]),
    );
    await shot(page, 'rated');

    await page.getByRole('button', { name: 'Reopen' }).click();
    await visitor.page.getByLabel('Your message').waitFor({ timeout: 10_000 });
    await visitorSays(visitor.page, 'One more thing: can I change the address?');
    await expect.poll(() => consoleMessages(page), { timeout: 5_000 }).toContainEqual(expect.stringContaining('One more thing'));
    await expect.poll(() => page.getByTestId('timeline').allInnerTexts()).toContainEqual(expect.stringContaining(`Reopened by ${ann.name}`));
    expect(visitor.problems).toEqual([]);
    expect(owner.problems).toEqual([]);
  }, 60_000);

  it('fits the conversation on a 390 px phone: its actions and the reply box are on screen', async () => {
    const auth = await owner.page.evaluate(() => localStorage.getItem('support-console:auth'));
    const phone = await open({ width: 390, height: 844 });
    await phone.context.addInitScript((value) => value && localStorage.setItem('support-console:auth', value), auth);
    await phone.page.goto(owner.page.url());
    await phone.page.getByTestId('message').first().waitFor();
    for (const control of [phone.page.getByRole('button', { name: 'Close', exact: true }), phone.page.getByRole('button', { name: 'Send', exact: true })]) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    const widest = await phone.page.evaluate(() => Math.max(...[...document.querySelectorAll('.message')].map((m) => m.getBoundingClientRect().right)));
    expect(widest).toBeLessThanOrEqual(390);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone.page, 'conversation-phone');
    expect(phone.problems).toEqual([]);
    await phone.context.close();
  }, 60_000);

  it('opens the widget again on the newest message after a reload', async () => {
    await visitor.page.reload();
    await visitor.page.getByRole('button', { name: 'Chat with us' }).click();
    const newest = visitor.page.getByTestId('widget-message').last();
    await expect.poll(() => newest.innerText(), { timeout: 10_000 }).toContain('One more thing');
    await expect.poll(() => newest.evaluate((el) => {
      const list = el.parentElement!.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return box.bottom <= list.bottom + 1 && box.top >= list.top - 1;
    })).toBe(true);
    expect(visitor.problems).toEqual([]);
    await visitor.context.close();
  }, 60_000);

  it('lets a bot on the default department answer a visitor', async () => {
    const { page } = owner;
    await settings(page, 'Bots');
    await page.getByRole('form', { name: 'Create bot' }).getByLabel('Name').fill('Ada');
    await page.getByRole('form', { name: 'Create bot' }).getByLabel('Template').selectOption('blank');
    await page.getByRole('button', { name: 'Create bot' }).click();
    await page.getByRole('heading', { name: /Ada/ }).waitFor();
    const intent = page.getByRole('form', { name: 'Add intent' });
    await intent.getByLabel('Bot').selectOption({ label: 'Ada' });
    await intent.getByLabel('Question').fill('What are your opening hours?');
    await intent.getByLabel(/^Answer/).fill('We are open from 9 to 5, Monday to Friday.');
    await page.getByRole('button', { name: 'Add intent' }).click();
    await page.getByText('We are open from 9 to 5, Monday to Friday.').waitFor();
    await shot(page, 'bots');

    await page.getByRole('tab', { name: 'Departments' }).click();
    await page.getByLabel('Bot of Default Department').selectOption({ label: 'Ada' });
    await page.getByText('Default Department (default) · routing', { exact: false }).locator('..').getByText('bot Ada').waitFor({ timeout: 5_000 });
    await shot(page, 'departments');

    const asker = await openWidget();
    await visitorSays(asker.page, 'What are your opening hours?');
    await expect.poll(() => widgetMessages(asker.page), { timeout: 10_000 }).toContainEqual(expect.stringContaining('We are open from 9 to 5'));
    await shot(asker.page, 'widget-bot');
    expect(asker.problems).toEqual([]);
    await asker.context.close();
    // The default department goes back to the team for the scenarios that follow.
    await page.getByLabel('Bot of Default Department').selectOption({ label: 'no bot' });
    await expect.poll(() => page.getByText('bot Ada').count()).toBe(0);
    expect(owner.problems).toEqual([]);
  }, 90_000);

  it('answers a question asked before the conversation was re-routed to a department with a bot', async () => {
    const { page } = owner;
    await page.getByRole('form', { name: 'Add department' }).getByLabel('Name').fill('Bot desk');
    await page.getByRole('form', { name: 'Add department' }).getByLabel('Bot').selectOption({ label: 'Ada' });
    await page.getByRole('button', { name: 'Add department' }).click();
    await page.getByText(/Bot desk · routing/).waitFor();

    const asker = await openWidget();
    await visitorSays(asker.page, 'What are your opening hours?');
    await page.getByRole('link', { name: 'Inbox' }).click();
    await inbox(page).getByText('What are your opening hours?').click();
    await page.getByLabel('Assign to').selectOption({ label: 'Bot desk' });
    await page.getByText('Routed to Bot desk').waitFor();
    await expect.poll(() => page.getByTestId('department').innerText(), { timeout: 5_000 }).toBe('Bot desk');
    await expect.poll(() => page.getByTestId('timeline').allInnerTexts(), { timeout: 5_000 }).toContainEqual(expect.stringContaining(`${ann.name} routed the conversation to Bot desk`));
    await expect.poll(() => widgetMessages(asker.page), { timeout: 10_000 }).toContainEqual(expect.stringContaining('We are open from 9 to 5'));
    await expect.poll(() => consoleMessages(page), { timeout: 5_000 }).toContainEqual(expect.stringContaining('We are open from 9 to 5'));
    await shot(page, 'rerouted');
    expect(asker.problems).toEqual([]);
    await asker.context.close();
    expect(owner.problems).toEqual([]);
  }, 90_000);

  it('indexes a text added to a knowledge base in the console and answers a test question from it', async () => {
    const { page } = owner;
    await settings(page, 'Knowledge bases');
    await page.getByRole('form', { name: 'Create knowledge base' }).getByLabel('Name').fill('Help center');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    const kb = page.getByRole('region', { name: 'Help center' });
    await kb.waitFor();
    await kb.getByRole('radio', { name: 'Text' }).check();
    await kb.getByLabel('Title').fill('Returns');
    await kb.getByRole('textbox', { name: 'Text' }).fill('You can return any item within 30 days of delivery for a full refund. Refunds reach your card in 5 business days.');
    await kb.getByRole('button', { name: 'Add', exact: true }).click();
    await kb.getByTestId('kb-contents').getByText('indexed').waitFor({ timeout: 20_000 });
    await kb.getByRole('textbox', { name: 'Test question' }).fill('How many days do I have to return an item?');
    await kb.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => kb.getByRole('status', { name: 'Answer' }).innerText(), { timeout: 10_000 }).toContain('30 days');
    await shot(page, 'knowledge-base');
    await phoneShot(page, 'knowledge-base', (p) => p.getByRole('region', { name: 'Help center' }).getByText('indexed').waitFor());
    expect(owner.problems).toEqual([]);
  }, 90_000);

  it('refuses a webhook target the outbound rules refuse, saying why', async () => {
    const { page } = owner;
    await settings(page, 'Webhooks');
    await page.getByLabel('Target URL').fill('http://127.0.0.1:9/hook');
    owner.expect(400);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/target.*loopback/i);
    await shot(page, 'webhooks');
    expect(owner.problems).toEqual([]);
  }, 60_000);

  it('shows GraphiQL with the schema in its docs', async () => {
    const g = await open();
    await g.page.goto(`${t.baseUrl}/graphql`);
    await g.page.getByRole('button', { name: /Show Documentation Explorer/i }).click({ timeout: 60_000 });
    await g.page.getByText('Root Types').waitFor({ timeout: 20_000 });
    await g.page.getByRole('button', { name: 'Query' }).or(g.page.getByText('query: Query')).first().waitFor();
    expect(await g.page.getByText('Error fetching schema').count()).toBe(0);
    await shot(g.page, 'graphiql');
    expect(g.problems).toEqual([]);
    await g.context.close();
  }, 90_000);

  it('says in the widget that the team is away, and takes the visitor\'s e-mail with their message', async () => {
    // Both agents unavailable: nobody will answer now.
    await owner.page.getByRole('link', { name: 'Inbox' }).click();
    await owner.page.getByRole('switch').click();
    await expect.poll(() => owner.page.getByRole('switch').isChecked()).toBe(false);
    const away = await openWidget();
    await away.page.getByText('The team is away right now').waitFor({ timeout: 10_000 });
    await away.page.getByLabel('Your e-mail').fill('carla@example.test');
    await visitorSays(away.page, 'Please call me back about my invoice');
    await shot(away.page, 'widget-away');
    await owner.page.getByRole('tab', { name: /^Unassigned/ }).click();
    await inbox(owner.page).getByText('Please call me back about my invoice').waitFor({ timeout: 10_000 });
    await inbox(owner.page).getByText('carla@example.test').waitFor();
    expect(away.problems).toEqual([]);
    await away.context.close();
    await owner.page.getByRole('switch').click();
    expect(owner.problems).toEqual([]);
    expect(agent.problems).toEqual([]);
  }, 60_000);
});
