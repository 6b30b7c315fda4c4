import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

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

/** A page a test opened, with its own browser context (its cookies, storage and viewport). */
export interface OpenedPage extends WatchedPage {
  context: BrowserContext;
}

/** Who the console is signed in as: what its sign-in form leaves in localStorage. */
export interface ConsoleSession {
  token: string;
  userId: string;
  name?: string;
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
  /** Runs on the new context before its page opens (init scripts, routes, permissions). */
  init?: (context: BrowserContext) => Promise<void>;
  contextOptions?: BrowserContextOptions;
}

export const desktopViewport = { width: 1280, height: 860 };

/** The pages one test file opens in one browser, each in a context of its own and watched (watchPage). */
export class OpenedPages {
  readonly all: OpenedPage[] = [];

  constructor(private browser: () => Browser) {}

  async open(options: OpenOptions = {}): Promise<OpenedPage> {
    const context = await this.browser().newContext({ viewport: options.viewport ?? desktopViewport, ...options.contextOptions });
    await options.init?.(context);
    const opened = Object.assign(await watchPage(await context.newPage()), { context });
    this.all.push(opened);
    return opened;
  }

  /** The agent console at `url`, signed in as `as`. */
  async console(url: string, as: ConsoleSession, options: OpenOptions = {}): Promise<OpenedPage> {
    const auth = JSON.stringify({ token: as.token, userId: as.userId, name: as.name ?? 'Agent' });
    const opened = await this.open({
      ...options,
      init: async (context) => {
        await context.addInitScript((value) => localStorage.setItem('support-console:auth', value), auth);
        await options.init?.(context);
      },
    });
    await opened.page.goto(url);
    return opened;
  }

  async close() {
    for (const opened of this.all) await opened.context.close().catch(() => {});
  }
}
