import { Kind, visit, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { badInput, type AppError } from '../errors.js';

// PostgreSQL stores no NUL character (U+0000) in text or JSON: a value holding one would fail
// deep in the database with an unexpected error. Every operation's input (variables, which is
// where REST bodies, query strings and path parameters go, and string literals of the document)
// is checked before it runs, and such a value gets a 400 naming its field.

const nul = '\u0000';

/** The path of the first string holding a NUL character, or null. */
function nulPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes(nul) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      // A key is stored too (JSON attributes).
      if (key.includes(nul)) return path ? `${path}.${key}` : key;
      const found = nulPath((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return null;
}

/** Per parsed document (parsed documents are cached, so each is read once): the argument holding a NUL literal. */
const literalPaths = new WeakMap<DocumentNode, string | null>();

function literalNulPath(document: DocumentNode): string | null {
  let found = literalPaths.get(document);
  if (found === undefined) {
    found = null;
    const args: string[] = [];
    visit(document, {
      Argument: { enter: (node) => void args.push(node.name.value), leave: () => void args.pop() },
      ObjectField: { enter: (node) => void args.push(node.name.value), leave: () => void args.pop() },
      [Kind.STRING](node) {
        if (found === null && node.value.includes(nul)) found = args.join('.') || 'query';
      },
    });
    literalPaths.set(document, found);
  }
  return found;
}

function refusal(document: DocumentNode, variables: unknown): AppError | null {
  const field = nulPath(variables ?? {}, '') ?? literalNulPath(document);
  return field ? badInput(field, `${field}: must not contain the NUL character (U+0000)`) : null;
}

export function useNoNulCharacters(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = refusal(args.document, args.variableValues);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = refusal(args.document, args.variableValues);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
