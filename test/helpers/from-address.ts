import { request as httpRequest } from 'node:http';
import type { Reply, RequestOptions } from './app.js';

// Calls from another client address. Every 127.0.0.0/8 address is this machine's loopback: a
// socket bound to 127.0.0.7 still reaches the server at 127.0.0.1, which sees 127.0.0.7 as the
// client. Nothing leaves the machine.

export interface AddressClient {
  address: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Reply<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<Reply<T>>;
  post<T = any>(path: string, options?: RequestOptions): Promise<Reply<T>>;
}

export function fromAddress(baseUrl: string, address: string): AddressClient {
  const target = new URL(baseUrl);
  const request = <T>(method: string, path: string, options: RequestOptions = {}) =>
    new Promise<Reply<T>>((resolve, reject) => {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = options.token;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const req = httpRequest(
        { host: target.hostname, port: target.port, path, method, headers, localAddress: address, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = text;
            }
            const replyHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined) replyHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
            }
            resolve({ status: res.statusCode ?? 0, body: parsed as T, headers: replyHeaders });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    address,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
  };
}

/** `Basic <base64 email:password>`. */
export const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
