import * as cheerio from 'cheerio';
import mammoth from 'mammoth';

// Readable text out of fetched or uploaded documents.

/** The document cannot give text (corrupt, unsupported, empty): retrying will not help. */
export class ExtractionError extends Error {}

export interface ExtractedText {
  title?: string;
  text: string;
}

const blockTags = new Set([
  'address', 'article', 'blockquote', 'br', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'hr', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'td', 'th', 'tr', 'ul',
]);

// Page furniture rather than content.
const dropped = [
  'script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'form', 'button', 'select',
  'nav', 'aside', 'footer', 'dialog', '[role=navigation]', '[role=banner]', '[role=contentinfo]', '[aria-hidden=true]',
  '[hidden]',
].join(', ');

interface DomNode {
  type: string;
  name?: string;
  data?: string;
  children?: DomNode[];
}

/** Visible text of an HTML page, block elements on their own lines, without scripts, styles and navigation. */
export function htmlText(html: string): ExtractedText {
  const $ = cheerio.load(html);
  const title = normalizeLine($('title').first().text()) || normalizeLine($('h1').first().text()) || undefined;
  $(dropped).remove();
  // A site header is navigation; an article's own header holds its title.
  $('header').filter((_, el) => $(el).closest('main, article').length === 0).remove();
  const main = $('main').first();
  const article = $('article').first();
  const body = $('body').first();
  const roots = (main.length ? main : article.length ? article : body).toArray() as unknown as DomNode[];
  const parts: string[] = [];
  const walk = (node: DomNode) => {
    if (node.type === 'text') parts.push(node.data ?? '');
    else if (node.type === 'tag' || node.type === 'root') {
      const block = node.name ? blockTags.has(node.name) : false;
      if (block) parts.push('\n');
      for (const child of node.children ?? []) walk(child);
      if (block) parts.push('\n');
    }
  };
  for (const node of roots.length ? roots : ($.root().toArray() as unknown as DomNode[])) walk(node);
  return { title, text: normalizeText(parts.join('')) };
}

/**
 * pdf-parse's PDF.js (its legacy build, and its worker, loaded on the first parse) brings core-js,
 * which replaces built-ins it finds wanting for the whole process: JSON.parse (no source access on
 * Node 20), Array.prototype.push and Function.prototype.toString. The replacements are JavaScript,
 * several times slower than V8's own, and every push and parse in the server would pay for them.
 * So pdf-parse is loaded on the first PDF, and V8's three are put back after loading and after each
 * parse (PDF.js needs nothing the replacements add); what core-js only adds where missing
 * (Promise.withResolvers and others) stays.
 */
const natives: Array<[Record<string, unknown>, string, unknown]> = [
  [JSON as unknown as Record<string, unknown>, 'parse', JSON.parse],
  [Array.prototype as unknown as Record<string, unknown>, 'push', Array.prototype.push],
  [Function.prototype as unknown as Record<string, unknown>, 'toString', Function.prototype.toString],
];

function restoreNatives() {
  for (const [owner, key, value] of natives) {
    if (owner[key] !== value) Object.defineProperty(owner, key, { value, writable: true, configurable: true, enumerable: false });
  }
}

let pdfParse: Promise<typeof import('pdf-parse')> | undefined;
function loadPdfParse() {
  pdfParse ??= import('pdf-parse').finally(restoreNatives);
  return pdfParse;
}

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { PDFParse } = await loadPdfParse();
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const result = await parser.getText({ pageJoiner: '' });
    return normalizeText(result.text);
  } catch (error) {
    throw new ExtractionError(`not a readable PDF document: ${(error as Error).message}`);
  } finally {
    await parser.destroy().catch(() => {});
    restoreNatives();
  }
}

export async function docxText(bytes: Uint8Array): Promise<string> {
  try {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    return normalizeText(result.value);
  } catch (error) {
    throw new ExtractionError(`not a readable DOCX document: ${(error as Error).message}`);
  }
}

const docxMediaTypes = new Set(['application/vnd.openxmlformats-officedocument.wordprocessingml.document']);
const htmlMediaTypes = new Set(['text/html', 'application/xhtml+xml']);
const plainMediaTypes = new Set(['text/plain', 'text/markdown', 'text/x-markdown', 'text/csv']);

/** Text of a document of a given kind; a url content is read according to what the server sent. */
export async function documentText(
  kind: 'url' | 'pdf' | 'docx',
  document: { mediaType: string; body: Buffer; text: () => string },
): Promise<ExtractedText> {
  const head = document.body.subarray(0, 5).toString('latin1');
  if (kind === 'pdf') return { text: await pdfText(document.body) };
  if (kind === 'docx') return { text: await docxText(document.body) };
  if (document.mediaType === 'application/pdf' || head === '%PDF-') return { text: await pdfText(document.body) };
  if (docxMediaTypes.has(document.mediaType)) return { text: await docxText(document.body) };
  if (htmlMediaTypes.has(document.mediaType)) return htmlText(document.text());
  if (plainMediaTypes.has(document.mediaType)) return { text: normalizeText(document.text()) };
  const text = document.text();
  if (!document.mediaType && /^\s*</.test(text)) return htmlText(text);
  throw new ExtractionError(`unsupported document type ${document.mediaType || 'unknown'}`);
}

function normalizeLine(line: string) {
  return line.replace(/\s+/g, ' ').trim();
}

/** One space between words, one blank line at most between paragraphs. */
export function normalizeText(text: string) {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[\t\f\v \u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
