import type { Plugin } from 'graphql-yoga';

// Cookies a resolver sets on the answer to its request (Set-Cookie), whichever way the request
// came: yoga itself (this plugin) or the GraphQL lane, which answers without yoga's response hooks.

const pending = new WeakMap<object, string[]>();

/** Sets `cookie` (a whole Set-Cookie value) on the answer to `request`. */
export function setResponseCookie(request: object, cookie: string) {
  pending.set(request, [...(pending.get(request) ?? []), cookie]);
}

/** The cookies set on the answer to `request`. */
export const responseCookies = (request: object): string[] => pending.get(request) ?? [];

export function useResponseCookies(): Plugin {
  return {
    onResponse({ request, response, setResponse }) {
      const cookies = pending.get(request);
      if (!cookies) return;
      const headers = new Headers(response.headers);
      for (const cookie of cookies) headers.append('set-cookie', cookie);
      setResponse(new Response(response.body, { status: response.status, statusText: response.statusText, headers }));
    },
  };
}
