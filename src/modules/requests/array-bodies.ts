import type { Plugin } from 'graphql-yoga';
import { restBasePath } from '../../rest/plugin.js';

// SOFA binds top-level keys of a JSON object body to arguments. Two request endpoints take a bare
// JSON array instead (the message import, the participants list): such a body is wrapped under
// the argument's name before the REST plugin sees the request.

const arrayEndpoints: Array<{ method: string; path: RegExp; argument: string }> = [
  { method: 'POST', path: new RegExp(`^${restBasePath}/[^/]+/requests/[^/]+/messages/multi/?$`), argument: 'messages' },
  { method: 'PUT', path: new RegExp(`^${restBasePath}/[^/]+/requests/[^/]+/participants/?$`), argument: 'participants' },
];

/** True for the endpoints whose JSON array bodies this plugin rewrites. */
export function takesArrayBody(method: string, pathname: string) {
  return arrayEndpoints.some((e) => e.method === method && e.path.test(pathname));
}

export function useRequestArrayBodies(): Plugin {
  return {
    async onRequest({ request, url, setRequest }) {
      const endpoint = arrayEndpoints.find((e) => e.method === request.method && e.path.test(url.pathname));
      if (!endpoint || !request.headers.get('content-type')?.toLowerCase().includes('json')) return;
      let parsed: unknown;
      try {
        parsed = await request.clone().json();
      } catch {
        return; // SOFA answers 400 for a body that is not JSON
      }
      if (!Array.isArray(parsed)) return;
      const headers = new Headers(request.headers);
      headers.delete('content-length');
      const body = JSON.stringify({ [endpoint.argument]: parsed });
      setRequest(new Request(request.url, { method: request.method, headers, body }));
    },
  };
}
