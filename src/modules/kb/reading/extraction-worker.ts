import { docxText, loadPdfParse, pdfText } from './document-readers.js';
import { htmlText, type ExtractedText } from './extract.js';
import { ExtractionError } from './extraction-error.js';
import type { ExtractionReply, ExtractionRequest } from './extraction-pool.js';

// One extraction reader process (a child of the server): reads the documents it is sent, one at a
// time, and answers with their text. Every parser is loaded before it says it is ready, so a
// document's deadline is spent on the document alone. It ends with the server: when the IPC channel
// closes.

const send = (message: unknown) => process.send!(message);
process.on('disconnect', () => process.exit(0));

await loadPdfParse();

async function read({ document, limits }: ExtractionRequest): Promise<ExtractedText> {
  if (document.kind === 'html') return htmlText(document.html);
  const bytes = Buffer.from(document.bytes.buffer, document.bytes.byteOffset, document.bytes.byteLength);
  return document.kind === 'pdf' ? pdfText(bytes, limits) : { text: await docxText(bytes, limits) };
}

process.on('message', async (request: ExtractionRequest) => {
  let reply: ExtractionReply;
  try {
    reply = { id: request.id, ...(await read(request)) };
  } catch (error) {
    reply = { id: request.id, error: (error as Error).message || String(error), permanent: error instanceof ExtractionError };
  }
  send(reply);
});

send({ ready: true });
