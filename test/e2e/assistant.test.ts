import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from '../helpers/app.js';
import { launchBrowser, OpenedPages, type OpenedPage } from '../helpers/browser.js';
import { eventually, newRequestId, onlyAvailable, send } from '../helpers/conversations.js';
import { consumerCaughtUp } from '../helpers/event-consumers.js';

// The agent's assistant in the console, in real headless Chromium: suggested replies above the
// composer (learned from the project's closed conversations) inserted with a click or Alt+1 for
// editing, refreshed when the visitor writes, the conversation's summary at the top, and the gap
// report of Settings → Knowledge bases, where an admin accepts a proposal as FAQ content. Every page
// fails its scenario on a console error, an uncaught error or a failed request. Screenshots at
// desktop and 390 px go to test/artifacts/assistant-*.png.

let t: TestApp;
let p: SeededProject;
let browser: Browser;
const artifacts = new URL('../artifacts/', import.meta.url).pathname;
const resetAnswer = 'Open Settings, then Security, and press Reset password: a link arrives by e-mail.';
const parcelAnswer = 'Parcels ship within two days; the tracking link is in your order e-mail.';

const pages = new OpenedPages(() => browser);

const openConsole = (path: string, viewport?: { width: number; height: number }, as: { token: string; userId: string } = p.agent): Promise<OpenedPage> =>
  pages.console(`${t.baseUrl}${path}`, { ...as, name: as === p.agent ? 'Agent' : 'Admin' }, { viewport });

/** A conversation the agent answered, tagged and closed: what the assistant learns from. */
async function resolved(question: string, answer: string, tag: string) {
  const requestId = newRequestId();
  await send(t, p.projectId, p.guest.token, requestId, { text: question });
  expect((await send(t, p.projectId, p.agent.token, requestId, { text: answer })).status).toBe(200);
  await t.put(`/v3/${p.projectId}/requests/${requestId}/tag`, { token: p.agent.token, body: { tag } });
  await t.put(`/v3/${p.projectId}/requests/${requestId}/close`, { token: p.agent.token });
}

const suggestionTexts = (page: Page) => page.getByTestId('suggestions').locator('.assistant-text').allInnerTexts();
const shot = (page: Page, name: string) => page.screenshot({ path: `${artifacts}assistant-${name}.png` });

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  t = (await createTestServer()).client;
  p = await t.seedProject('Assistant console');
  await onlyAvailable(t, p, [p.agent]);
  await resolved('How do I reset my password?', resetAnswer, 'account');
  await resolved('Where is my parcel? It has not arrived', parcelAnswer, 'shipping');
  await eventually(() => consumerCaughtUp(t, 'assistant-history', p.projectId), 20_000);
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await pages.close();
  await browser?.close();
  await t?.close();
});

