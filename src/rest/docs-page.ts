import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

// The documentation page at /v3/docs: Swagger UI over /v3/openapi.json, its scripts and styles
// served from the swagger-ui-dist package so the page works with no internet. The page's own
// start-up is a file too (no inline script), so a strict Content-Security-Policy can hold.

const assetDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'init.js': 'text/javascript; charset=utf-8',
};

/** Every asset the page loads, with its content type (the OpenAPI document lists them). */
export const docsAssets = Object.entries(assets);

function page(base: string) {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Support platform REST API</title>
  <link rel="stylesheet" href="${base}/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="${base}/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${base}/docs/swagger-ui-bundle.js"></script>
  <script src="${base}/docs/init.js"></script>
</body>
</html>
`;
}

function init(base: string) {
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(`${base}/openapi.json`)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  // The default validator badge is an image from validator.swagger.io: nothing leaves this server.
  validatorUrl: null,
});
`;
}

const cached = new Map<string, Promise<Buffer>>();
const read = (name: string) => {
  let file = cached.get(name);
  if (!file) {
    cached.set(name, (file = readFile(path.join(assetDir, name))));
    file.catch(() => cached.delete(name));
  }
  return file;
};

/** The page or one of its assets for a path under `base` (`/v3/docs`, `/v3/docs/x`), or null when it is neither. */
export async function docsResponse(base: string, pathname: string): Promise<Response | null> {
  if (pathname === `${base}/docs`) return new Response(page(base), { headers: { 'content-type': 'text/html; charset=utf-8' } });
  if (!pathname.startsWith(`${base}/docs/`)) return null;
  const name = pathname.slice(`${base}/docs/`.length);
  if (name === 'init.js') return new Response(init(base), { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  const type = assets[name];
  if (!type) return null;
  return new Response(new Uint8Array(await read(name)), {
    headers: { 'content-type': type, 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' },
  });
}
