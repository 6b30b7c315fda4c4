import { Kind, visit, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { badInput, type AppError } from '../errors.js';

// Every operation's input (variables, which is where REST bodies, query strings and path
// parameters go, and string literals of the document) is checked before it runs:
// - PostgreSQL stores no NUL character (U+0000) in text or JSON: a value holding one would fail
//   deep in the database with an unexpected error;
// - JSON nested past `maxInputDepth` levels would overflow the stack of whatever walks it next
//   (serialisation, the database driver): no real payload nests that deep.
// Either gets a 400 naming its field.

const nul = '\u0000';

/** Levels of arrays and objects one input value may nest. */
export const maxInputDepth = 64;

interface Problem {
  field: string;
  message: string;
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** The first problem of a value: a string or key holding NUL, or nesting past the bound (never recursing past it). */
function inputProblem(value: unknown, path: string, depth: number): Problem | null {
  if (typeof value === 'string') return value.includes(nul) ? { field: path, message: 'must not contain the NUL character (U+0000)' } : null;
  if (!value || typeof value !== 'object') return null;
  // Named by its argument: the path down there would be as long as the nesting.
  if (depth >= maxInputDepth) return { field: path.split('.')[0], message: `must not nest arrays and objects more than ${maxInputDepth} levels deep` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = inputProblem(value[i], join(path, i), depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    // A key is stored too (JSON attributes).
    if (key.includes(nul)) return { field: join(path, key), message: 'must not contain the NUL character (U+0000)' };
    const found = inputProblem((value as Record<string, unknown>)[key], join(path, key), depth + 1);
    if (found) return found;
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
  // Variables are an object of their own: its level does not count.
  const problem = inputProblem(variables ?? {}, '', -1);
  if (problem) return badInput(problem.field || 'body', `${problem.field || 'body'}: ${problem.message}`);
  const field = literalNulPath(document);
  return field ? badInput(field, `${field}: must not contain the NUL character (U+0000)`) : null;
}

/** NUL characters and runaway nesting in any operation's input: a 400 naming the field. */
export function useInputGuard(): Plugin {
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
