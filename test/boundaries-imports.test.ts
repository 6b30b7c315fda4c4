import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Module boundaries, as the code is: no import cycle in src (type-only imports included, the
// generated Prisma client aside), no dynamic import() to hide one, and configuration read from
// the environment in src/config.ts only. `npx madge --circular --extensions ts src` agrees (.madgerc).

const src = fileURLToPath(new URL('../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface Parsed {
  imports: string[];
  dynamicImports: string[];
  readsEnv: boolean;
}

function parse(file: string): Parsed {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const parsed: Parsed = { imports: [], dynamicImports: [], readsEnv: false };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      parsed.imports.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      parsed.dynamicImports.push(node.arguments[0]?.getText(source) ?? '');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      parsed.imports.push(node.argument.literal.text);
    } else if (ts.isPropertyAccessExpression(node) && node.getText(source) === 'process.env') {
      parsed.readsEnv = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return parsed;
}

const files = sourceFiles(src);
const parsed = new Map(files.map((file) => [file, parse(file)]));
const relative = (file: string) => path.relative(src, file);

/** The src files a file imports (relative specifiers, `.js` written for `.ts`). */
function edges(file: string): string[] {
  return parsed
    .get(file)!
    .imports.filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')))
    .filter((target) => parsed.has(target));
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string) => {
    indices.set(file, index);
    low.set(file, index++);
    stack.push(file);
    onStack.add(file);
    for (const next of edges(file)) {
      if (!indices.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, indices.get(next)!));
      }
    }
    if (low.get(file) === indices.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(relative(member));
      } while (member !== file);
      if (component.length > 1 || edges(file).includes(file)) found.push(component.sort());
    }
  };
  for (const file of files) if (!indices.has(file)) connect(file);
  return found;
}

/** The module (folder under src/modules) a file belongs to, or null. */
const moduleOf = (file: string) => {
  const parts = relative(file).split(path.sep);
  return parts[0] === 'modules' && parts.length > 2 ? parts[1] : null;
};

/** Pairs of modules that import each other (type-only imports included), each with one import of each way. */
function twoWayModules(): string[] {
  const uses = new Map<string, Map<string, string>>();
  for (const file of files) {
    const from = moduleOf(file);
    if (!from) continue;
    for (const target of edges(file)) {
      const to = moduleOf(target);
      if (!to || to === from) continue;
      if (!uses.has(from)) uses.set(from, new Map());
      if (!uses.get(from)!.has(to)) uses.get(from)!.set(to, `${relative(file)} -> ${relative(target)}`);
    }
  }
  const pairs: string[] = [];
  for (const [a, targets] of uses) {
    for (const [b, example] of targets) {
      const back = uses.get(b)?.get(a);
      if (back && a < b) pairs.push(`${a} <-> ${b}: ${example}; ${back}`);
    }
  }
  return pairs.sort();
}

describe('module boundaries', () => {
  it('has no two modules importing each other both ways (each dependency goes one way)', () => {
    expect(twoWayModules()).toEqual([]);
  });

  it('has no import cycle in src, type-only imports included', () => {
    expect(cycles()).toEqual([]);
  });

  it('imports no src module dynamically', () => {
    const dynamic = files.flatMap((file) =>
      parsed.get(file)!.dynamicImports.filter((specifier) => /^['"`]\./.test(specifier)).map((specifier) => `${relative(file)}: import(${specifier})`),
    );
    expect(dynamic).toEqual([]);
  });

  it('reads process.env in src/config.ts only (env-file.ts only loads .env into it, before)', () => {
    expect(files.filter((file) => parsed.get(file)!.readsEnv).map(relative)).toEqual(['config.ts', 'env-file.ts']);
  });
});
