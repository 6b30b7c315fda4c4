import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import JSZip from 'jszip';
import zlib from 'node:zlib';

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
  /** Never answer (the connection stays open until the site closes). */
  hang?: boolean;
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
    if (page.hang) return;
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
  post(path: string, options?: { token?: string; body?: unknown }): Promise<{ status: number; body: any }>;
}

/** Adds a text (or faq) content to a namespace as `token`'s caller and waits until it is indexed (300); answers its id. */
export async function addIndexed(t: Client, projectId: string, token: string, namespace: string, content: string, type: 'text' | 'faq' = 'text') {
  const res = await t.post(`/v3/${projectId}/kb`, { token, body: { namespace, type, content } });
  if (res.status !== 200) throw new Error(`POST content answered ${res.status}: ${JSON.stringify(res.body)}`);
  const id = res.body.value._id as string;
  await waitForStatus(t, projectId, token, id, 300);
  return id;
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

// Decompression bombs, built small and fast: one unit is compressed once and its compressed form
// repeated, since a deflate block that refers to nothing before it decodes the same anywhere.

/** Raw deflate data that inflates to `unit` repeated `times` (plus `head` before and `tail` after). */
export function deflateBomb(unit: Buffer, times: number, head = Buffer.alloc(0), tail = Buffer.alloc(0)) {
  const flush = { finishFlush: zlib.constants.Z_FULL_FLUSH };
  const repeated = zlib.deflateRawSync(unit, flush);
  const parts = [zlib.deflateRawSync(head, flush), ...Array<Buffer>(times).fill(repeated), zlib.deflateRawSync(tail)];
  // The CRC-32 of everything, computed when asked (a ZIP declares it; over gigabytes it takes seconds).
  const crc = () => {
    let value = zlib.crc32(head);
    for (let i = 0; i < times; i++) value = zlib.crc32(unit, value);
    return zlib.crc32(tail, value) >>> 0;
  };
  return { deflated: Buffer.concat(parts), size: head.length + unit.length * times + tail.length, crc };
}

/**
 * A gzip member around raw deflate data. Its CRC is computed only when asked: over gigabytes it
 * takes seconds, and a reader that stops at its limit never reaches the trailer.
 */
export function gzipOf(bomb: { deflated: Buffer; size: number; crc: () => number }, checksum = false) {
  const trailer = Buffer.alloc(8);
  if (checksum) trailer.writeUInt32LE(bomb.crc(), 0);
  trailer.writeUInt32LE(bomb.size % 2 ** 32, 4);
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]), bomb.deflated, trailer]);
}

/** A zlib stream around raw deflate data; the Adler-32 is left zero (PDF.js does not check it). */
export function zlibOf(bomb: { deflated: Buffer }) {
  return Buffer.concat([Buffer.from([0x78, 0x9c]), bomb.deflated, Buffer.alloc(4)]);
}

/** Brotli data that decompresses to `megabytes` MiB of zeros. */
export async function brotliBomb(megabytes: number): Promise<Buffer> {
  const compressor = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
  const chunks: Buffer[] = [];
  compressor.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => compressor.on('end', resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++) if (!compressor.write(zeros)) await new Promise((resolve) => compressor.once('drain', resolve));
  compressor.end();
  await ended;
  return Buffer.concat(chunks);
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated */
  method: 0 | 8;
  data: Buffer;
  /** What the archive declares; the real sizes unless a test lies. */
  size: number;
  crc: number;
}

export const storedEntry = (name: string, content: string | Buffer): ZipEntry => {
  const data = Buffer.from(content);
  return { name, method: 0, data, size: data.length, crc: zlib.crc32(data) >>> 0 };
};

export const deflatedEntry = (name: string, content: string | Buffer): ZipEntry => {
  const raw = Buffer.from(content);
  return { name, method: 8, data: zlib.deflateRawSync(raw), size: raw.length, crc: zlib.crc32(raw) >>> 0 };
};

/** A ZIP archive written by hand: local headers, central directory, end record. */
export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size % 2 ** 32, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size % 2 ** 32, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    directory.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length % 0x10000, 8);
  end.writeUInt16LE(entries.length % 0x10000, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directoryBytes, end]);
}

const docxContentTypes =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
  '</Types>';
const docxRelationships =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
  '</Relationships>';
const documentHead =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
const documentTail = '</w:body></w:document>';

/** The parts of a Word document around a given word/document.xml entry, plus any extra entries. */
export function docxWith(document: ZipEntry, extra: ZipEntry[] = []): Buffer {
  return makeZip([storedEntry('[Content_Types].xml', docxContentTypes), storedEntry('_rels/.rels', docxRelationships), document, ...extra]);
}

const paragraph = '<w:p><w:r><w:t>All work and no play makes Jack a dull boy.</w:t></w:r></w:p>';

/** One MiB (or a little less) of Word paragraphs. */
export const paragraphsMiB = Buffer.from(paragraph.repeat(Math.floor((1024 * 1024) / paragraph.length)));

/** A Word document whose word/document.xml inflates to about `megabytes` MiB of paragraphs. */
export function docxBomb(megabytes: number, declaredSize?: number): Buffer {
  const bomb = deflateBomb(paragraphsMiB, megabytes, Buffer.from(documentHead), Buffer.from(documentTail));
  return docxWith({ name: 'word/document.xml', method: 8, data: bomb.deflated, size: declaredSize ?? bomb.size, crc: bomb.crc() });
}

