// Reads ./.env (or the file ENV_FILE names) into the environment before anything reads it, with
// Node's own parser; a variable already in the environment wins over the file. Imported first by
// every entry point (server, workers, db:migrate, bench, chaos). Tests set their whole environment
// and never read it.
import { existsSync } from 'node:fs';

const file = process.env.ENV_FILE ?? '.env';
if (process.env.NODE_ENV !== 'test') {
  if (existsSync(file)) process.loadEnvFile(file);
  else if (process.env.ENV_FILE) {
    console.error(`cannot start: ENV_FILE names ${file}, which does not exist`);
    process.exit(1);
  }
}
