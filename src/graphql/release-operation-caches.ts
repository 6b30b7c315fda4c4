import { RequestCache } from '@pothos/plugin-scope-auth';
import type { Plugin } from 'graphql-yoga';

/**
 * Drops an operation's authorization cache when the operation is done. Pothos keeps it in a
 * WeakMap keyed by the context, and it refers to the context and to every object it checked. V8's
 * minor collections hold WeakMap values strongly, so the entry never looked dead to them: each
 * operation's objects (a list's whole page) were copied by every minor collection and promoted,
 * until a full collection freed them. Most of a list's GC time, and its pauses, went there.
 * Subscriptions are not operations that end here: their context lives as long as they do, and
 * the live-access plugin drops their cache when they end (src/realtime/live-access.ts).
 */
export function useReleaseOperationCaches(): Plugin {
  const release = (context: unknown) => RequestCache.clearForContext(context as object);
  return {
    onExecute() {
      return { onExecuteDone: ({ args }) => release(args.contextValue) };
    },
  };
}
