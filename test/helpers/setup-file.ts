import { startEmbeddedDatabasesFrom } from '../../src/infra/database.js';
import { embeddedImage } from './data-dir.js';

// Runs before each test file: every embedded database the file opens starts from the image the
// global setup migrated (see templates.ts), and an in-memory one a closed app leaves is emptied
// and opened again by the worker's next app.
startEmbeddedDatabasesFrom(embeddedImage(), { recycle: true });
