import { Kind, visit, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { badInput, type AppError } from '../errors.js';

// Every operation's input (variables, which is where REST bodies, query strings and path
// parameters go, and string literals of the document) is checked before it runs:
// - PostgreSQL stores no NUL character (U+0000) in text or JSON: a value holding one would fail
//   deep in the database with an unexpected error;
// - JSON nested past `maxInputDepth` levels would overflow the stack of whatever walks it next
//   (serialisation, the database driver): no real payload nests that deep. Object and list
//   literals written in the document meet the same bound as variables.
// Either gets a 400 naming its field. And a document whose brackets nest past `maxDocumentNesting`
// is refused before it is parsed: the parser descends once per level, and a few thousand levels
// overflow its stack (an unexpected error) before any other limit is reached.

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

/** Per parsed document (parsed documents are cached, so each is read once): the first problem of its literals. */
const literalProblems = new WeakMap<DocumentNode, Problem | null>();

function literalProblem(document: DocumentNode): Problem | null {
  let found = literalProblems.get(document);
  if (found === undefined) {
    let problem: Problem | null = null;
    const args: string[] = [];
    // Levels of object and list literals around the current node: an argument's value is level 0, as a variable's is.
    let depth = -1;
    const nest = {
      enter() {
        depth++;
        if (problem === null && depth >= maxInputDepth) {
          problem = { field: args[0] ?? 'query', message: `must not nest arrays and objects more than ${maxInputDepth} levels deep` };
        }
      },
      leave: () => void depth--,
    };
    visit(document, {
      Argument: { enter: (node) => void args.push(node.name.value), leave: () => void args.pop() },
      ObjectField: { enter: (node) => void args.push(node.name.value), leave: () => void args.pop() },
      [Kind.OBJECT]: nest,
      [Kind.LIST]: nest,
      [Kind.STRING](node) {
        if (problem === null && node.value.includes(nul)) problem = { field: args.join('.') || 'query', message: 'must not contain the NUL character (U+0000)' };
      },
    });
    found = problem;
    literalProblems.set(document, found);
  }
  return found;
}

function refusal(document: DocumentNode, variables: unknown): AppError | null {
  // Variables are an object of their own: its level does not count.
  const problem = inputProblem(variables ?? {}, '', -1) ?? literalProblem(document);
  return problem ? badInput(problem.field || 'body', `${problem.field || 'body'}: ${problem.message}`) : null;
}

/**
 * Brackets (`{`, `[`, `(`) a document may nest: the selection depth limit (GRAPHQL_MAX_DEPTH) and
 * the input depth limit together stay well within it.
 */
export const maxDocumentNesting = 200;

/** How deep the brackets of a GraphQL document nest, outside strings and comments; stops counting past `limit`. */
export function documentNesting(source: string, limit = maxDocumentNesting): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      // Never below the top level: closing brackets the parser would refuse must not pay for openings after them.
      if (depth > 0) depth--;
    }
    else if (c === 0x23) {
      // A comment, to the end of its line.
      while (i < source.length && source.charCodeAt(i) !== 0x0a && source.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22) {
      if (source.startsWith('"""', i)) {
        // A block string ends at the first """ not escaped (\""" is three quotes of its text).
        let end = source.indexOf('"""', i + 3);
        while (end > 0 && source.charCodeAt(end - 1) === 0x5c) end = source.indexOf('"""', end + 3);
        i = end < 0 ? source.length : end + 2;
      } else {
        for (i++; i < source.length; i++) {
          const d = source.charCodeAt(i);
          if (d === 0x5c) i++;
          else if (d === 0x22 || d === 0x0a) break;
        }
      }
    }
  }
  return deepest;
}

const tooDeep = () => badInput('query', `query: must not nest brackets more than ${maxDocumentNesting} levels deep`);

/** NUL characters and runaway nesting in any operation's input: a 400 naming the field. */
export function useInputGuard(): Plugin {
  return {
    onParse({ params, parseFn, setParseFn }) {
      const source = typeof params.source === 'string' ? params.source : params.source.body;
      if (documentNesting(source) > maxDocumentNesting) throw tooDeep();
      // Whatever the count above misread, the parser running out of stack is that same refusal, not an unexpected error.
      setParseFn((...args: Parameters<typeof parseFn>) => {
        try {
          return parseFn(...args);
        } catch (error) {
          if (error instanceof RangeError) throw tooDeep();
          throw error;
        }
      });
    },
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
