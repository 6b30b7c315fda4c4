import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { startEmbeddedDatabasesFrom } from '../../src/infra/database.js';

// Runs before each test file: every embedded database the file opens starts from the image the
// global setup migrated (see templates.ts).
startEmbeddedDatabasesFrom(new Blob([readFileSync(inject('embeddedImage'))]));
