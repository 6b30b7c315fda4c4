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
