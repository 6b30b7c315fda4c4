import { fileTypeFromBuffer } from 'file-type';

// The media type of an upload comes from its bytes, never from the client's header or the
// file name: a name only refines plain text (csv, markdown, json), which has no signature.

const textByExtension: Record<string, string> = {
  csv: 'text/csv',
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
};

// What the WHATWG sniffing rules take for HTML (a leading tag), plus script-bearing tags anywhere.
const htmlStart = /^\uFEFF?\s*<(!doctype\s+html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[\s>]/i;
const scriptTags = /<(script|iframe|object|embed)[\s>/]/i;

/** Types a browser would run or render as a document: only ever served as an attachment. */
const activeTypes = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'application/xml',
  'text/xml',
  'text/javascript',
  'application/javascript',
]);

export const isActiveContent = (type: string) => activeTypes.has(type);

function isUtf8Text(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 64 * 1024);
  if (head.includes(0)) return false;
  try {
    // A multi-byte character may be cut at the end of the sample: decode in streaming mode.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head.length < bytes.length });
    return true;
  } catch {
    return false;
  }
}

function textType(bytes: Uint8Array, filename: string): string {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('utf8');
  if (/<svg[\s>]/i.test(head)) return 'image/svg+xml';
  if (htmlStart.test(head) || scriptTags.test(head)) return 'text/html';
  if (/^\uFEFF?\s*<\?xml/i.test(head)) return 'application/xml';
  const extension = filename.toLowerCase().split('.').pop() ?? '';
  return textByExtension[extension] ?? 'text/plain';
}

export async function detectContentType(bytes: Uint8Array, filename: string): Promise<string> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) {
    return detected.mime === 'application/xml' ? textType(bytes, filename) : detected.mime;
  }
  return isUtf8Text(bytes) ? textType(bytes, filename) : 'application/octet-stream';
}

/** Whether an allow-list entry (`image/png` or `audio/*`) admits a type. */
export function isAllowedType(type: string, allowed: readonly string[]): boolean {
  const [family] = type.split('/');
  return allowed.some((entry) => entry === type || entry === `${family}/*`);
}
