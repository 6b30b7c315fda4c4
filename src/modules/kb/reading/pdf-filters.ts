import type { InflateBudget } from './inflate.js';
import { isWhiteSpace, type PdfDict } from './pdf-objects.js';

// The PDF filters other than Flate, decoded the way PDF.js decodes them, their output counted
// against the document's budget as it grows (pdf-streams.ts). Run in an extraction worker thread.

const outputChunk = 64 * 1024;

/** Collects decoded output in chunks, counting each against the budget as it fills. */
class Output {
  private chunks: Buffer[] = [];
  private chunk = Buffer.allocUnsafe(outputChunk);
  private used = 0;

  constructor(private budget: InflateBudget) {}

  push(byte: number) {
    if (this.used === outputChunk) this.flush();
    this.chunk[this.used++] = byte;
  }

  private flush() {
    this.budget.take(this.used);
    this.chunks.push(this.chunk.subarray(0, this.used));
    this.chunk = Buffer.allocUnsafe(outputChunk);
    this.used = 0;
  }

  done(): Buffer {
    this.flush();
    return Buffer.concat(this.chunks);
  }
}

/** LZW as PDF.js decodes it: 9 to 12-bit codes, 256 clears the table, 257 ends. */
export function lzwDecode(input: Buffer, earlyChange: number, budget: InflateBudget): Buffer {
  const output = new Output(budget);
  const values = new Uint8Array(4096);
  const lengths = new Uint16Array(4096);
  const previous = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) {
    values[i] = i;
    lengths[i] = 1;
  }
  const sequence = new Uint8Array(4098);
  let sequenceLength = 0;
  let nextCode = 258;
  let codeLength = 9;
  let previousCode = 0;
  let cached = 0;
  let cachedBits = 0;
  let at = 0;
  for (;;) {
    while (cachedBits < codeLength && at < input.length) {
      cached = ((cached << 8) | input[at++]) & 0xffffff;
      cachedBits += 8;
    }
    if (cachedBits < codeLength) break;
    cachedBits -= codeLength;
    const code = (cached >>> cachedBits) & ((1 << codeLength) - 1);
    const hadPrevious = sequenceLength > 0;
    if (code < 256) {
      sequence[0] = code;
      sequenceLength = 1;
    } else if (code >= 258) {
      if (code < nextCode) {
        sequenceLength = lengths[code];
        for (let j = sequenceLength - 1, q = code; j >= 0; j--) {
          sequence[j] = values[q];
          q = previous[q];
        }
      } else if (sequenceLength < sequence.length) {
        sequence[sequenceLength++] = sequence[0];
      }
    } else if (code === 256) {
      codeLength = 9;
      nextCode = 258;
      sequenceLength = 0;
      continue;
    } else break;
    if (hadPrevious) {
      if (nextCode < 4096) {
        previous[nextCode] = previousCode;
        lengths[nextCode] = lengths[previousCode] + 1;
        values[nextCode] = sequence[0];
      }
      nextCode++;
      const n = nextCode + earlyChange;
      if ((n & (n - 1)) === 0) codeLength = Math.min(Math.log2(n) + 1, 12) | 0;
    }
    previousCode = code;
    for (let i = 0; i < sequenceLength; i++) output.push(sequence[i]);
  }
  return output.done();
}

export function runLengthDecode(input: Buffer, budget: InflateBudget): Buffer {
  const output = new Output(budget);
  for (let at = 0; at + 1 < input.length && input[at] !== 128; ) {
    const n = input[at];
    if (n < 128) {
      for (let i = 0; i <= n && at + 1 + i < input.length; i++) output.push(input[at + 1 + i]);
      at += n + 2;
    } else {
      for (let i = 0; i < 257 - n; i++) output.push(input[at + 1]);
      at += 2;
    }
  }
  return output.done();
}

export function ascii85Decode(input: Buffer, budget: InflateBudget): Buffer {
  const output = new Output(budget);
  const group: number[] = [];
  const emit = (count: number) => {
    while (group.length < 5) group.push(0x21 + 84);
    let value = 0;
    for (const c of group) value = value * 85 + (c - 0x21);
    for (let i = 0; i < count; i++) output.push((value >>> (24 - 8 * i)) & 0xff);
    group.length = 0;
  };
  for (const c of input) {
    if (isWhiteSpace(c)) continue;
    if (c === 0x7e) break;
    if (c === 0x7a && group.length === 0) {
      for (let i = 0; i < 4; i++) output.push(0);
      continue;
    }
    group.push(c);
    if (group.length === 5) emit(4);
  }
  if (group.length > 1) emit(group.length - 1);
  return output.done();
}

export function asciiHexDecode(input: Buffer): Buffer {
  const text = input.toString('latin1');
  const end = text.indexOf('>');
  const digits = (end < 0 ? text : text.slice(0, end)).replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}

/** Undoes a PNG or TIFF predictor, so that the next filter or the object stream reads what PDF.js reads. */
export function unpredict(data: Buffer, params: PdfDict | undefined): Buffer {
  const predictor = params?.get('Predictor');
  if (typeof predictor !== 'number' || predictor <= 1) return data;
  const number = (key: string, fallback: number) => {
    const value = params!.get(key);
    return typeof value === 'number' && value > 0 ? value : fallback;
  };
  const colors = number('Colors', 1);
  const bits = number('BPC', 0) || number('BitsPerComponent', 8);
  const columns = number('Columns', 1);
  const pixelBytes = (colors * bits + 7) >> 3;
  const rowBytes = (columns * colors * bits + 7) >> 3;
  if (predictor === 2) {
    if (bits !== 8) return data;
    const out = Buffer.from(data);
    for (let row = 0; row < out.length; row += rowBytes) {
      for (let i = row + pixelBytes; i < Math.min(row + rowBytes, out.length); i++) out[i] = (out[i] + out[i - pixelBytes]) & 0xff;
    }
    return out;
  }
  const rows: Buffer[] = [];
  let prior = Buffer.alloc(rowBytes);
  for (let at = 0; at < data.length; at += rowBytes + 1) {
    const type = data[at];
    const raw = data.subarray(at + 1, at + 1 + rowBytes);
    const row = Buffer.alloc(rowBytes);
    for (let i = 0; i < raw.length; i++) {
      const left = i >= pixelBytes ? row[i - pixelBytes] : 0;
      const up = prior[i];
      const upLeft = i >= pixelBytes ? prior[i - pixelBytes] : 0;
      let value = raw[i];
      if (type === 1) value += left;
      else if (type === 2) value += up;
      else if (type === 3) value += (left + up) >> 1;
      else if (type === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      row[i] = value & 0xff;
    }
    rows.push(row.subarray(0, raw.length));
    prior = row;
  }
  return Buffer.concat(rows);
}
