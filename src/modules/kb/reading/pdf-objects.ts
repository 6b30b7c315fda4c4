// Just enough of the PDF object syntax to read a stream's dictionary: dictionaries, arrays, names
// (with #xx escapes, as PDF.js reads them), numbers, indirect references; strings are skipped.

export class PdfName {
  constructor(readonly name: string) {}
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}

/** A string or a keyword other than true, false and null: its content does not matter here. */
export class PdfOther {}

export type PdfDict = Map<string, PdfValue>;
export type PdfValue = number | boolean | null | PdfName | PdfRef | PdfOther | PdfValue[] | PdfDict;

const other = new PdfOther();
const maxDepth = 64;

export const isWhiteSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const delimiters = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
export const isRegular = (c: number) => !Number.isNaN(c) && !isWhiteSpace(c) && !delimiters.has(c);

/** Reads PDF objects from a latin1 string, starting at `pos`. */
export class ObjectReader {
  constructor(
    private text: string,
    public pos: number,
  ) {}

  private code(at = this.pos) {
    return this.text.charCodeAt(at);
  }

  skipSpace() {
    for (;;) {
      const c = this.code();
      if (isWhiteSpace(c)) this.pos++;
      else if (c === 0x25) {
        while (this.pos < this.text.length && this.code() !== 0x0a && this.code() !== 0x0d) this.pos++;
      } else return;
    }
  }

  private word() {
    const start = this.pos;
    while (isRegular(this.code())) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** The next object, or undefined where the syntax is broken. */
  value(depth = 0): PdfValue | undefined {
    if (depth > maxDepth) return undefined;
    this.skipSpace();
    const c = this.code();
    if (Number.isNaN(c)) return undefined;
    if (c === 0x3c && this.code(this.pos + 1) === 0x3c) return this.dict(depth);
    if (c === 0x3c) {
      const end = this.text.indexOf('>', this.pos);
      if (end < 0) return undefined;
      this.pos = end + 1;
      return other;
    }
    if (c === 0x5b) {
      this.pos++;
      const items: PdfValue[] = [];
      for (;;) {
        this.skipSpace();
        if (this.code() === 0x5d) {
          this.pos++;
          return items;
        }
        const item = this.value(depth + 1);
        if (item === undefined) return undefined;
        items.push(item);
      }
    }
    if (c === 0x28) return this.literalString();
    if (c === 0x2f) {
      this.pos++;
      return new PdfName(this.word().replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
    }
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) return this.numberOrRef();
    if (!isRegular(c)) return undefined;
    const word = this.word();
    return word === 'true' ? true : word === 'false' ? false : word === 'null' ? null : other;
  }

  private dict(depth: number): PdfDict | undefined {
    this.pos += 2;
    const dict: PdfDict = new Map();
    for (;;) {
      this.skipSpace();
      if (this.code() === 0x3e && this.code(this.pos + 1) === 0x3e) {
        this.pos += 2;
        return dict;
      }
      const key = this.value(depth + 1);
      if (!(key instanceof PdfName)) return undefined;
      const value = this.value(depth + 1);
      if (value === undefined) return undefined;
      dict.set(key.name, value);
    }
  }

  private literalString() {
    let nesting = 0;
    for (let at = this.pos; at < this.text.length; at++) {
      const c = this.code(at);
      if (c === 0x5c) at++;
      else if (c === 0x28) nesting++;
      else if (c === 0x29 && --nesting === 0) {
        this.pos = at + 1;
        return other;
      }
    }
    return undefined;
  }

  private numberOrRef(): PdfValue | undefined {
    const token = this.word();
    const number = Number(token);
    if (!token || Number.isNaN(number)) return undefined;
    if (!/^\d+$/.test(token)) return number;
    const after = this.pos;
    this.skipSpace();
    const gen = this.word();
    this.skipSpace();
    if (/^\d+$/.test(gen) && this.code() === 0x52 && !isRegular(this.code(this.pos + 1))) {
      this.pos++;
      return new PdfRef(number, Number(gen));
    }
    this.pos = after;
    return number;
  }
}
