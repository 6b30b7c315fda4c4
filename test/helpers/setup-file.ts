import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { startEmbeddedDatabasesFrom } from '../../src/infra/database.js';

// Runs before each test file: every embedded database the file opens starts from the image the
// global setup migrated (see templates.ts). The image (about 40 MB) is read once per worker: the
// files a worker runs share its module state (isolate: false), this copy included.
const worker = globalThis as { embeddedImage?: Blob };
worker.embeddedImage ??= new Blob([readFileSync(inject('embeddedImage'))]);
startEmbeddedDatabasesFrom(worker.embeddedImage);
