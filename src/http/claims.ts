import type { Plugin } from 'graphql-yoga';

// Some yoga plugins serve or rewrite requests the REST lane would otherwise take straight to a
// generated route (uploads, array bodies, a header on subscription creation). Each such plugin
// carries the test for the requests it claims, so the lanes learn them from the plugin list
// itself instead of from a second list kept in step by hand.

export type RouteClaim = (method: string, pathname: string) => boolean;

/** `plugin`, marked as serving the requests `claims` accepts. */
export function claiming<P extends object>(plugin: P, claims: RouteClaim): P & { claims: RouteClaim } {
  return Object.assign(plugin, { claims });
}

/** Whether any of `plugins` claims a request. */
export function claimedBy(plugins: readonly Plugin<any, any, any>[]): RouteClaim {
  const claims = plugins.flatMap((plugin) => {
    const claim = (plugin as { claims?: unknown }).claims;
    return typeof claim === 'function' ? [claim as RouteClaim] : [];
  });
  return (method, pathname) => claims.some((claim) => claim(method, pathname));
}
