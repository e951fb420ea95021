/**
 * Verifies exports on worker threads (verify-worker.ts): a document of tens of MiB takes
 * seconds to parse and re-fold, and on the main thread that would hold every other request
 * and the health checks. Documents wait their turn in a short queue; past it the service is
 * saturated (UNAVAILABLE, retry). A worker that dies fails its document and is replaced.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { VerifyReport } from './verify.ts';
import { AppError, type ErrorCode } from './errors.ts';
import type { VerifyAnswer } from './verify-worker.ts';

/** tsx's ESM API (its package maps `tsx/esm/api` to index.mjs for import, index.cjs for require). */
const TSX_API = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;

export interface VerifierOptions {
  /** Worker threads (each verifies one document at a time). */
  threads?: number;
  /** Documents that may wait for a worker. */
  queue?: number;
}

interface Job {
  id: number;
  body: Uint8Array;
  resolve: (report: VerifyReport) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

export class Verifier {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private next = 1;
  private closed = false;
  private readonly threads: number;
  private readonly queue: number;

  constructor(
    /** Module URLs that export the hosted games, loaded by each worker. */
    private readonly modules: string[],
    /** The rules fingerprint (the core's rules). */
    private readonly rules: string,
    options: VerifierOptions = {},
  ) {
    this.threads = options.threads ?? 1;
    this.queue = options.queue ?? 8;
  }

  /** Verifies the JSON text of an export. */
  verify(body: Uint8Array): Promise<VerifyReport> {
    if (this.closed) return Promise.reject(new AppError('UNAVAILABLE', 'The service is shutting down'));
    if (this.waiting.length >= this.queue) return Promise.reject(new AppError('UNAVAILABLE', 'Too many documents are being verified right now; retry shortly'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.next++, body, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch() {
    while (this.waiting.length) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.threads) slot = this.spawn();
      if (!slot) return;
      const job = this.waiting.shift()!;
      slot.job = job;
      slot.worker.postMessage({ id: job.id, body: job.body });
    }
  }

  private spawn(): Slot {
    // The worker runs TypeScript as the server does, through tsx, registered in the worker
    // itself before its entry loads (Node 20 does not pass `--import tsx` hooks on to workers).
    const entry = new URL('./verify-worker.ts', import.meta.url).href;
    const boot = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: { modules: this.modules, rules: this.rules } });
    const slot: Slot = { worker, job: null };
    worker.unref();
    worker.on('message', (answer: VerifyAnswer | { ready: string[] }) => {
      if ('ready' in answer) return;
      const job = slot.job;
      if (!job || job.id !== answer.id) return;
      slot.job = null;
      if ('report' in answer) job.resolve(answer.report as VerifyReport);
      else job.reject(new AppError(answer.error.code as ErrorCode, answer.error.code === 'INTERNAL' ? 'Internal error' : answer.error.message));
      this.dispatch();
    });
    const lost = (error: unknown) => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return;
      this.slots.splice(i, 1);
      slot.job?.reject(error instanceof AppError ? error : Object.assign(new Error(`the verify worker stopped: ${(error as Error)?.message ?? error}`), { cause: error }));
      slot.job = null;
      if (!this.closed) this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`exit code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new AppError('UNAVAILABLE', 'The service is shutting down'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }
}
