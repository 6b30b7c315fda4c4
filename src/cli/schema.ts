// `write` prints the SDL and the OpenAPI document into schema/; `check` fails when they are stale.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { printableSchema, restOptions, schema } from '../graphql/schema.js';
import { openApiDocument } from '../rest/plugin.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const sdlPath = path.join(root, 'schema/schema.graphql');
export const openApiPath = path.join(root, 'schema/openapi.json');

export async function renderSchemaFiles() {
  const sdl = `${printSchema(printableSchema())}\n`;
  const openapi = `${JSON.stringify(await openApiDocument(schema, restOptions), null, 2)}\n`;
  return { sdl, openapi };
}

async function main(command: string | undefined) {
  const { sdl, openapi } = await renderSchemaFiles();
  if (command === 'write') {
    await mkdir(path.dirname(sdlPath), { recursive: true });
    await writeFile(sdlPath, sdl);
    await writeFile(openApiPath, openapi);
    console.log('wrote schema/schema.graphql and schema/openapi.json');
    return;
  }
  const stale = [];
  if ((await readFile(sdlPath, 'utf8').catch(() => '')) !== sdl) stale.push('schema/schema.graphql');
  if ((await readFile(openApiPath, 'utf8').catch(() => '')) !== openapi) stale.push('schema/openapi.json');
  if (stale.length) {
    console.error(`stale: ${stale.join(', ')}; run npm run schema:print`);
    process.exit(1);
  }
  console.log('schema files are up to date');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await main(process.argv[2]);
}
