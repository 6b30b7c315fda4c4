import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

// Large JSON answers (lists, the OpenAPI document) go out compressed when the client accepts it.
// Records do not: under 8 KB (a posted message with its request is about 5 KB) the saving is a few
// packets and the work, the server's and the client's, cost a third of message throughput.
// Compression runs in libuv's thread pool, off the event loop, at settings made for speed (gzip
// level 6 is zlib's default; brotli at quality 4 compresses as well as gzip's best in less time
// than gzip's default).

export const compressionThresholdBytes = 8192;

export type Encoding = 'br' | 'gzip';

const compressible = /^application\/(.+\+)?json\b/i;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The encoding to answer with, from an Accept-Encoding header: br, else gzip, unless refused (q=0). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  let chosen: Encoding | null = null;
  for (const entry of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    if (name === 'br') return 'br';
    if (name === 'gzip' || name === '*') chosen = 'gzip';
  }
  return chosen;
}

/** Whether an answer with these headers and this many bytes is worth compressing. */
export function worthCompressing(contentType: string | null | undefined, contentEncoding: string | null | undefined, size: number) {
  return size >= compressionThresholdBytes && !contentEncoding && !!contentType && compressible.test(contentType);
}

export function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipAsync(body);
}

/** Adds accept-encoding to a Vary header value. */
export function varyOnEncoding(vary: string | null | undefined): string {
  return vary ? `${vary}, accept-encoding` : 'accept-encoding';
}

/** The same for answers yoga writes (what no lane takes: GraphQL GET, the OpenAPI document...). */
export function useResponseCompression(): Plugin {
  return {
    async onResponse({ request, response, setResponse }) {
      const encoding = chooseEncoding(request.headers.get('accept-encoding') ?? undefined);
      const contentType = response.headers.get('content-type');
      if (!encoding || !response.body || !contentType || !compressible.test(contentType) || response.headers.get('content-encoding')) return;
      const body = Buffer.from(await response.arrayBuffer());
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      const init = { status: response.status, statusText: response.statusText, headers };
      if (body.length < compressionThresholdBytes) {
        setResponse(new Response(new Uint8Array(body), init));
        return;
      }
      headers.set('vary', varyOnEncoding(headers.get('vary')));
      headers.set('content-encoding', encoding);
      setResponse(new Response(new Uint8Array(await compress(body, encoding)), init));
    },
  };
}
