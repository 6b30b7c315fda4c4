import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import JSZip from 'jszip';

// Documents made by the tests and a local web site (127.0.0.1 only) that serves them.

/** A one-page PDF with the given lines of text, written by hand (Helvetica, uncompressed). */
export function makePdf(lines: string[]): Buffer {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((l) => `(${escape(l)}) '`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A minimal Word document with one paragraph per entry. */
export async function makeDocx(paragraphs: string[]): Promise<Buffer> {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
  );
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
      paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${escape(p)}</w:t></w:r></w:p>`).join('') +
      '</w:body></w:document>',
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

export interface Page {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Answer only after this long (timeouts). */
  delayMs?: number;
}

export interface FakeSite {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  serve(path: string, page: Page | ((request: IncomingMessage, count: number) => Page)): void;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startSite(): Promise<FakeSite> {
  const routes = new Map<string, Page | ((request: IncomingMessage, count: number) => Page)>();
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const route = routes.get(path);
    const count = requests.filter((r) => r === path).length;
    const page: Page = !route ? { status: 404, body: 'not found' } : typeof route === 'function' ? route(request, count) : route;
    const send = () => {
      if (response.destroyed) return;
      response.writeHead(page.status ?? 200, page.headers ?? { 'content-type': 'text/html; charset=utf-8' });
      response.end(page.body ?? '');
    };
    if (page.delayMs) setTimeout(send, page.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    serve: (path, page) => void routes.set(path, page),
    hits: (path) => requests.filter((r) => r === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><style>.x{color:red}</style></head><body>${body}</body></html>`;

/** Polls `check` until it returns something truthy, for at most `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T>, what: string, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Client {
  get(path: string, options?: { token?: string }): Promise<{ status: number; body: any }>;
}

/** Polls a content until it reaches `status` (fails early if it ends in another final status). */
export async function waitForStatus(t: Client, projectId: string, token: string, contentId: string, status: number) {
  return waitFor(async () => {
    const res = await t.get(`/v3/${projectId}/kb/${contentId}`, { token });
    if (res.status !== 200) throw new Error(`GET content answered ${res.status}: ${JSON.stringify(res.body)}`);
    const final = res.body.status === 300 || res.body.status === 400;
    if (final && res.body.status !== status) {
      throw new Error(`content ended in status ${res.body.status} (${res.body.error}) instead of ${status}`);
    }
    return res.body.status === status ? res.body : null;
  }, `content ${contentId} in status ${status}`);
}
