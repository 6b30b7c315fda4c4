import { parentPort } from 'node:worker_threads';
import { docxText, loadPdfReaders, pdfText } from './document-readers.js';
import { htmlText, type ExtractedText } from './extract.js';
import { ExtractionError } from './extraction-error.js';
import type { ExtractionReply, ExtractionRequest } from './extraction-pool.js';

// One extraction worker thread: reads the documents it is sent, one at a time, and answers with
// their text. Every parser is loaded before it says it is ready, so a document's deadline is spent
// on the document alone.

const port = parentPort!;

await loadPdfReaders();

async function read({ document, limits }: ExtractionRequest): Promise<ExtractedText> {
  if (document.kind === 'html') return htmlText(document.html);
  const bytes = Buffer.from(document.bytes.buffer, document.bytes.byteOffset, document.bytes.byteLength);
  return document.kind === 'pdf' ? pdfText(bytes, limits) : { text: await docxText(bytes, limits) };
}

port.on('message', async (request: ExtractionRequest) => {
  let reply: ExtractionReply;
  try {
    reply = { id: request.id, ...(await read(request)) };
  } catch (error) {
    reply = { id: request.id, error: (error as Error).message || String(error), permanent: error instanceof ExtractionError };
  }
  port.postMessage(reply);
});

port.postMessage({ ready: true });
