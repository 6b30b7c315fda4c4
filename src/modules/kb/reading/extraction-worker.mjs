// Entry of an extraction reader process (see extraction-pool.ts). It is started without the
// server's flags, so it registers the TypeScript loader before loading the reader itself.
import { register } from 'tsx/esm/api';

register();
await import('./extraction-worker.ts');
