import { ExtractionError } from './extraction-error.js';
import { hasZlibHeader, inflate, InflateBudget, InflateLimitError } from './inflate.js';
import { ascii85Decode, asciiHexDecode, lzwDecode, runLengthDecode, unpredict } from './pdf-filters.js';
import { isRegular, isWhiteSpace, ObjectReader, PdfName, PdfRef, type PdfDict, type PdfValue } from './pdf-objects.js';

// PDF.js inflates the streams of a PDF (page contents, fonts, object streams) into memory, with no
// limit. Before it reads a PDF, every stream it could decode for text is decoded here once, against
// the document's budget, counted as it decodes: the filter chain as PDF.js applies it (Flate read
// the lenient way PDF.js reads it, LZW, RunLength, ASCII85, ASCIIHex, predictors), including the
// streams inside object streams. Images are not decoded by text extraction, so they are skipped,
// unless something PDF.js reads whatever the stream says it is (page contents, fonts, CMaps, Type 3
// glyphs) names one. Encrypted PDFs are refused: their streams cannot be checked without decrypting
// them.

interface Text {
  text: string;
  bytes: Buffer;
  /** Where each object starts, by position (for finding the dictionary a stream belongs to). */
  starts: Array<{ pos: number; num?: number }>;
}

interface Site {
  in: Text;
  /** Position of the `stream` keyword. */
  keyword: number;
  dict?: PdfDict;
  num?: number;
}

const maxNesting = 8;
/** Keys whose streams PDF.js decodes for text whatever their /Subtype says. */
const readAsIs = new Set(['Contents', 'FontFile', 'FontFile2', 'FontFile3', 'ToUnicode', 'Encoding', 'UseCMap']);
const maxReferenceHops = 8;

export async function checkPdfStreams(bytes: Buffer, budget: InflateBudget): Promise<void> {
  try {
    await new PdfStreamCheck(budget).run(bytes);
  } catch (error) {
    if (error instanceof InflateLimitError) throw new ExtractionError(`the PDF ${error.message}`);
    throw error;
  }
}

class PdfStreamCheck {
  /** Objects by number: where their value starts (the last definition wins, as with incremental updates). */
  private objects = new Map<number, { in: Text; pos: number }>();
  private texts: Text[] = [];
  private skippedImages = new Map<number, Site>();

  constructor(private budget: InflateBudget) {}

  async run(bytes: Buffer) {
    const top = this.addText(bytes, topLevelStarts(bytes.toString('latin1')));
    if (hasName(top.text, 'Encrypt')) throw new ExtractionError('encrypted PDFs are not read: their compressed streams cannot be checked first');
    for (const start of top.starts) if (start.num !== undefined) this.objects.set(start.num, { in: top, pos: start.pos });

    // Object streams first (they define objects other streams refer to), then everything else.
    const pending = this.sites(top);
    const rest: Site[] = [];
    for (let round = 0; pending.length && round <= maxNesting; round++) {
      const found: Site[] = [];
      for (const site of pending.splice(0)) {
        if (this.isObjectStream(site.dict)) {
          const decoded = await this.decode(site);
          if (decoded) found.push(...this.sites(this.addObjectStream(site, decoded)));
        } else rest.push(site);
      }
      pending.push(...found);
    }
    rest.push(...pending);
    for (const site of rest) {
      if (this.nameOf(site.dict?.get('Subtype')) !== 'Image') await this.decode(site);
      else if (site.num !== undefined) this.skippedImages.set(site.num, site);
    }
    // A page whose contents are a stream marked as an image still has them read as contents.
    const readAnyway = this.streamsReadAsIs();
    for (const [num, site] of this.skippedImages) if (readAnyway.has(num)) await this.decode(site);
  }

  /** PDF.js reads any stream the cross-reference table places objects in as an object stream, /Type or not. */
  private isObjectStream(dict: PdfDict | undefined) {
    return !!dict && (this.nameOf(dict.get('Type')) === 'ObjStm' || (dict.has('N') && dict.has('First')));
  }

  private addText(bytes: Buffer, starts: Text['starts']): Text {
    const text = { text: bytes.toString('latin1'), bytes, starts };
    this.texts.push(text);
    return text;
  }

