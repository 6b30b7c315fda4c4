// Reads a DOCX needing more memory than a 128 MB extraction reader has, in its own process, and
// prints the outcome as one JSON line: for running the extraction worker under the node flags
// `npm start` uses (kb-extract-flags.test.ts).
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { DocumentExtractor } from '../../src/modules/kb/reading/extraction-pool.js';
import { docxBomb } from './kb-fixtures.js';

const { kb } = loadConfig({ KB_EXTRACT_MAX_MEMORY_MB: '128', JWT_SECRET: 'x'.repeat(40) });
const extractor = new DocumentExtractor(
  { maxBytes: kb.inflateMaxBytes, maxEntries: kb.archiveMaxEntries, timeoutMs: 60_000, maxMemoryMb: kb.extractMaxMemoryMb, workers: 1 },
  pino({ level: 'silent' }),
);
try {
  await extractor.read({ kind: 'docx', bytes: new Uint8Array(docxBomb(30)) });
  process.stdout.write(`${JSON.stringify({ read: true })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
}
process.exit(0);
