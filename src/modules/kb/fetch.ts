import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { OutboundRefusedError, OutboundTimeoutError, safeFetch, type OutboundPolicy } from '../../infra/outbound.js';

// Documents fetched for indexing and sitemaps: every hop of a redirect chain goes through the
// outbound policy again, so a public page cannot bounce the server to a private address.

/** A fetch that failed; `permanent` failures are not worth retrying (refused, 404, too large). */
export class FetchFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly refused = false,
  ) {
    super(message);
  }
}

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  policy: OutboundPolicy;
}

export interface FetchedDocument {
  /** The url finally answered, after redirects. */
  url: string;
  mediaType: string;
  charset?: string;
  body: Buffer;
}

export const maxRedirects = 5;
const userAgent = 'support-platform-kb/1.0 (+knowledge base indexer)';

const transientStatus = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;

export async function fetchDocument(url: string, limits: FetchLimits, accept = '*/*'): Promise<FetchedDocument> {
  const deadline = Date.now() + limits.timeoutMs;
  let target = url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new FetchFailure(`${url}: no answer within ${limits.timeoutMs} ms`, false);
    let response;
    try {
      response = await safeFetch(
        target,
        { method: 'GET', headers: { accept, 'user-agent': userAgent }, timeoutMs: remaining, maxResponseBytes: limits.maxBytes },
        limits.policy,
      );
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw new FetchFailure(`${target}: refused: ${error.message}`, true, true);
      if (error instanceof OutboundTimeoutError) throw new FetchFailure(`${target}: no answer within ${limits.timeoutMs} ms`, false);
      const code = (error as NodeJS.ErrnoException).code;
      throw new FetchFailure(`${target}: ${code ? `${code} ` : ''}${(error as Error).message}`.trim(), false);
    }
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      if (!location) throw new FetchFailure(`${target}: redirect (${response.status}) without a location`, true);
      try {
        target = new URL(location, target).toString();
      } catch {
        throw new FetchFailure(`${target}: redirect to an invalid location`, true);
      }
      continue;
    }
    if (response.status >= 400 || response.status < 200) {
      throw new FetchFailure(`${target}: the server answered ${response.status}`, !transientStatus(response.status));
    }
    if (response.truncated) throw new FetchFailure(`${target}: larger than the ${limits.maxBytes}-byte limit`, true);
    const contentType = response.headers.get('content-type') ?? '';
    const [mediaType, ...params] = contentType.split(';').map((p) => p.trim());
    const charset = params.find((p) => /^charset=/i.test(p))?.slice(8).replace(/"/g, '');
    return {
      url: target,
      mediaType: mediaType.toLowerCase(),
      charset,
      body: decodeBody(response.body, response.headers.get('content-encoding'), limits.maxBytes, target),
    };
  }
  throw new FetchFailure(`${url}: more than ${maxRedirects} redirects`, true);
}

/** Undoes a content encoding the server applied although none was asked for, within the size limit. */
export function decodeBody(body: Buffer, encoding: string | null, maxBytes: number, url: string): Buffer {
  const name = encoding?.trim().toLowerCase();
  if (!name || name === 'identity') return body;
  const options = { maxOutputLength: maxBytes };
  try {
    if (name === 'gzip' || name === 'x-gzip') return gunzipSync(body, options);
    if (name === 'deflate') return inflateSync(body, options);
    if (name === 'br') return brotliDecompressSync(body, options);
  } catch (error) {
    throw new FetchFailure(`${url}: could not decode the ${name} body: ${(error as Error).message}`, true);
  }
  throw new FetchFailure(`${url}: unsupported content encoding ${name}`, true);
}

/** The body as text, in the charset the server declared (UTF-8 otherwise). */
export function bodyText(document: Pick<FetchedDocument, 'body' | 'charset'>): string {
  try {
    return new TextDecoder(document.charset ?? 'utf-8').decode(document.body);
  } catch {
    return new TextDecoder('utf-8').decode(document.body);
  }
}
