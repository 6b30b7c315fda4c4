import mammoth from 'mammoth';
import { ExtractionError } from './extraction-error.js';
import { InflateBudget } from './inflate.js';
import { checkPdfStreams } from './pdf-streams.js';
import { normalizeText } from '../text.js';
import { ZipArchive, type ArchiveLimits } from './zip.js';

// The text of PDF and Word documents, read within the limits on what they decompress to. The
// server runs these in worker threads (extraction-pool.ts), never on its event loop.

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
export function loadPdfParse() {
  pdfParse ??= import('pdf-parse').finally(restoreNatives);
  return pdfParse;
}

let pdfLoader: Promise<typeof import('@langchain/community/document_loaders/web/pdf')> | undefined;
/** pdf-parse (loaded with the worker) and the community PDF loader (loaded with the first PDF, so HTML and DOCX never wait for it). */
export const loadPdfReaders = () => Promise.all([loadPdfParse(), (pdfLoader ??= import('@langchain/community/document_loaders/web/pdf'))]);

/**
 * The text of a PDF (and its page count), once every stream PDF.js would decode for it is known to
 * stay within the limits. Its pages are read by @langchain/community's WebPDFLoader, one Document
 * per page, given our pdf-parse (loaded as above) rather than importing its own.
 */
export async function pdfText(bytes: Uint8Array, limits: ArchiveLimits): Promise<{ text: string; pages: number }> {
  await checkPdfStreams(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), new InflateBudget(limits.maxBytes));
  const [{ PDFParse }, { WebPDFLoader }] = await loadPdfReaders();
  const loader = new WebPDFLoader(new Blob([new Uint8Array(bytes)]), {
    splitPages: true,
    pdfjs: async () => ({ isV2: true, PDFParse }) as never,
  });
  try {
    const pages = await loader.load();
    return { text: normalizeText(pages.map((page) => page.pageContent).join('\n\n')), pages: pages.length };
  } catch (error) {
    throw new ExtractionError(`not a readable PDF document: ${(error as Error).message}`);
  } finally {
    restoreNatives();
  }
}

/** The text of a Word document, its parts read through the bounded archive reader rather than mammoth's own unzip. */
export async function docxText(bytes: Uint8Array, limits: ArchiveLimits): Promise<string> {
  const archive = ZipArchive.open(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), limits);
  const file = {
    exists: (name: string) => archive.has(name),
    read: async (name: string, encoding?: string) => {
      const data = await archive.read(name);
      if (encoding === 'base64') return data.toString('base64');
      return encoding ? new TextDecoder(encoding).decode(data) : data;
    },
  };
  try {
    const result = await mammoth.extractRawText({ file } as unknown as { buffer: Buffer });
    return normalizeText(result.value);
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError(`not a readable DOCX document: ${(error as Error).message}`);
  }
}
