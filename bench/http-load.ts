// A lean closed-loop HTTP/1.1 load generator, run as its own process by `httpLoad` (tool 'node')
// where wrk is not installed: `connections` keep-alive sockets, each sending its next request as
// soon as the previous response is complete. It parses no more of a response than it must (status,
// Content-Length or chunked framing), so it takes a fraction of the CPU per request autocannon
// does, CPU the server under test shares with it on a small machine.
//
// Usage: http-load.ts '<json {url, method, headers, body, connections, seconds}>'; prints one JSON
// line {requests, micros, p50, p99, errors, non2xx} (latencies in microseconds), as the wrk script does.
import net from 'node:net';
import { percentile } from './lib.js';

interface Options {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  /** Connection i sends to the i-th of these (in turn), in place of `url`, with these headers added. */
  perConnection?: Array<{ url: string; headers?: Record<string, string> }>;
}

const options = JSON.parse(process.argv[2]) as Options;
const target = new URL(options.url);
const body = Buffer.from(options.body ?? '');
const requestTo = (url: URL, headers: Record<string, string>) =>
  Buffer.concat([
    Buffer.from(
      [
        `${options.method} ${url.pathname}${url.search} HTTP/1.1`,
        `host: ${url.host}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        ...(body.length ? [`content-length: ${body.length}`] : []),
        '',
        '',
      ].join('\r\n'),
    ),
    body,
  ]);
const requests = (options.perConnection ?? [{ url: options.url }]).map((c) => requestTo(new URL(c.url), { ...options.headers, ...c.headers }));

const headerEnd = Buffer.from('\r\n\r\n');
const crlf = Buffer.from('\r\n');
let latencies = new Float64Array(1 << 16);
let answered = 0;
let errors = 0;
let non2xx = 0;
let stopping = false;

function record(micros: number) {
  if (answered === latencies.length) {
    const grown = new Float64Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
  }
  latencies[answered++] = micros;
}

interface Head {
  status: number;
  /** Where the body starts in the bytes read so far. */
  bodyStart: number;
  /** The body's length, or null for a chunked body. */
  length: number | null;
}

/** The response's head, once all of it has been read. */
function parseHead(data: Buffer): Head | undefined {
  const end = data.indexOf(headerEnd);
  if (end < 0) return undefined;
  const head = data.toString('latin1', 0, end).toLowerCase();
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  const chunked = !length && /\r\ntransfer-encoding: *chunked/.test(head);
  return { status: Number(head.slice(9, 12)), bodyStart: end + 4, length: length ? Number(length[1]) : chunked ? null : 0 };
}

/** Whether a chunked body starting at `at` is complete: size line (hex), data, CRLF; size 0 ends it, then the trailer's CRLF. */
function chunkedComplete(data: Buffer, at: number): boolean {
  for (;;) {
    const lineEnd = data.indexOf(crlf, at);
    if (lineEnd < 0) return false;
    const size = parseInt(data.toString('latin1', at, lineEnd), 16);
    if (size === 0) return data.length >= lineEnd + 4;
    at = lineEnd + 2 + size + 2;
    if (data.length < at) return false;
  }
}

function connection(index: number): Promise<void> {
  const request = requests[index % requests.length];
  return new Promise((resolve) => {
    const socket = net.connect(Number(target.port || 80), target.hostname);
    socket.setNoDelay(true);
    // The bytes of the current response kept so far (its head, or a chunked body), and the body
    // bytes still to come of a body of known length (only counted, not kept).
    let kept: Buffer | undefined;
    let head: Head | undefined;
    let remaining = 0;
    let sentAt = 0;
    const send = () => {
      if (stopping) {
        socket.end();
        return;
      }
      kept = head = undefined;
      remaining = 0;
      sentAt = performance.now();
      socket.write(request);
    };
    const complete = () => {
      record((performance.now() - sentAt) * 1000);
      if (head!.status < 200 || head!.status > 299) non2xx++;
      send();
    };
    socket.on('connect', send);
    socket.on('data', (chunk: Buffer) => {
      if (head && head.length !== null) {
        remaining -= chunk.length;
        if (remaining <= 0) complete();
        return;
      }
      kept = kept ? Buffer.concat([kept, chunk]) : chunk;
      if (!head) {
        head = parseHead(kept);
        if (!head) return;
        if (head.length !== null) {
          remaining = head.length - (kept.length - head.bodyStart);
          kept = undefined;
          if (remaining <= 0) complete();
          return;
        }
      }
      if (chunkedComplete(kept, head.bodyStart)) complete();
    });
    socket.on('error', () => errors++);
    socket.on('close', () => resolve());
  });
}

const started = performance.now();
setTimeout(() => (stopping = true), options.seconds * 1000);
await Promise.all(Array.from({ length: options.connections }, (_, i) => connection(i)));
const micros = Math.round((performance.now() - started) * 1000);
const sorted = Array.from(latencies.subarray(0, answered).sort());
const at = (p: number) => Math.round(percentile(sorted, p));
console.log(JSON.stringify({ requests: answered, micros, p50: at(50), p99: at(99), errors, non2xx }));
