import { OutboundTimeoutError, safeFetch, type OutboundPolicy } from '../../../infra/outbound.js';
import { decodeBody } from '../reading/fetch.js';

// Model and embeddings endpoints are chosen by the operator (often a local server), so their host
// is exempt from the private-address check; every other target keeps the usual outbound policy.

const maxResponseBytes = 16 * 1024 * 1024;

export function endpointPolicy(baseUrl: string, outbound: OutboundPolicy): OutboundPolicy {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return { allowPrivate: outbound.allowPrivate, allowedHosts: [...(outbound.allowedHosts ?? []), host] };
}

/** A `fetch` for the OpenAI client that sends through the outbound module (no redirects followed). */
export function endpointFetch(baseUrl: string, outbound: OutboundPolicy, timeoutMs: number): typeof fetch {
  const policy = endpointPolicy(baseUrl, outbound);
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      // Answers come back as sent; asking for none compressed keeps them readable as they are.
      if (name !== 'accept-encoding') headers[name] = value;
    });
    const body =
      init?.body == null
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : new Uint8Array(await new Response(init.body).arrayBuffer());
    const signal = init?.signal;
    signal?.throwIfAborted();
    const sent = safeFetch(url, { method: init?.method ?? 'GET', headers, body, timeoutMs, maxResponseBytes, stream: true }, policy);
    const aborted = new Promise<never>((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason ?? new DOMException('aborted', 'AbortError')), { once: true });
    });
    let response;
    try {
      response = await (signal ? Promise.race([sent, aborted]) : sent);
    } catch (error) {
      // The OpenAI client reports an AbortError as a timeout.
      if (error instanceof OutboundTimeoutError) throw new DOMException(error.message, 'AbortError');
      throw error;
    }
    const responseHeaders = new Headers(response.headers);
    const encoding = responseHeaders.get('content-encoding');
    // A streamed answer (server-sent events, as sent) goes to the client as it comes.
    if (response.stream && /^text\/event-stream/i.test(responseHeaders.get('content-type') ?? '') && (!encoding || encoding === 'identity')) {
      return new Response(response.stream, { status: response.status, headers: responseHeaders });
    }
    const whole = response.stream ? Buffer.from(await new Response(response.stream).arrayBuffer()) : response.body;
    const decoded = await decodeBody(whole, encoding, maxResponseBytes, url);
    responseHeaders.delete('content-encoding');
    responseHeaders.delete('content-length');
    return new Response(response.status === 204 || response.status === 304 ? null : new Uint8Array(decoded), {
      status: response.status,
      headers: responseHeaders,
    });
  };
}

/** A model endpoint failure in a sentence a client can act on (status, timeout or refusal). */
export function describeEndpointError(error: unknown, timeoutMs: number): string {
  const err = error as { status?: number; name?: string; message?: string; cause?: unknown; error?: { message?: string } };
  const cause = err?.cause as { name?: string; message?: string } | undefined;
  if (typeof err?.status === 'number') {
    const detail = err.error?.message ?? err.message ?? '';
    return `the model endpoint answered ${err.status}${detail ? `: ${detail.replace(/^\d{3}\s*/, '')}` : ''}`;
  }
  if (/timeout|timed out|AbortError/i.test(`${err?.name} ${err?.message} ${cause?.name}`)) {
    return `the model endpoint did not answer within ${timeoutMs} ms`;
  }
  if (cause?.name === 'OutboundRefusedError' || err?.name === 'OutboundRefusedError') {
    return `the model endpoint was refused: ${cause?.message ?? err.message}`;
  }
  return `the model endpoint could not be reached: ${cause?.message ?? err?.message ?? String(error)}`;
}
