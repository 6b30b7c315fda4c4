import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from '../helpers/app.js';
import { launchBrowser, watchPage, type WatchedPage } from '../helpers/browser.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { waitForStatus } from '../helpers/kb-fixtures.js';

// A bot answering from a knowledge base, as the visitor sees it in real headless Chromium: the
// widget shows the answer growing while the model (a local OpenAI-compatible server streaming
// server-sent events) still writes it, then the finished message in its place. The page fails on
// a console error, an uncaught error, a failed request or a request off this machine.

let llm: FakeOpenAI;
let node: Awaited<ReturnType<typeof createTestServer>>;
let t: TestApp;
let p: SeededProject;
let browser: Browser;
let visitor: WatchedPage;

beforeAll(async () => {
  llm = await startFakeOpenAI();
  node = await createTestServer({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'sk-test', LLM_MODEL: 'house-model' });
  t = node.client;
  p = await t.seedProject('Widget stream');
  const ns = (await t.post(`/v3/${p.projectId}/kb/namespace`, { token: p.admin.token, body: { name: 'Shop' } })).body.id as string;
  const content = await t.post(`/v3/${p.projectId}/kb`, {
    token: p.admin.token,
    body: { namespace: ns, type: 'faq', name: 'Returns', content: 'Are returns free?\nReturns are free within thirty days of delivery.' },
  });
  await waitForStatus(t, p.projectId, p.admin.token, content.body.value._id, 300);
  const bot = await t.post(`/v3/${p.projectId}/bots`, { token: p.admin.token, body: { name: 'Kim', template: 'blank', kb_namespace: ns } });
  const routed = await t.put(`/v3/${p.projectId}/departments/default`, { token: p.owner.token, body: { name: 'Default Department', id_bot: bot.body._id } });
  expect(routed.body).toMatchObject({ id_bot: bot.body._id });
  browser = await launchBrowser();
  visitor = await watchPage(await (await browser.newContext({ viewport: { width: 420, height: 760 } })).newPage());
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await llm?.close();
});

it('shows the visitor a bot\'s knowledge answer growing as the model writes it, then the finished message', async () => {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  // The model sends its first piece, then holds the rest until the test has seen it on screen.
  llm.onChat = (body) => (body.stream ? { pieces: ['Yes, returns ', 'are free ', 'for thirty days ', '[1]', '.'], hold } : { content: 'Hello' });
  const { page } = visitor;
  await page.goto(`${t.baseUrl}/widget/demo?project_id=${p.projectId}`);
  await page.getByRole('button', { name: 'Chat with us' }).click();
  await expect.poll(() => page.getByTestId('widget-user').innerText(), { timeout: 20_000 }).not.toBe('Signing in…');
  const say = async (text: string) => {
    await page.getByLabel('Your message').fill(text);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
  };
  // The bot greets the conversation's first message; the question comes after.
  await say('Hello');
  await expect.poll(() => page.getByTestId('widget-message').allInnerTexts(), { timeout: 20_000 }).toContainEqual(expect.stringContaining('Kim'));
  await say('Are returns free?');

  const draft = page.getByTestId('widget-draft');
  // Partial: the first piece is on screen while the model has not written the rest.
  await expect.poll(() => draft.allInnerTexts(), { timeout: 20_000 }).toEqual(['Yes, returns']);
  expect(await page.getByTestId('widget-message').allInnerTexts()).not.toContainEqual(expect.stringContaining('Yes, returns'));
  expect(llm.chatRequests.filter((r) => r.stream)).toHaveLength(1);

  release();
  // The finished answer is the bot's message, and the draft it replaces is gone.
  await expect
    .poll(() => page.getByTestId('widget-message').allInnerTexts(), { timeout: 20_000 })
    .toContainEqual(expect.stringContaining('Yes, returns are free for thirty days.'));
  await expect.poll(() => draft.count(), { timeout: 5_000 }).toBe(0);
  expect(visitor.problems).toEqual([]);
}, 90_000);
