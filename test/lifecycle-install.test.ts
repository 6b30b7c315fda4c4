import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A production install (`npm ci --omit=dev && npm start`) has only `dependencies`: whatever the
// server and workers load at run time, and the commands `npm start` runs, must be there.

const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'generated' ? [] : sourceFiles(file);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [file] : [];
  });
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null for relative and node: imports. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? null : name;
}

/** Packages a file loads at run time: static and dynamic imports, not `import type`. */
function runtimeImports(source: string): string[] {
  const found: string[] = [];
  const statics = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  const dynamics = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const pattern of [statics, dynamics]) for (const match of source.matchAll(pattern)) found.push(match[1]);
  return found;
}

describe('a production install', () => {
  it('has every package the server and workers import among its dependencies', () => {
    const missing = new Set<string>();
    for (const file of [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'workers'))]) {
      for (const specifier of runtimeImports(readFileSync(file, 'utf8'))) {
        const name = packageOf(specifier);
        if (name && !(name in manifest.dependencies)) missing.add(`${name} (${path.relative(root, file)})`);
      }
    }
    expect([...missing]).toEqual([]);
  });

  it('has the commands npm start runs (prisma generate, node with tsx) among its dependencies', () => {
    expect(manifest.scripts.prestart).toMatch(/generate/);
    expect(manifest.scripts.generate).toMatch(/^(\S+=\S+\s+)*prisma generate/);
    expect(manifest.dependencies).toHaveProperty('prisma');
    expect(manifest.scripts.start).toMatch(/--import tsx\b/);
    expect(manifest.dependencies).toHaveProperty('tsx');
  });

  it('starts node in place of npm\'s shell, so the signals npm passes on reach the server', () => {
    expect(manifest.scripts.start).toMatch(/^exec node\s/);
  });
});
