import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Services } from '../module.js';
import { LiveAccess } from './live-access.js';
import { configureReplay } from './replay-pages.js';

/**
 * Subscriptions, over graphql-ws or server-sent events: each ends with an error (FORBIDDEN,
 * UNAUTHENTICATED, NOT_FOUND...) when the caller's access to what it follows ends, and a resume
 * (`after`) replays within the node's bounds (REALTIME_REPLAY_MAX_EVENTS).
 */
export function useLiveSubscriptions(services: Services): Plugin {
  const { eventLog, config } = services.infra;
  configureReplay(eventLog, { maxEvents: config.replayMaxEvents });
  const access = new LiveAccess(services);
  return {
    onSubscribe() {
      const since = Date.now();
      return {
        onSubscribeResult({ args, result, setResult }) {
          if (isAsyncIterable(result)) setResult(access.guard(result, args, since));
        },
      };
    },
  };
}
