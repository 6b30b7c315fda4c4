import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { HandRoute, RouteAnswer } from './hand-route.js';
import { errorResponseRefs } from './openapi/shared.js';
import { restBasePath } from './base-path.js';

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

const answerOf = (response: { text: string; type: string } | { bytes: Buffer; type: string }): RouteAnswer =>
  'text' in response
    ? { text: response.text, headers: { 'content-type': response.type } }
    : {
        stream: Readable.from([response.bytes]),
        headers: { 'content-type': response.type, 'content-length': String(response.bytes.length), 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' },
      };

const page200 = (description: string, type: string) => ({
  200: { description, content: { [type.split(';')[0]]: { schema: { type: 'string' } } } },
  ...errorResponseRefs,
});

/**
 * The REST face's own routes: this document (`documentJson` gives it, made once) and its page with
 * each asset by name (a `:asset` parameter would make every `/:project_id/x` path ambiguous).
 */
export function documentationRoutes(documentJson: () => string): Record<string, HandRoute> {
  const routes: Record<string, HandRoute> = {
    'Route.openApiDocument': {
      method: 'GET',
      path: '/openapi.json',
      auth: 'anyone',
      body: 'none',
      handle: async () => ({ text: documentJson(), headers: { 'content-type': 'application/json; charset=utf-8' } }),
      operation: {
        summary: 'This document',
        tags: ['Documentation'],
        security: [{}],
        responses: { 200: { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } }, ...errorResponseRefs },
      },
    },
    'Route.documentationPage': {
      method: 'GET',
      path: '/docs',
      auth: 'anyone',
      body: 'none',
      handle: async () => answerOf({ text: page(restBasePath), type: 'text/html; charset=utf-8' }),
      operation: {
        summary: 'The documentation page',
        description: 'Swagger UI over this document, served with its assets (works offline).',
        tags: ['Documentation'],
        security: [{}],
        responses: page200('The page.', 'text/html'),
      },
    },
  };
  for (const [name, type] of docsAssets) {
    routes[`Route.documentationAsset_${name.replace(/\W/g, '_')}`] = {
      method: 'GET',
      path: `/docs/${name}`,
      auth: 'anyone',
      body: 'none',
      handle: async () => answerOf(name === 'init.js' ? { text: init(restBasePath), type } : { bytes: await read(name), type }),
      operation: { summary: `Documentation page asset ${name}`, tags: ['Documentation'], security: [{}], responses: page200('The asset.', type) },
    };
  }
  return routes;
}