describe('the assistant in the conversation view', () => {
  it('shows suggestions above the composer; a click inserts one for editing, Alt+1 too; they follow the visitor', async () => {
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Hello, I forgot my password. How can I reset it?' });
    const agent = await openConsole(`/console/projects/${p.projectId}/conversations/${requestId}`);
    const { page } = agent;
    await expect.poll(() => suggestionTexts(page), { timeout: 15_000 }).toContain(resetAnswer);
    await expect.poll(() => page.getByTestId('suggestions').innerText()).toContain('Suggested tags: account');
    await shot(page, 'suggestions-desktop');

    await page.getByRole('button', { name: new RegExp(resetAnswer.slice(0, 20)) }).click();
    const reply = page.getByLabel('Reply', { exact: true });
    await expect.poll(() => reply.inputValue()).toBe(resetAnswer);
    await reply.press('End');
    await reply.pressSequentially(' Anything else?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.getByTestId('message').allInnerTexts(), { timeout: 10_000 }).toEqual(
      expect.arrayContaining([expect.stringContaining(`${resetAnswer} Anything else?`)]),
    );

    // The visitor writes again: the suggestions are read again for the new question.
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Yes: my parcel has not arrived yet' });
    await expect.poll(() => suggestionTexts(page), { timeout: 15_000 }).toContain(parcelAnswer);
    await page.keyboard.press('Alt+Digit1');
    await expect.poll(() => reply.inputValue()).toBe((await suggestionTexts(page))[0]);
    expect(agent.problems).toEqual([]);

    const phone = await openConsole(`/console/projects/${p.projectId}/conversations/${requestId}`, { width: 390, height: 844 });
    await expect.poll(() => suggestionTexts(phone.page), { timeout: 15_000 }).toContain(parcelAnswer);
    await shot(phone.page, 'suggestions-phone');
    expect(phone.problems).toEqual([]);
  }, 120_000);

  it('shows the summary at the top of the conversation once asked for', async () => {
    const requestId = newRequestId();
    await send(t, p.projectId, p.guest.token, requestId, { text: 'Hi. My parcel arrived broken, the screen is cracked. I want a new one.' });
    const { page, problems } = await openConsole(`/console/projects/${p.projectId}/conversations/${requestId}`);
    const summary = page.getByTestId('summary');
    await summary.getByRole('button', { name: 'Summarise' }).click();
    await expect.poll(() => summary.innerText(), { timeout: 10_000 }).toContain('"My parcel arrived broken, the screen is cracked."');
    expect(await summary.innerText()).toContain('Extractive');
    await shot(page, 'summary-desktop');
    expect(problems).toEqual([]);

    const phone = await openConsole(`/console/projects/${p.projectId}/conversations/${requestId}`, { width: 390, height: 844 });
    await expect.poll(() => phone.page.getByTestId('summary').innerText(), { timeout: 10_000 }).toContain('the screen is cracked');
    await shot(phone.page, 'summary-phone');
    expect(phone.problems).toEqual([]);
  }, 90_000);
});

describe('the knowledge loop in Settings', () => {
  const shippingQuestion = 'Do you ship to Norway?';
  const shippingAnswer = 'Yes: we ship to Norway, delivery takes 5 to 7 working days.';

  it('lists the most asked unanswered question; an admin accepts it and the knowledge base answers it', async () => {
    await resolved(shippingQuestion, shippingAnswer, 'shipping');
    await resolved('Hello, do you deliver to Norway?', shippingAnswer, 'shipping');
    await eventually(() => consumerCaughtUp(t, 'assistant-gaps', p.projectId), 20_000);

    const phone = await openConsole(`/console/projects/${p.projectId}/settings/knowledge-bases`, { width: 390, height: 844 }, p.admin);
    await expect.poll(() => phone.page.getByTestId('kb-gaps').innerText(), { timeout: 15_000 }).toContain(shippingQuestion);
    await shot(phone.page, 'gaps-phone');
    expect(phone.problems).toEqual([]);

    const { page, problems } = await openConsole(`/console/projects/${p.projectId}/settings/knowledge-bases`, undefined, p.admin);
    const gap = page.getByTestId('kb-gaps').getByRole('listitem', { name: shippingQuestion });
    await expect.poll(() => gap.innerText(), { timeout: 15_000 }).toContain('asked 2 times');
    expect(await gap.innerText()).toContain(shippingAnswer);
    await shot(page, 'gaps-desktop');

    await gap.getByRole('button', { name: 'Edit' }).click();
    const answer = gap.getByLabel('Answer');
    await answer.fill(`${shippingAnswer} Customs are included.`);
    await gap.getByRole('button', { name: 'Accept as FAQ' }).click();
    await expect.poll(() => page.getByTestId('kb-gaps').innerText(), { timeout: 10_000 }).not.toContain(shippingQuestion);
    // The new FAQ is in the default knowledge base's contents and gets indexed.
    await expect.poll(() => page.getByTestId('kb-contents').first().innerText(), { timeout: 20_000 }).toMatch(/Do you ship to Norway\? · faq · indexed/);
    expect(problems).toEqual([]);

    const asked = await t.post(`/v3/${p.projectId}/kb/qa`, { token: p.admin.token, body: { question: shippingQuestion } });
    expect(asked.body.success).toBe(true);
    expect(asked.body.answer).toContain('Customs are included.');
  }, 120_000);
});
