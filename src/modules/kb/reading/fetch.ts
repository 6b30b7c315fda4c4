import { OutboundRefusedError, OutboundTimeoutError, safeFetch, type OutboundPolicy } from '../../../infra/outbound.js';
import { inflate, InflateBudget, InflateLimitError, type Compression } from './inflate.js';

// Documents fetched for indexing and sitemaps: every hop of a redirect chain goes through the
// outbound policy again, so a public page cannot bounce the server to a private address.

/** A fetch that failed; `permanent` failures are not worth retrying (refused, 404, too large). */
export class FetchFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly refused = false,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

export interface FetchLimits {
  /** Largest document, as sent and once its content encoding is undone. */
  maxBytes: number;
  /** Most any decompression may produce. */
  inflateMaxBytes: number;
  /** For the whole document: name resolution, connection, redirects, body. */
  timeoutMs: number;
  policy: OutboundPolicy;
}

export interface FetchOptions {
  accept?: string;
  /** An earlier end (epoch ms) than the document's own timeout, e.g. the deadline of a whole call. */
  deadline?: number;
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

export async function fetchDocument(url: string, limits: FetchLimits, options: FetchOptions = {}): Promise<FetchedDocument> {
  const accept = options.accept ?? '*/*';
  // One reading of the clock: a tick between two made the message say 299 ms of a 300 ms limit.
  const now = Date.now();
  const deadline = Math.min(now + limits.timeoutMs, options.deadline ?? Infinity);
  const allowed = Math.max(0, deadline - now);
  const late = (at: string) => new FetchFailure(`${at}: no answer within ${allowed} ms`, false, false, true);
  let target = url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw late(url);
    let response;
    try {
      // Raced as a whole: the outbound timeout starts only once the name is resolved.
      response = await beforeDeadline(
        safeFetch(
          target,
          { method: 'GET', headers: { accept, 'user-agent': userAgent }, timeoutMs: remaining, maxResponseBytes: limits.maxBytes },
          limits.policy,
        ),
        remaining,
      );
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw new FetchFailure(`${target}: refused: ${error.message}`, true, true);
      if (error instanceof OutboundTimeoutError) throw late(target);
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
      body: await decodeBody(response.body, response.headers.get('content-encoding'), Math.min(limits.maxBytes, limits.inflateMaxBytes), target),
    };
  }
  throw new FetchFailure(`${url}: more than ${maxRedirects} redirects`, true);
}

function beforeDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OutboundTimeoutError(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const encodings = new Map<string, Compression>([
  ['gzip', 'gzip'],
  ['x-gzip', 'gzip'],
  ['deflate', 'http-deflate'],
  ['br', 'br'],
]);

/**
 * Undoes a content encoding the server applied although none was asked for. The output is counted
 * as it inflates and stopped past `maxBytes`: a small body may decompress to gigabytes.
 */
export async function decodeBody(body: Buffer, encoding: string | null, maxBytes: number, url: string): Promise<Buffer> {
  const name = encoding?.trim().toLowerCase();
  if (!name || name === 'identity') return body;
  const format = encodings.get(name);
  if (!format) throw new FetchFailure(`${url}: unsupported content encoding ${name}`, true);
  try {
    return await inflate(body, format, new InflateBudget(maxBytes));
  } catch (error) {
    if (error instanceof InflateLimitError) throw new FetchFailure(`${url}: the ${name} body ${error.message}`, true);
    throw new FetchFailure(`${url}: could not decode the ${name} body: ${(error as Error).message}`, true);
  }
}

/** The body as text, in the charset the server declared (UTF-8 otherwise). */
export function bodyText(document: Pick<FetchedDocument, 'body' | 'charset'>): string {
  try {
    return new TextDecoder(document.charset ?? 'utf-8').decode(document.body);
  } catch {
    return new TextDecoder('utf-8').decode(document.body);
  }
}
