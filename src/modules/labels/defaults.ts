import { readFileSync, readdirSync } from 'node:fs';

// Pre-translated widget labels shipped with the server: one JSON file per language under
// defaults/, all with the same keys. Adding a language is adding a file.

export const fallbackLanguage = 'en';
export const defaultCategory = 'widget';

const directory = new URL('./defaults/', import.meta.url);

function load(): ReadonlyMap<string, Record<string, string>> {
  const entries = readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => [name.slice(0, -'.json'.length), JSON.parse(readFileSync(new URL(name, directory), 'utf8'))] as const);
  return new Map(entries);
}

export const builtinLabels = load();