  /** An object stream's objects, from its header of object numbers and offsets. */
  private addObjectStream(site: Site, decoded: Buffer): Text {
    const text = this.addText(decoded, []);
    const first = this.resolve(site.dict?.get('First'));
    const count = this.resolve(site.dict?.get('N'));
    if (typeof first !== 'number' || typeof count !== 'number') return text;
    const header = new ObjectReader(text.text, 0);
    for (let i = 0; i < count && header.pos < first; i++) {
      const num = header.value();
      const offset = header.value();
      if (typeof num !== 'number' || typeof offset !== 'number') break;
      const pos = first + offset;
      text.starts.push({ pos, num });
      this.objects.set(num, { in: text, pos });
    }
    text.starts.sort((a, b) => a.pos - b.pos);
    return text;
  }

  /** Every `stream` keyword of a text, with the dictionary in front of it. */
  private sites(text: Text): Site[] {
    const sites: Site[] = [];
    for (let at = text.text.indexOf('stream'); at >= 0; at = text.text.indexOf('stream', at + 6)) {
      if (isRegular(text.text.charCodeAt(at - 1)) || isRegular(text.text.charCodeAt(at + 6))) continue;
      sites.push({ in: text, keyword: at, ...this.dictionaryBefore(text, at) });
    }
    return sites;
  }

  private dictionaryBefore(text: Text, keyword: number): { dict?: PdfDict; num?: number } {
    // The object that starts last before the keyword, if it is a dictionary that ends right there.
    let low = 0;
    let high = text.starts.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (text.starts[mid].pos < keyword) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    if (found >= 0) {
      const dict = dictionaryEndingAt(text.text, text.starts[found].pos, keyword);
      if (dict) return { dict, num: text.starts[found].num };
    }
    // Otherwise the dictionary found by matching << and >> backwards from the keyword.
    const open = matchingOpen(text.text, keyword);
    const dict = open === undefined ? undefined : dictionaryEndingAt(text.text, open, keyword);
    return { dict };
  }

  private nameOf(value: PdfValue | undefined): string | undefined {
    const resolved = this.resolve(value);
    return resolved instanceof PdfName ? resolved.name : undefined;
  }

  private resolve(value: PdfValue | undefined, hops = 0): PdfValue | undefined {
    if (!(value instanceof PdfRef)) return value;
    if (hops >= maxReferenceHops) return undefined;
    const location = this.objects.get(value.num);
    if (!location) return undefined;
    return this.resolve(new ObjectReader(location.in.text, location.pos).value(), hops + 1);
  }

  /** The filter names of a stream, as PDF.js reads them (`F` before `Filter`); undefined when they cannot be known. */
  private filters(dict: PdfDict): string[] | undefined {
    const value = this.resolve(dict.has('F') ? dict.get('F') : dict.get('Filter'));
    if (value === undefined || value === null) return dict.has('F') || dict.has('Filter') ? undefined : [];
    const list = Array.isArray(value) ? value.map((v) => this.resolve(v)) : [value];
    if (list.some((v) => !(v instanceof PdfName))) return undefined;
    return list.map((v) => (v as PdfName).name);
  }

  private parameters(dict: PdfDict, index: number): PdfDict | undefined {
    const value = this.resolve(dict.has('DP') ? dict.get('DP') : dict.get('DecodeParms'));
    const params = Array.isArray(value) ? this.resolve(value[index]) : index === 0 ? value : undefined;
    return params instanceof Map ? params : undefined;
  }

  /** The raw bytes of a stream: its /Length when `endstream` follows it, as PDF.js checks, else up to `endstream`. */
  private data(site: Site): Buffer {
    const { text, bytes } = site.in;
    let start = site.keyword + 6;
    while (start < text.length && text[start] !== '\n' && text[start] !== '\r') start++;
    start += text.startsWith('\r\n', start) ? 2 : 1;
    const length = this.resolve(site.dict?.get('Length'));
    if (typeof length === 'number' && Number.isInteger(length) && length >= 0) {
      let after = start + length;
      while (isWhiteSpace(text.charCodeAt(after))) after++;
      if (text.startsWith('endstream', after)) return bytes.subarray(start, start + length);
    }
    const end = text.indexOf('endstream', start);
    return bytes.subarray(start, end < 0 ? text.length : end);
  }

