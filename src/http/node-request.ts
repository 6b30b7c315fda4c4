import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { compress, compressionThresholdBytes, varyOnEncoding, worthCompressing, type Encoding } from './compression.js';

// Node's request as much of the Fetch API as our handlers read, and the other way back: the direct
// lanes answer straight from node's request and response objects, skipping the adaptation yoga
// makes for every request (a Fetch Request with its body stream and abort signal, a Response).

/** Headers of a node request, as much of the Fetch `Headers` API as our code reads. */
export class NodeHeaders {
  constructor(private raw: IncomingMessage['headers']) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
  has(name: string) {
    return this.raw[name.toLowerCase()] !== undefined;
  }
  forEach(callback: (value: string, name: string) => void) {
    for (const name of Object.keys(this.raw)) callback(this.get(name)!, name);
  }
}

/** Headers a lane does not hand on to yoga: the body is read, and the lane encodes the answer itself. */
const notForwarded = new Set(['content-length', 'transfer-encoding', 'connection', 'accept-encoding']);

/** A node request whose body (if any) was read already. */
export class NodeRequestView {
  readonly headers: NodeHeaders;
  constructor(
    readonly method: string,
    readonly url: string,
    req: IncomingMessage,
    private raw: string | null,
  ) {
    this.headers = new NodeHeaders(req.headers);
  }
  get body() {
    return this.raw === null ? null : ({} as ReadableStream);
  }
  async text() {
    return this.raw ?? '';
  }
  async json() {
    return JSON.parse(this.raw ?? '');
  }
  /** The same request as a real Fetch Request, for handlers that need one. */
  toFetchRequest(): Request {
    const headers = new Headers();
    this.headers.forEach((value, name) => {
      if (!notForwarded.has(name)) headers.set(name, value);
    });
    return new Request(this.url, { method: this.method, headers, body: this.raw });
  }
}

export const jsonContentType = /^application\/(.+\+)?json\b/i;

/** The absolute URL of a node request. */
export function requestUrl(req: IncomingMessage, pathAndQuery = req.url ?? '/') {
  return `http://${req.headers.host ?? 'localhost'}${pathAndQuery}`;
}

/** True when a request says it carries a body. */
export function hasBody(req: IncomingMessage) {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

/**
 * Reads a body of at most `limit` bytes, declared or not (chunked bodies are counted as they come);
 * null when it is larger (the rest is drained, not kept).
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return (await readBodyBytes(req, limit))?.toString('utf8') ?? null;
}

/** `readBody`, as the bytes sent. */
export function readBodyBytes(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** An answer before it is written: what the lanes produce. A stream (a file) is piped as it comes. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Readable;
}

export async function replyOf(response: Response): Promise<Reply> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  delete headers['content-length'];
  return { status: response.status, headers, body: await response.text() };
}

/**
 * Writes a lane's answer. With `encoding` (what the client accepts, from `chooseEncoding`), a large
 * JSON answer goes out compressed; null (accepts none) still marks such an answer as varying by it.
 */
export function writeReply(res: ServerResponse, reply: Reply, encoding?: Encoding | null) {
  if (typeof reply.body !== 'string') {
    const stream = reply.body;
    res.writeHead(reply.status, reply.headers);
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
    return;
  }
  // Encoded once, outside the JavaScript heap: the length and the socket both read these bytes
  // (a string would be encoded once to measure it and again to write it).
  const body = Buffer.from(reply.body, 'utf8');
  if (encoding !== undefined && body.length >= compressionThresholdBytes && worthCompressing(headerOf(reply, 'content-type'), headerOf(reply, 'content-encoding'), body.length)) {
    reply.headers.vary = varyOnEncoding(reply.headers.vary);
    if (encoding) {
      compress(body, encoding).then(
        (compressed) => {
          reply.headers['content-encoding'] = encoding;
          send(res, reply, compressed);
        },
        () => send(res, reply, body),
      );
      return;
    }
  }
  send(res, reply, body);
}

/** A header of a reply whatever the case its writer gave the name in (yoga's results say `Content-Type`). */
function headerOf(reply: Reply, name: string): string | undefined {
  if (reply.headers[name] !== undefined) return reply.headers[name];
  for (const key in reply.headers) if (key.toLowerCase() === name) return reply.headers[key];
  return undefined;
}

function send(res: ServerResponse, reply: Reply, body: Buffer) {
  reply.headers['content-length'] = String(body.length);
  res.writeHead(reply.status, reply.headers).end(body);
}
