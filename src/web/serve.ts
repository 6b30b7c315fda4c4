import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Lane } from '../http/listener.js';
import type { Reply } from '../http/node-request.js';

// The agent console (/console) and the visitor widget (/widget.js, /widget/demo) are React apps
// under src/web/client, bundled by esbuild in this process the first time they are asked for and
// kept in memory: `npm install && npm start` is all it takes, nothing is fetched at run time and
// no built file is committed. Each bundle is served with an ETag of its content.

interface Bundle {
  js: string;
  css: string;
  etag: string;
}

const clientDir = fileURLToPath(new URL('./client/', import.meta.url));

async function bundle(entry: string): Promise<Bundle> {
  const result = await build({
    entryPoints: [`${clientDir}${entry}`],
    bundle: true,
    write: false,
    outdir: '/bundle',
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    jsx: 'automatic',
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const text = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
  const js = text('.js');
  const css = text('.css');
  return { js, css, etag: `"${createHash('sha256').update(js).update(css).digest('base64url').slice(0, 22)}"` };
}

// One build per process, shared by every app instance in it (tests start many).
const bundles = new Map<string, Promise<Bundle>>();
function bundleOf(entry: string) {
  let built = bundles.get(entry);
  if (!built) {
    built = bundle(entry);
    // A failed build is retried on the next request instead of being served forever.
    built.catch(() => bundles.delete(entry));
    bundles.set(entry, built);
  }
  return built;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The pages load only this origin's scripts and styles; images may come from anywhere (message images).
const pageSecurity = {
  'content-security-policy': "default-src 'self'; img-src * data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
};

function page(title: string, head: string, body: string): Reply {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
${head}
</head>
<body>
${body}
</body>
</html>`;
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...pageSecurity }, body: html };
}

async function asset(entry: string, kind: 'js' | 'css', ifNoneMatch: string | undefined): Promise<Reply> {
  const built = await bundleOf(entry);
  const headers = {
    'content-type': kind === 'js' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
    'cache-control': 'no-cache',
    etag: built.etag,
    'x-content-type-options': 'nosniff',
  };
  if (ifNoneMatch === built.etag) return { status: 304, headers, body: '' };
  return { status: 200, headers, body: built[kind] };
}

const consoleEntry = 'console/main.tsx';
const widgetEntry = 'widget/main.tsx';

function demoPage(projectId: string | null): Reply {
  const body = projectId
    ? `<main class="demo">
<h1>Widget demo</h1>
<p>This page embeds the support widget of project <code>${escapeHtml(projectId)}</code> the way a site would:</p>
<pre>&lt;script src="${'/widget.js'}" data-project-id="${escapeHtml(projectId)}" defer&gt;&lt;/script&gt;</pre>
<p>Open the chat with the button at the bottom right; answer from the <a href="/console">agent console</a>.</p>
</main>
<script src="/widget.js" data-project-id="${escapeHtml(projectId)}" defer></script>`
    : `<main class="demo"><h1>Widget demo</h1><p role="alert">Add <code>?project_id=&lt;your project id&gt;</code> to the address (the console shows it under Settings).</p></main>`;
  return page('Widget demo', '<style>.demo{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}pre{background:#f3f4f8;padding:.75rem;overflow:auto}</style>', body);
}

/**
 * Pages that e-mails sent before links moved under /console point at (an invitation, confirming
 * the address, a password reset, the old dashboard): they get the console page too, at their own
 * address with its query string, so a link already in an inbox still opens.
 */
const legacyMailPages = ['/verify-email', '/reset-password', '/forgot-password', '/dashboard'];

function isLegacyMailPath(path: string) {
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (legacyMailPages.includes(bare)) return true;
  // `/invitations/<id>` (no deeper), and `/dashboard/...` (its routes lived in the fragment).
  return /^\/invitations\/[^/]+$/.test(bare) || path.startsWith('/dashboard/');
}

/** The lane of the browser clients: their pages and bundles, GET only. */
export function webLane(): Lane {
  return (req) => {
    if (req.method !== 'GET') return null;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const etag = req.headers['if-none-match'];
    if (path === '/widget.js') return () => asset(widgetEntry, 'js', etag);
    if (path === '/widget/demo') return async () => demoPage(url.searchParams.get('project_id'));
    if (path === '/console/app.js') return () => asset(consoleEntry, 'js', etag);
    if (path === '/console/app.css') return () => asset(consoleEntry, 'css', etag);
    if (path === '/console' || path.startsWith('/console/') || isLegacyMailPath(path)) {
      return async () =>
        page('Support console', '<link rel="stylesheet" href="/console/app.css">', '<div id="root"></div>\n<script src="/console/app.js" defer></script>');
    }
    return null;
  };
}

/** Builds both bundles now (the first visitor then does not wait); errors surface on first request. */
export function warmWebBundles() {
  void bundleOf(consoleEntry).catch(() => {});
  void bundleOf(widgetEntry).catch(() => {});
}
