// Entry of an extraction worker thread (see extraction-pool.ts). A worker thread does not inherit
// the TypeScript loader the server runs under, so it registers tsx before loading the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./extraction-worker.ts');