/** A small Word document, its word/document.xml deflated as Word does. */
export function deflatedDocx(paragraphs: string[]): Buffer {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('');
  return docxWith(deflatedEntry('word/document.xml', documentHead + body + documentTail));
}

/**
 * A one-page PDF whose content stream is `stream`, with `dictionary` entries (such as a /Filter)
 * in the stream's dictionary; `objects` are appended as objects 6, 7 and so on.
 */
export function makePdfWithContents(stream: Buffer, dictionary = '', objects: Array<string | Buffer> = [], trailer = ''): Buffer {
  const bodies: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} ${dictionary} >>\nstream\n`, 'latin1'), stream, Buffer.from('\nendstream', 'latin1')]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...objects,
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n', 'latin1')];
  let size = parts[0].length;
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(size);
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), Buffer.from(body as string, 'latin1'), Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(object);
    size += object.length;
  });
  parts.push(
    Buffer.from(
      `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n` +
        offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
        `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R ${trailer} >>\nstartxref\n${size}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

/** One MiB (or a little less) of PDF text operators. */
export const textOperatorsMiB = (() => {
  const line = 'BT /F1 12 Tf 72 720 Td (All work and no play makes Jack a dull boy.) Tj ET\n';
  return Buffer.from(line.repeat(Math.floor((1024 * 1024) / line.length)), 'latin1');
})();

/** LZW codes (PDF's LZWDecode, EarlyChange 1) for a long run of one byte: each new code is one byte longer. */
export function lzwRunBomb(codes: number): Buffer {
  const out: number[] = [];
  let bits = 0;
  let pending = 0;
  const write = (code: number, length: number) => {
    pending = (pending << length) | code;
    bits += length;
    while (bits >= 8) {
      out.push((pending >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    pending &= (1 << bits) - 1;
  };
  let codeLength = 9;
  let nextCode = 258;
  write(0x20, codeLength); // a space
  for (let i = 0; i < codes; i++) {
    // The newest entry (the previous sequence plus one more space), or, once the table is full, its longest one.
    const code = Math.min(nextCode, 4095);
    write(code, codeLength);
    if (nextCode < 4096) nextCode++;
    const n = nextCode + 1;
    if ((n & (n - 1)) === 0 && n <= 4096) codeLength = Math.min(Math.log2(n) + 1, 12);
  }
  write(257, codeLength);
  if (bits) write(0, 8 - bits);
  return Buffer.from(out);
}

/**
 * A zlib stream that zlib refuses but PDF.js inflates: one dynamic Huffman block whose literal/length
 * code is incomplete (a space, length 258 and end of block, with code lengths 1, 2 and 3), which
 * zlib rejects and PDF.js does not check, then a space and `runs` copies of 258 bytes at distance 1.
 */
export function incompleteHuffmanBomb(runs: number): Buffer {
  const bytes: number[] = [];
  let current = 0;
  let used = 0;
  const bits = (value: number, count: number) => {
    for (let i = 0; i < count; i++) {
      current |= ((value >> i) & 1) << used;
      if (++used === 8) {
        bytes.push(current);
        current = 0;
        used = 0;
      }
    }
  };
  /** Canonical Huffman codes (RFC 1951, 3.2.2) for symbol lengths. */
  const canonical = (lengths: Map<number, number>) => {
    const codes = new Map<number, { code: number; length: number }>();
    let code = 0;
    for (let length = 1; length <= 15; length++) {
      for (const symbol of [...lengths.keys()].sort((a, b) => a - b)) {
        if (lengths.get(symbol) === length) codes.set(symbol, { code: code++, length });
      }
      code <<= 1;
    }
    return (symbol: number) => {
      const { code: value, length } = codes.get(symbol)!;
      for (let i = length - 1; i >= 0; i--) bits((value >> i) & 1, 1);
    };
  };
  const space = 0x20;
  const literal = canonical(new Map([[space, 1], [285, 2], [256, 3]]));
  const distance = canonical(new Map([[0, 1]]));
  // The code lengths themselves: 0 to 3 and 18 (a run of 11 to 138 zeros), a complete code.
  const lengthCode = new Map([[18, 2], [0, 2], [1, 2], [2, 3], [3, 3]]);
  const writeLength = canonical(lengthCode);
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  bits(1, 1); // last block
  bits(2, 2); // dynamic Huffman codes
  bits(286 - 257, 5);
  bits(1 - 1, 5);
  bits(18 - 4, 4);
  for (const symbol of order.slice(0, 18)) bits(lengthCode.get(symbol) ?? 0, 3);
  const lengths = Array<number>(286 + 1).fill(0);
  lengths[space] = 1;
  lengths[256] = 3;
  lengths[285] = 2;
  lengths[286] = 1; // the one distance code
  for (let i = 0; i < lengths.length; ) {
    let zeros = 0;
    while (lengths[i + zeros] === 0 && zeros < 138) zeros++;
    if (zeros >= 11) {
      writeLength(18);
      bits(zeros - 11, 7);
      i += zeros;
    } else {
      writeLength(lengths[i]);
      i++;
    }
  }
  literal(space);
  for (let i = 0; i < runs; i++) {
    literal(285);
    distance(0);
  }
  literal(256);
  if (used) bytes.push(current);
  return Buffer.concat([Buffer.from([0x78, 0x9c]), Buffer.from(bytes), Buffer.alloc(4)]);
}
