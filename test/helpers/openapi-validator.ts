import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// Every REST response the tests receive is checked against schema/openapi.json (the checked-in
// document clients generate from): the route and status must be documented, and a JSON body must
// match the operation's schema. A drift between the document and the wire fails the test that
// met it. OPENAPI_VALIDATE=0 turns the check off (benches); it is on in `npm test`.

type Json = Record<string, any>;

const documentPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schema/openapi.json');
const basePath = '/v3';

export const responseValidationEnabled = process.env.OPENAPI_VALIDATE !== '0';

interface Compiled {
  document: Json;
  ajv: Ajv2020;
  routes: Array<{ template: string; regex: RegExp; params: number }>;
  validators: Map<string, ValidateFunction>;
}

let compiled: Compiled | undefined;

function load(): Compiled {
  if (compiled) return compiled;
  const document = JSON.parse(readFileSync(documentPath, 'utf8')) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // The document's local references (`#/components/...`) resolve inside it, registered under an id.
  ajv.addSchema({ $id: 'openapi', components: document.components }, undefined, undefined, false);
  const routes = Object.keys(document.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}|\{\w+\}/g, '[^/]+')}$`),
    params: (template.match(/\{/g) ?? []).length,
  }));
  // Literal paths win over templates, as the server's route table does.
  routes.sort((a, b) => a.params - b.params);
  compiled = { document, ajv, routes, validators: new Map() };
  return compiled;
}

const rebased = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema), (key, value) => (key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `openapi${value}` : value));

function validatorFor(key: string, schema: unknown): ValidateFunction {
  const { ajv, validators } = load();
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = ajv.compile(rebased(schema) as Json)));
  return validate;
}

function resolveResponse(document: Json, response: Json | undefined): Json | undefined {
  if (!response?.$ref) return response;
  return (response.$ref as string).slice(2).split('/').reduce((at: Json | undefined, key) => at?.[key], document);
}

export interface RestExchange {
  method: string;
  /** The path as called, query string included. */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

/** Finds the documented operation of a call, or undefined. */
export function documentedOperation(method: string, urlPath: string): { template: string; operation: Json } | undefined {
  const { document, routes } = load();
  const pathname = urlPath.split('?')[0].slice(basePath.length).replace(/(.)\/+$/, '$1');
  const verb = (method === 'HEAD' ? 'get' : method).toLowerCase();
  for (const route of routes) {
    if (!route.regex.test(pathname)) continue;
    const operation = document.paths[route.template][verb];
    if (operation) return { template: route.template, operation };
  }
  return undefined;
}

/** Throws, naming the mismatch, when a /v3 response is not what the document says it is. */
export function assertMatchesDocument(exchange: RestExchange): void {
  const { method, path: urlPath, status, contentType, body } = exchange;
  if (method === 'OPTIONS' || status === 304) return;
  const { document } = load();
  const found = documentedOperation(method, urlPath);
  const where = `${method} ${urlPath} → ${status}`;
  let schema: unknown;
  let key: string;
  if (!found) {
    // Paths and methods no route answers get the one error body.
    if (status < 400) throw new Error(`OpenAPI: ${where} is answered but not documented`);
    schema = { $ref: '#/components/schemas/Error' };
    key = 'Error';
  } else {
    const response = resolveResponse(document, found.operation.responses?.[String(status)] ?? found.operation.responses?.default);
    if (!response) {
      throw new Error(`OpenAPI: ${where}: status ${status} is not documented for ${method} ${found.template} (documented: ${Object.keys(found.operation.responses ?? {}).join(', ')})`);
    }
    const content = (response.content ?? {}) as Json;
    const isJson = !!contentType && /^application\/json/i.test(contentType);
    if (method === 'HEAD' || (!isJson && !content['application/json'])) return; // binary or HTML: its media type is documented
    if (!isJson) throw new Error(`OpenAPI: ${where}: answered ${contentType ?? 'no content type'}, documented application/json`);
    if (!content['application/json']) {
      throw new Error(`OpenAPI: ${where}: answered JSON, documented ${Object.keys(content).join(', ') || 'no content'}`);
    }
    schema = content['application/json'].schema ?? {};
    key = `${method} ${found.template} ${status}`;
  }
  const validate = validatorFor(key, schema);
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 8)
      .map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`)
      .join('; ');
    const shown = JSON.stringify(body);
    throw new Error(`OpenAPI: ${where} does not match the document: ${errors}\nbody: ${shown.length > 600 ? `${shown.slice(0, 600)}…` : shown}`);
  }
}
