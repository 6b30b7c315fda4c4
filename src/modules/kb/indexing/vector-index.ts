// An in-process index of one namespace's vectors, for a PostgreSQL without pgvector (vectors.ts):
// scoring every stored vector of a 100,000-chunk knowledge base in the database's rows took over a
// second a question. The vectors are read once and kept here, quantized (int8, a quarter of the
// float32 size) beside a 64-dimension random projection: a question is scored against every
// projection (64 multiply-adds a chunk), the best candidates again on their quantized vectors,
// and the caller reads the exact similarity of the few it keeps. The namespace's version (a
// counter the database bumps on every insert or delete of its vectors, whichever process wrote
// them) is checked on each question: a changed one brings in the vectors added and drops the
// removed before the question is answered.

/** Dimensions of the coarse projection. */
const projected = 64;
/** Candidates rescored on their quantized vectors: at least this many, and 40 per neighbour asked. */
const minCandidates = 2_000;
const candidatesPerNeighbour = 40;

const projections = new Map<number, Float32Array>();

/** A fixed Gaussian projection (seeded: every process projects the same way), `dimensions` x 64. */
function projection(dimensions: number): Float32Array {
  let matrix = projections.get(dimensions);
  if (matrix) return matrix;
  let seed = 0x9e3779b9 ^ dimensions;
  const uniform = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  matrix = new Float32Array(dimensions * projected);
  for (let i = 0; i < matrix.length; i += 2) {
    // Box-Muller: two normal draws from two uniform ones.
    const r = Math.sqrt(-2 * Math.log(uniform()));
    const a = 2 * Math.PI * uniform();
    matrix[i] = r * Math.cos(a);
    if (i + 1 < matrix.length) matrix[i + 1] = r * Math.sin(a);
  }
  projections.set(dimensions, matrix);
  return matrix;
}

/** A vector scaled to length 1 (as float32), or null when it is all zeros. */
export function unit(vector: ArrayLike<number>): Float32Array | null {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
  if (!norm) return null;
  const scale = 1 / Math.sqrt(norm);
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i] * scale;
  return out;
}

export class VectorIndex {
  /** Chunk ids, row by row. */
  private ids: string[] = [];
  private rows = new Map<string, number>();
  private quantized = new Int8Array(0);
  private coarse = new Float32Array(0);
  private size = 0;

  constructor(
    readonly dimensions: number,
    /** The namespace's version these vectors reflect. */
    public version: string,
  ) {}

  get count() {
    return this.size;
  }

  has(id: string) {
    return this.rows.has(id);
  }

  /** Adds vectors (those of another length are left out: another model's). */
  add(entries: Array<{ id: string; vector: ArrayLike<number> }>) {
    const fresh = entries.filter((e) => e.vector.length === this.dimensions && !this.rows.has(e.id));
    if (!fresh.length) return;
    this.reserve(this.size + fresh.length);
    const p = projection(this.dimensions);
    for (const { id, vector } of fresh) {
      const v = unit(vector);
      if (!v) continue;
      const row = this.size++;
      this.ids[row] = id;
      this.rows.set(id, row);
      const q = row * this.dimensions;
      for (let i = 0; i < this.dimensions; i++) this.quantized[q + i] = Math.round(v[i] * 127);
      const c = row * projected;
      for (let k = 0; k < projected; k++) this.coarse[c + k] = 0;
      for (let i = 0; i < this.dimensions; i++) {
        const x = v[i];
        const at = i * projected;
        for (let k = 0; k < projected; k++) this.coarse[c + k] += x * p[at + k];
      }
    }
  }

  /** Keeps only the rows whose id is in `kept` (the namespace's ids as the database lists them now). */
  retain(kept: Set<string>) {
    let to = 0;
    for (let from = 0; from < this.size; from++) {
      const id = this.ids[from];
      if (!kept.has(id)) {
        this.rows.delete(id);
        continue;
      }
      if (to !== from) {
        this.ids[to] = id;
        this.rows.set(id, to);
        this.quantized.copyWithin(to * this.dimensions, from * this.dimensions, (from + 1) * this.dimensions);
        this.coarse.copyWithin(to * projected, from * projected, (from + 1) * projected);
      }
      to++;
    }
    this.size = to;
    this.ids.length = to;
  }

  /** The ids of the chunks nearest `vector` by the quantized vectors, best first, at most `limit`. */
  nearest(vector: ArrayLike<number>, limit: number): string[] {
    const v = vector.length === this.dimensions ? unit(vector) : null;
    if (!v || !this.size || limit < 1) return [];
    const d = this.dimensions;
    const wanted = Math.max(minCandidates, limit * candidatesPerNeighbour);
    let candidates: Int32Array;
    if (this.size <= wanted) {
      candidates = Int32Array.from({ length: this.size }, (_, i) => i);
    } else {
      const p = projection(d);
      const pq = new Float32Array(projected);
      for (let i = 0; i < d; i++) for (let k = 0; k < projected; k++) pq[k] += v[i] * p[i * projected + k];
      const scores = new Float32Array(this.size);
      const coarse = this.coarse;
      for (let row = 0, c = 0; row < this.size; row++, c += projected) {
        let a = 0;
        let b = 0;
        for (let k = 0; k < projected; k += 2) {
          a += coarse[c + k] * pq[k];
          b += coarse[c + k + 1] * pq[k + 1];
        }
        scores[row] = a + b;
      }
      candidates = topRows(scores, wanted);
    }
    const exact = new Float32Array(candidates.length);
    const quantized = this.quantized;
    for (let i = 0; i < candidates.length; i++) {
      const q = candidates[i] * d;
      let a = 0;
      let b = 0;
      for (let k = 0; k < d; k += 2) {
        a += quantized[q + k] * v[k];
        b += quantized[q + k + 1] * v[k + 1];
      }
      exact[i] = a + b;
    }
    return [...topRows(exact, limit)].map((i) => this.ids[candidates[i]]);
  }

  private reserve(rows: number) {
    const capacity = this.quantized.length / this.dimensions;
    if (rows <= capacity) return;
    const next = Math.max(rows, Math.ceil(capacity * 1.5), 1024);
    const quantized = new Int8Array(next * this.dimensions);
    quantized.set(this.quantized.subarray(0, this.size * this.dimensions));
    const coarse = new Float32Array(next * projected);
    coarse.set(this.coarse.subarray(0, this.size * projected));
    this.quantized = quantized;
    this.coarse = coarse;
  }
}

/** The positions of the `k` highest scores, highest first (a bounded min-heap). */
function topRows(scores: Float32Array, k: number): Int32Array {
  const n = Math.min(k, scores.length);
  const heap = new Int32Array(n);
  let size = 0;
  const less = (a: number, b: number) => scores[a] < scores[b] || (scores[a] === scores[b] && a > b);
  const down = (at: number) => {
    for (;;) {
      const l = 2 * at + 1;
      const r = l + 1;
      let min = at;
      if (l < size && less(heap[l], heap[min])) min = l;
      if (r < size && less(heap[r], heap[min])) min = r;
      if (min === at) return;
      [heap[at], heap[min]] = [heap[min], heap[at]];
      at = min;
    }
  };
  for (let i = 0; i < scores.length; i++) {
    if (size < n) {
      let at = size++;
      heap[at] = i;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!less(heap[at], heap[parent])) break;
        [heap[at], heap[parent]] = [heap[parent], heap[at]];
        at = parent;
      }
    } else if (n > 0 && less(heap[0], i)) {
      heap[0] = i;
      down(0);
    }
  }
  return Int32Array.from(heap.subarray(0, size)).sort((a, b) => scores[b] - scores[a] || a - b);
}
