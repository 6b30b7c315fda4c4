import type { Plugin } from 'graphql-yoga';

// Legacy clients read the new subscription's secret from the `x-hook-secret` response header.
// SOFA cannot set headers, so the REST answer to POST /v3/:project_id/subscriptions gets it here.
// It is the answer's `secret`: the value deliveries carry in that header, never the signing key
// (`signingSecret`), which no header shows.

const creationPath = /^\/v3\/[^/]+\/subscriptions\/?$/;

/** True for the request whose answer gets the header. */
export function createsSubscription(method: string, pathname: string) {
  return method === 'POST' && creationPath.test(pathname);
}

export function useHookSecretHeader(): Plugin {
  return {
    async onResponse({ request, response, setResponse }) {
      if (request.method !== 'POST' || response.status !== 200) return;
      if (!creationPath.test(new URL(request.url).pathname)) return;
      const text = await response.text();
      const headers = new Headers(response.headers);
      try {
        const secret = (JSON.parse(text) as { secret?: unknown }).secret;
        if (typeof secret === 'string') headers.set('x-hook-secret', secret);
      } catch {
        // Not the JSON record: passed on untouched.
      }
      setResponse(new Response(text, { status: response.status, headers }));
    },
  };
}
