import type { Lane } from './listener.js';

// /health says the process answers (a liveness probe); /ready says this node should get traffic:
// its database and Redis answer, and it is not shutting down. A node told to stop answers 503 on
// /ready first, so a load balancer stops sending it new requests while it finishes those it has.

export const healthPaths = { '/health': ['GET'], '/ready': ['GET'] };

export interface NodeState {
  /** True when the stores this node needs answer. */
  ready(): Promise<boolean>;
  /** True once shutdown began. */
  draining(): boolean;
}

const json = { 'content-type': 'application/json; charset=utf-8' };

/**
 * /health and /ready, answered straight from node's request by the listener's first lane: ahead of
 * every other lane and of yoga (whose own /health check is never reached).
 */
export function healthLane(state: NodeState): Lane {
  return (req) => {
    if (req.method !== 'GET') return null;
    const url = req.url ?? '/';
    const pathname = url.split('?')[0];
    if (pathname === '/health') return async () => ({ status: 200, headers: { ...json }, body: '{"status":"ok"}' });
    if (pathname !== '/ready') return null;
    return async () => {
      if (state.draining()) return { status: 503, headers: { ...json }, body: '{"status":"draining"}' };
      const ready = await state.ready();
      return { status: ready ? 200 : 503, headers: { ...json }, body: JSON.stringify({ status: ready ? 'ready' : 'unavailable' }) };
    };
  };
}
