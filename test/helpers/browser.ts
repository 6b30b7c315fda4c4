import { chromium, type Browser, type Page } from 'playwright-core';

// Real headless Chromium (Debian's /usr/bin/chromium) for the pages people open: the docs and
// GraphiQL. Every request that does not go to 127.0.0.1 is aborted, so a page that still needs
// a CDN fails its test instead of passing on a machine that happens to be online.

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A headless Chromium with no background traffic of its own (updates, sync, first-run pages). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Whether a URL is served by this machine's loopback (the test server). */
export function isLocal(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return true;
  try {
    return new URL(url).hostname === '127.0.0.1';
  } catch {
    return false;
  }
}

/**
 * Aborts every request of the page that is not to 127.0.0.1 and records it, so a test can also
 * assert that nothing tried to leave (`blocked` lists the URLs).
 */
export async function blockExternal(page: Page): Promise<{ blocked: string[] }> {
  const blocked: string[] = [];
  await page.context().route('**/*', (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.continue();
    blocked.push(url);
    return route.abort('internetdisconnected');
  });
  return { blocked };
}

/** A page with what went wrong on it, for journeys that must fail on any of it. */
export interface WatchedPage {
  page: Page;
  /** Console errors, uncaught errors, failed requests, error statuses not expected, requests that tried to leave. */
  readonly problems: string[];
  /** An error status the scenario causes on purpose (e.g. a refused webhook target answers 400). */
  expect(status: number): void;
}

/**
 * Watches `page` as a person's browser would show trouble: a console error, an uncaught error, a
 * request that failed (a navigation cancelling one in flight is not a failure), an error status,
 * or a request off this machine (aborted).
 */
export async function watchPage(page: Page): Promise<WatchedPage> {
  const problems: string[] = [];
  const expected: number[] = [];
  const expectedLogs: number[] = [];
  const { blocked } = await blockExternal(page);
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium logs every error status it receives; an expected one is no problem.
    const logged = /status of (\d{3})/.exec(message.text());
    const at = logged ? expectedLogs.indexOf(Number(logged[1])) : -1;
    if (at >= 0) expectedLogs.splice(at, 1);
    else problems.push(`console error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const at = expected.indexOf(response.status());
    if (at >= 0) expected.splice(at, 1);
    else problems.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return {
    page,
    get problems() {
      return [...problems, ...blocked.map((url) => `left the machine: ${url}`)];
    },
    expect(status) {
      expected.push(status);
      expectedLogs.push(status);
    },
  };
}
