import * as cheerio from 'cheerio';
import { ExtractionError } from './extraction-error.js';
import { normalizeText } from '../text.js';

// Readable text out of fetched or uploaded documents. HTML is read here, PDF and Word documents
// by document-readers.ts; the server runs all three in child processes (extraction-pool.ts).

export { ExtractionError, normalizeText };

export interface ExtractedText {
  title?: string;
  text: string;
  /** Pages of a PDF. */
  pages?: number;
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

const docxMediaTypes = new Set(['application/vnd.openxmlformats-officedocument.wordprocessingml.document']);
const htmlMediaTypes = new Set(['text/html', 'application/xhtml+xml']);
const plainMediaTypes = new Set(['text/plain', 'text/markdown', 'text/x-markdown', 'text/csv']);

/** A document read off the event loop: parsing it may take seconds and much memory. */
export type IsolatedDocument = { kind: 'pdf' | 'docx'; bytes: Uint8Array } | { kind: 'html'; html: string };

/** Reads documents in child processes (extraction-pool.ts). */
export interface DocumentReader {
  read(document: IsolatedDocument): Promise<ExtractedText>;
}

/** Text of a document of a given kind; a url content is read according to what the server sent. */
export async function documentText(
  kind: 'url' | 'pdf' | 'docx',
  document: { mediaType: string; body: Buffer; text: () => string },
  reader: DocumentReader,
): Promise<ExtractedText> {
  const head = document.body.subarray(0, 5).toString('latin1');
  if (kind === 'pdf') return reader.read({ kind: 'pdf', bytes: document.body });
  if (kind === 'docx') return reader.read({ kind: 'docx', bytes: document.body });
  if (document.mediaType === 'application/pdf' || head === '%PDF-') return reader.read({ kind: 'pdf', bytes: document.body });
  if (docxMediaTypes.has(document.mediaType)) return reader.read({ kind: 'docx', bytes: document.body });
  if (htmlMediaTypes.has(document.mediaType)) return reader.read({ kind: 'html', html: document.text() });
  if (plainMediaTypes.has(document.mediaType)) return { text: normalizeText(document.text()) };
  const text = document.text();
  if (!document.mediaType && /^\s*</.test(text)) return reader.read({ kind: 'html', html: text });
  throw new ExtractionError(`unsupported document type ${document.mediaType || 'unknown'}`);
}

function normalizeLine(line: string) {
  return line.replace(/\s+/g, ' ').trim();
}
