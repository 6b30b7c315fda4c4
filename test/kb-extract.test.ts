import { describe, expect, it } from 'vitest';
import { makePdf } from './helpers/kb-fixtures.js';

// PDF.js (inside pdf-parse) brings core-js, which replaces some built-ins process-wide with slower
// JavaScript ones. The server must keep V8's own.
const natives = { parse: JSON.parse, push: Array.prototype.push, toString: Function.prototype.toString };
const current = () => ({ parse: JSON.parse, push: Array.prototype.push, toString: Function.prototype.toString });

describe('PDF extraction and the built-ins', () => {
  it('loads the whole server without replacing JSON.parse, Array.prototype.push or Function.prototype.toString', async () => {
    await import('../src/app.js');
    await import('../workers/jobs.js');
    expect(current()).toEqual(natives);
  });

  it('reads a PDF and leaves those built-ins native afterwards', async () => {
    const { pdfText } = await import('../src/modules/kb/reading/document-readers.js');
    expect((await pdfText(makePdf(['The built-ins stay native.']), { maxBytes: 1 << 20, maxEntries: 10 })).text).toContain('The built-ins stay native.');
    expect(current()).toEqual(natives);
    const list: number[] = [];
    list.push(1, 2);
    expect(list).toEqual([1, 2]);
  });
});
