import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type SeededProject, type TestApp } from './helpers/app.js';
import { blockExternal, launchBrowser } from './helpers/browser.js';

// GraphiQL at /graphql, opened in real headless Chromium with every request off this machine
// refused: the page must come whole from the server, and its queries and subscriptions must
// carry the credentials set in its header editor.

let t: TestApp;
let p: SeededProject;
let browser: Browser;

beforeAll(async () => {
  const node = await createTestServer();
  t = node.client;
  p = await t.seedProject('Pages');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Replaces the text of a GraphiQL editor as a user would (select all, then type it in). */
async function fill(page: Page, editor: string, text: string) {
  await page.locator(editor).first().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // Inserted as one input, as a paste is: the editor adds no closing brackets or quotes of its own.
  await page.keyboard.insertText(text);
}

/** Opens GraphiQL and types `query` and the caller's Authorization header into its editors. */
async function openGraphiql(query: string, token: string): Promise<{ page: Page; blocked: string[] }> {
  const page = await browser.newPage();
  const { blocked } = await blockExternal(page);
  await page.goto(`${t.baseUrl}/graphql`, { waitUntil: 'load' });
  await page.locator('.graphiql-execute-button').waitFor({ timeout: 60_000 });
  await fill(page, '.graphiql-query-editor .monaco-editor', query);
  await page.getByRole('button', { name: 'Headers' }).click();
  await fill(page, '.monaco-editor[data-uri$="headers.json"]', JSON.stringify({ Authorization: token }));
  return { page, blocked };
}

const responseText = (page: Page) => page.locator('.graphiql-response').innerText();

describe('GraphiQL at /graphql', () => {
  it('renders and runs a query with the header editor\'s credentials, fetching nothing from outside', async () => {
    const { page, blocked } = await openGraphiql(`{ project(project_id: "${p.projectId}") { name } }`, p.agent.token);
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => responseText(page), { timeout: 30_000 }).toContain('"Pages"');
    expect(blocked).toEqual([]);
    await page.close();
  }, 120_000);

  it('runs a subscription over the websocket with the header editor\'s credentials and shows its events', async () => {
    const { page, blocked } = await openGraphiql(`subscription { projectEvents(project_id: "${p.projectId}", after: 0) { seq name } }`, p.agent.token);
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => responseText(page), { timeout: 30_000 }).toContain('"seq"');
    expect(await responseText(page)).not.toContain('authentication required');
    expect(blocked).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows the schema in its documentation explorer (the standard introspection query passes the limits)', async () => {
    const page = await browser.newPage();
    const { blocked } = await blockExternal(page);
    await page.goto(`${t.baseUrl}/graphql`, { waitUntil: 'load' });
    await page.locator('.graphiql-sidebar button[aria-label="Show Documentation Explorer"]').click();
    const explorer = page.locator('.graphiql-doc-explorer');
    await explorer.locator('.graphiql-doc-explorer-root-type', { hasText: 'Query' }).first().waitFor({ timeout: 30_000 });
    await expect.poll(() => explorer.innerText()).toContain('subscription: Subscription');
    expect(await explorer.innerText()).not.toContain('Error fetching schema');
    // Into the schema: the root type lists its fields.
    await explorer.getByText('Query', { exact: true }).first().click();
    await expect.poll(() => explorer.innerText(), { timeout: 10_000 }).toContain('requests');
    expect(blocked).toEqual([]);
    await page.close();
  }, 120_000);
});
