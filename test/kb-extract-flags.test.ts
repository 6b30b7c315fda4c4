import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The extraction readers under the node flags `npm start` runs with: when documents were read in
// worker threads, V8 flags were the whole process's, and a young generation too large for a
// thread's heap limit once made a document needing too much memory end the server (a fatal
// out-of-memory) instead of its content (a 400). Readers are child processes now; this holds it.

const root = path.resolve(import.meta.dirname, '..');
const start = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start as string;
const nodeFlags = start.replace(/^exec\s+/, '').split(/\s+/).filter((word) => /^--max-/.test(word));

describe('reading documents in a process started like npm start', () => {
  it('ends a document needing more than KB_EXTRACT_MAX_MEMORY_MB in an error, and the process lives on', async () => {
    expect(nodeFlags.length).toBeGreaterThan(0);
    const { stdout } = await promisify(execFile)(process.execPath, [...nodeFlags, '--import', 'tsx', 'test/helpers/extract-process.ts'], { cwd: root });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ error: expect.stringMatching(/needs more than 128 MB of memory to read/) });
  }, 60_000);
});
