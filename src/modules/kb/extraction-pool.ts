import { Worker } from 'node:worker_threads';
import type { Logger } from '../../infra/logger.js';
import type { DocumentReader, ExtractedText, IsolatedDocument } from './extract.js';
import { ExtractionError } from './extraction-error.js';
import type { ArchiveLimits } from './zip.js';

// PDF.js, mammoth and the HTML parser run on the thread that calls them, synchronously for seconds
// on a large document, with memory that grows with what the document expands to. So documents are
// read in worker threads: the server's event loop never runs a parser, each thread's heap is
// capped, and a document not read in time has its thread terminated. Threads are started on
// demand, kept for the next document, and stopped when idle.

export interface ExtractionLimits extends ArchiveLimits {
  timeoutMs: number;
  /** Heap of each worker thread. */
  maxMemoryMb: number;
  /** Documents read at once; more wait their turn. */
  workers: number;
}

export interface ExtractionRequest {
  id: number;
  document: IsolatedDocument;
  limits: ArchiveLimits;
}

export type ExtractionReply = ({ id: number } & ExtractedText) | { id: number; error: string; permanent: boolean };

const entry = new URL('./extraction-worker.mjs', import.meta.url);
const idleMs = 30_000;
// Loading the parsers (and TypeScript) takes a few seconds on a slow machine; a document's own deadline starts after.
const startTimeoutMs = 60_000;

class ExtractionThread {
  private worker?: Worker;
  private ready?: Promise<Worker>;
  private idle?: NodeJS.Timeout;

  constructor(
    private limits: ExtractionLimits,
    private logger: Logger,
  ) {}

  async read(request: Omit<ExtractionRequest, 'limits'>): Promise<ExtractedText> {
    clearTimeout(this.idle);
    try {
      const worker = await this.start();
      return await this.exchange(worker, request);
    } finally {
      this.idle = setTimeout(() => this.stop(), idleMs).unref();
    }
  }

  stop() {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    void worker?.terminate();
  }

  private start(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(entry, {
        execArgv: [],
        resourceLimits: { maxOldGenerationSizeMb: this.limits.maxMemoryMb },
      });
      worker.unref();
      this.worker = worker;
      const timer = setTimeout(() => {
        reject(new Error(`the extraction worker did not start within ${startTimeoutMs} ms`));
        if (this.worker === worker) this.stop();
      }, startTimeoutMs);
      worker.once('message', (message: { ready?: boolean }) => {
        clearTimeout(timer);
        if (message?.ready) resolve(worker);
      });
      // Always listened to: an unhandled 'error' event would end the server.
      worker.on('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`the extraction worker could not start: ${error.message}`));
        this.logger.warn({ err: error.message }, 'knowledge-base extraction worker failed');
      });
      worker.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the extraction worker stopped while starting (exit code ${code})`));
        if (this.worker === worker) {
          this.worker = undefined;
          this.ready = undefined;
        }
      });
    });
    const ready = this.ready;
    ready.catch(() => {
      if (this.ready === ready) this.ready = undefined;
    });
    return ready;
  }

  private exchange(worker: Worker, request: Omit<ExtractionRequest, 'limits'>): Promise<ExtractedText> {
    const { timeoutMs, maxMemoryMb } = this.limits;
    return new Promise<ExtractedText>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (reply: ExtractionReply) => {
        if (reply.id !== request.id) return;
        settle();
        if ('text' in reply) resolve({ title: reply.title, text: reply.text });
        else reject(reply.permanent ? new ExtractionError(reply.error) : new Error(reply.error));
      };
      const onError = (error: Error & { code?: string }) => {
        settle();
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ExtractionError(`the document needs more than ${maxMemoryMb} MB of memory to read`)
            : new Error(`the extraction worker failed: ${error.message}`),
        );
      };
      const onExit = (code: number) => {
        settle();
        reject(new Error(`the extraction worker stopped (exit code ${code})`));
      };
      const timer = setTimeout(() => {
        settle();
        this.stop();
        reject(new ExtractionError(`the document could not be read within ${timeoutMs} ms`));
      }, timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      const limits: ArchiveLimits = { maxBytes: this.limits.maxBytes, maxEntries: this.limits.maxEntries };
      if (request.document.kind === 'html') {
        worker.postMessage({ ...request, limits } satisfies ExtractionRequest);
      } else {
        // A copy the thread can own: the body may share its memory with other buffers.
        const bytes = new Uint8Array(request.document.bytes);
        worker.postMessage({ ...request, document: { kind: request.document.kind, bytes }, limits } satisfies ExtractionRequest, [bytes.buffer]);
      }
    });
  }
}

/** Reads documents in worker threads, at most `workers` at a time. */
export class DocumentExtractor implements DocumentReader {
  private free: ExtractionThread[];
  private waiting: Array<(thread: ExtractionThread) => void> = [];
  private next = 0;

  constructor(limits: ExtractionLimits, logger: Logger) {
    this.free = Array.from({ length: limits.workers }, () => new ExtractionThread(limits, logger));
  }

  async read(document: IsolatedDocument): Promise<ExtractedText> {
    const thread = this.free.pop() ?? (await new Promise<ExtractionThread>((resolve) => this.waiting.push(resolve)));
    try {
      return await thread.read({ id: ++this.next, document });
    } finally {
      const waiter = this.waiting.shift();
      if (waiter) waiter(thread);
      else this.free.push(thread);
    }
  }
}
