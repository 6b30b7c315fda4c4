import { Kind, visit, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context.js';
import { AppError, unauthenticated } from '../errors.js';

// Introspection (`__schema`, `__type`) maps the whole API for whoever asks. `public` answers
// anyone; `authenticated` (the production default) only signed-in accounts and bots (an anonymous
// visitor's token is one request away for anybody, so it does not count); `off` nobody.
// `__typename` is not introspection: clients select it everywhere.

const introspects = new WeakMap<DocumentNode, boolean>();

function isIntrospection(document: DocumentNode): boolean {
  let found = introspects.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      [Kind.FIELD](node) {
        if (node.name.value === '__schema' || node.name.value === '__type') found = true;
      },
    });
    introspects.set(document, found);
  }
  return found;
}

export function useIntrospectionPolicy(policy: 'public' | 'authenticated' | 'off'): Plugin {
  if (policy === 'public') return {};
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      if (!isIntrospection(args.document)) return;
      if (policy === 'off') {
        setResultAndStopExecution({ errors: [new AppError('FORBIDDEN', 'introspection is disabled on this server')] });
        return;
      }
      const principal = await (args.contextValue as unknown as Context).principal();
      if (!principal || principal.anonymous) setResultAndStopExecution({ errors: [unauthenticated('introspection needs credentials on this server')] });
    },
  };
}
