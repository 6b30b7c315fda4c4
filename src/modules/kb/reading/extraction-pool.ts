import { fork, type ChildProcess } from 'node:child_process';
import type { Logger } from '../../../infra/logger.js';
import type { DocumentReader, ExtractedText, IsolatedDocument } from './extract.js';
import { ExtractionError } from './extraction-error.js';
import type { ArchiveLimits } from './zip.js';

// PDF.js, mammoth and the HTML parser run on the thread that calls them, synchronously for seconds
// on a large document, with memory that grows with what the document expands to. So documents are
// read in child processes: the server's event loop never runs a parser, each reader's heap is
// capped, and a document not read in time has its reader killed. Processes, not worker threads: a
// worker thread reaching its heap limit is meant to end alone, but V8 can still abort the whole
// process from it (nodejs/node#47224; on Node 24 mammoth did so on every heavy DOCX), while a child
// process's out-of-memory ends that child only. Readers are started on demand, kept for the next
// document, and stopped when idle.

export interface ExtractionLimits extends ArchiveLimits {
  timeoutMs: number;
  /** Heap of each reader process. */
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
// What V8 prints before it aborts a process that reached its heap limit.
const outOfMemory = /heap out of memory|Reached heap limit/;

class ExtractionProcess {
  private child?: ChildProcess;
  private ready?: Promise<ChildProcess>;
  private idle?: NodeJS.Timeout;
  /** The end of the reader's stderr, to tell an out-of-memory from another crash. */
  private stderr = '';

  constructor(
    private limits: ExtractionLimits,
    private logger: Logger,
  ) {}

  async read(request: Omit<ExtractionRequest, 'limits'>): Promise<ExtractedText> {
    clearTimeout(this.idle);
    try {
      const child = await this.start();
      return await this.exchange(child, request);
    } finally {
      this.idle = setTimeout(() => this.stop(), idleMs).unref();
    }
  }

  stop() {
    clearTimeout(this.idle);
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    child?.kill('SIGKILL');
  }

  private start(): Promise<ChildProcess> {
    this.ready ??= new Promise<ChildProcess>((resolve, reject) => {
      this.stderr = '';
      const child = fork(entry, [], {
        // Only the heap limit: the server's own flags (a larger young generation, inspectors) are not the reader's.
        execArgv: [`--max-old-space-size=${this.limits.maxMemoryMb}`],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      this.child = child;
      child.unref();
      child.channel?.unref();
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-4096)));
      (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
      const timer = setTimeout(() => {
        reject(new Error(`the extraction reader did not start within ${startTimeoutMs} ms`));
        if (this.child === child) this.stop();
      }, startTimeoutMs);
      child.once('message', (message: { ready?: boolean }) => {
        clearTimeout(timer);
        if (message?.ready) resolve(child);
      });
      // Always listened to: an unhandled 'error' event would end the server.
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`the extraction reader could not start: ${error.message}`));
        this.logger.warn({ err: error.message }, 'knowledge-base extraction reader failed');
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the extraction reader stopped while starting (${signal ?? `exit code ${code}`})`));
        if (this.child === child) {
          this.child = undefined;
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

  private exchange(child: ChildProcess, request: Omit<ExtractionRequest, 'limits'>): Promise<ExtractedText> {
    const { timeoutMs, maxMemoryMb } = this.limits;
    return new Promise<ExtractedText>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onMessage = (reply: ExtractionReply) => {
        if (reply.id !== request.id) return;
        settle();
        if ('text' in reply) resolve({ title: reply.title, text: reply.text });
        else reject(reply.permanent ? new ExtractionError(reply.error) : new Error(reply.error));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        settle();
        // stderr may still be draining when the process is reported gone.
        setImmediate(() =>
          reject(
            outOfMemory.test(this.stderr) || signal === 'SIGABRT' || code === 134
              ? new ExtractionError(`the document needs more than ${maxMemoryMb} MB of memory to read`)
              : new Error(`the extraction reader stopped (${signal ?? `exit code ${code}`})`),
          ),
        );
      };
      const timer = setTimeout(() => {
        settle();
        this.stop();
        reject(new ExtractionError(`the document could not be read within ${timeoutMs} ms`));
      }, timeoutMs);
      child.on('message', onMessage);
      child.once('exit', onExit);
      const limits: ArchiveLimits = { maxBytes: this.limits.maxBytes, maxEntries: this.limits.maxEntries };
      child.send({ ...request, limits } satisfies ExtractionRequest);
    });
  }
}

/** Reads documents in child processes, at most `workers` at a time. */
export class DocumentExtractor implements DocumentReader {
  private free: ExtractionProcess[];
  private waiting: Array<(thread: ExtractionProcess) => void> = [];
  private next = 0;

  constructor(limits: ExtractionLimits, logger: Logger) {
    this.free = Array.from({ length: limits.workers }, () => new ExtractionProcess(limits, logger));
  }

  async read(document: IsolatedDocument): Promise<ExtractedText> {
    const thread = this.free.pop() ?? (await new Promise<ExtractionProcess>((resolve) => this.waiting.push(resolve)));
    try {
      return await thread.read({ id: ++this.next, document });
    } finally {
      const waiter = this.waiting.shift();
      if (waiter) waiter(thread);
      else this.free.push(thread);
    }
  }
}