  /** Decodes a stream through its filters against the budget; undefined when PDF.js would not decode it for text. */
  private async decode(site: Site): Promise<Buffer | undefined> {
    let data = this.data(site);
    const filters = site.dict ? this.filters(site.dict) : undefined;
    // Filters that cannot be known here may still be Flate to PDF.js.
    if (!filters) {
      if (!hasZlibHeader(data)) return undefined;
      return this.inflate(data).catch((error) => {
        if (error instanceof InflateLimitError) throw error;
        return undefined;
      });
    }
    for (const [index, filter] of filters.entries()) {
      const params = this.parameters(site.dict!, index);
      switch (filter) {
        case 'Fl':
        case 'FlateDecode':
          if (!hasZlibHeader(data)) return undefined;
          data = unpredict(await this.inflate(data), params);
          break;
        case 'LZW':
        case 'LZWDecode': {
          const earlyChange = params?.get('EarlyChange');
          data = unpredict(lzwDecode(data, typeof earlyChange === 'number' ? earlyChange : 1, this.budget), params);
          break;
        }
        case 'RL':
        case 'RunLengthDecode':
          data = runLengthDecode(data, this.budget);
          break;
        case 'A85':
        case 'ASCII85Decode':
          data = ascii85Decode(data, this.budget);
          break;
        case 'AHx':
        case 'ASCIIHexDecode':
          data = asciiHexDecode(data);
          break;
        default:
          // Image codecs and encryption: not decoded to extract text.
          return undefined;
      }
    }
    return data;
  }

  /**
   * A Flate stream, counted. Where zlib finds it corrupt, PDF.js may still inflate it (it accepts
   * Huffman codes zlib rejects), so a stream declared Flate that zlib cannot read fails the PDF.
   */
  private async inflate(data: Buffer): Promise<Buffer> {
    try {
      return await inflate(data, 'pdf-flate', this.budget, { partial: true });
    } catch (error) {
      if (error instanceof InflateLimitError) throw error;
      throw new ExtractionError(`the PDF has a corrupt compressed stream (${(error as Error).message}) whose size cannot be checked`);
    }
  }

  /** Object numbers of the streams named under `readAsIs` keys and in Type 3 fonts' /CharProcs. */
  private streamsReadAsIs(): Set<number> {
    const numbers = new Set<number>();
    const add = (value: PdfValue | undefined, depth = 0) => {
      if (value instanceof PdfRef) {
        numbers.add(value.num);
        const target = depth < 2 ? this.resolve(value) : undefined;
        if (Array.isArray(target)) for (const item of target) add(item, depth + 1);
      } else if (Array.isArray(value)) for (const item of value) add(item, depth + 1);
    };
    for (const text of this.texts) {
      for (const match of text.text.matchAll(/\/((?:[^\s\0/<>[\]()%{}])*)/g)) {
        const key = decodeName(match[1]);
        if (!readAsIs.has(key) && key !== 'CharProcs') continue;
        const value = new ObjectReader(text.text, match.index + match[0].length).value();
        const glyphs = key === 'CharProcs' ? this.resolve(value) : undefined;
        if (glyphs instanceof Map) for (const glyph of glyphs.values()) add(glyph);
        else add(value);
      }
    }
    return numbers;
  }
}

function decodeName(raw: string) {
  return raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function hasName(text: string, name: string): boolean {
  for (const match of text.matchAll(/\/((?:[^\s\0/<>[\]()%{}])*)/g)) if (decodeName(match[1]) === name) return true;
  return false;
}

/** `N G obj` headers of the file: object values start right after them. */
function topLevelStarts(text: string): Text['starts'] {
  const starts: Text['starts'] = [];
  for (const match of text.matchAll(/(\d+)[\s\0]+\d+[\s\0]+obj/g)) {
    const end = match.index + match[0].length;
    if (isRegular(text.charCodeAt(match.index - 1)) || isRegular(text.charCodeAt(end))) continue;
    starts.push({ pos: end, num: Number(match[1]) });
  }
  return starts;
}

/** The dictionary read from `from`, if it ends with only white space before the `stream` keyword. */
function dictionaryEndingAt(text: string, from: number, keyword: number): PdfDict | undefined {
  const reader = new ObjectReader(text, from);
  const value = reader.value();
  if (!(value instanceof Map)) return undefined;
  reader.skipSpace();
  return reader.pos === keyword ? value : undefined;
}

/** Where the dictionary that closes just before `keyword` opens, matching << and >> backwards. */
function matchingOpen(text: string, keyword: number): number | undefined {
  let at = keyword - 1;
  while (at >= 0 && isWhiteSpace(text.charCodeAt(at))) at--;
  if (text[at] !== '>' || text[at - 1] !== '>') return undefined;
  let depth = 0;
  const limit = Math.max(0, keyword - 1024 * 1024);
  for (; at > limit; at--) {
    if (text[at] === '>' && text[at - 1] === '>') {
      depth++;
      at--;
    } else if (text[at] === '<' && text[at - 1] === '<') {
      depth--;
      at--;
      if (depth === 0) return at;
    }
  }
  return undefined;
}
