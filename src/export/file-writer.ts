/**
 * Where export's files are written: on the main thread for a small export, on a thread of
 * their own for a large one. A national export's 50,000 files cost ~4 s of system calls
 * (create, write, rename on a journalling disk); made on the main thread, each blocked every
 * answer of the platform waiting behind it, and the export took 5–7 s longer than without
 * writing at all (docs/performance.md). The thread writes each file as the main thread
 * would (atomic-write.ts); a file's promise settles once it is renamed into place or failed.
 */
import { Worker } from 'node:worker_threads';
import { PACKAGE_ROOT } from '../core/package.js';
import { SwitchboardError, type ExitCodeValue } from '../core/errors.js';
import { writeFileAtomically } from './atomic-write.js';

/**
 * Files for the thread to write, with consecutive ids from `firstId`. The texts travel as
 * their UTF-8 bytes, one after another in a buffer handed over to the thread: cloning the
 * texts as strings cost the main thread ~0.4–1.6 s over a national export, a handed-over
 * buffer is not copied.
 */
export interface WriteBatch {
  firstId: number;
  files: string[];
  /** The files whose folder this export made (nothing can be planted there). */
  fresh: boolean[];
  bytes: Uint8Array;
  /** Where each file's bytes end in `bytes`. */
  ends: number[];
}

/** What became of a batch: its files were written, but for those in `failures`. */
export interface BatchOutcome {
  firstId: number;
  count: number;
  failures: { id: number; error: WriteFailure }[];
}

/** The error a file failed with, as plain data (a clone keeps no `code`, nor the class). */
export interface WriteFailure {
  message: string;
  code?: string;
  syscall?: string;
  path?: string;
  errno?: number;
  /** A SwitchboardError (a refused target), with its exit code. */
  switchboard?: { exitCode: ExitCodeValue };
}

export interface FileWriter {
  /**
   * Writes `text` to `file` whole or not at all; `freshFolder`: a folder this export made
   * (nothing planted in it). Settles once the file is in place or failed.
   */
  write(file: string, text: string, freshFolder: boolean): Promise<void>;
  /** Resolves when the writer takes more files: a disk slower than the platform holds the reads back, not memory. */
  ready(): Promise<void>;
  /** Waits for the writes under way, then ends the thread, if there is one. */
  close(): Promise<void>;
}

/**
 * Below this many files, the thread's start (~30 ms: a V8 isolate and its modules) costs
 * more than the files' system calls on the main thread.
 */
export const WRITER_THREAD_FROM_FILES = 1000;

/** The writer for an export of `files` files. */
export function fileWriter(files: number): FileWriter {
  return files >= WRITER_THREAD_FROM_FILES ? new ThreadWriter() : inThreadWriter;
}

const inThreadWriter: FileWriter = {
  write: async (file, text, freshFolder) => writeFileAtomically(file, text, { freshFolder }),
  ready: async () => undefined,
  close: async () => undefined,
};

/** Files sent to the thread in one message, at most; fewer when a batch has waited {@link BATCH_WAIT_MS}. */
const BATCH_FILES = 256;
const BATCH_WAIT_MS = 100;
/** Files given and not yet written past which {@link FileWriter.ready} waits (a few MB of text). */
const MAX_BACKLOG = 1024;

/** The compiled worker module (dist/ of this package: a bundle's chunk is elsewhere, the file is not). */
const WORKER_FILE = `${PACKAGE_ROOT}dist/export/write-worker.js`;

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Orders go to the thread in batches ({@link BATCH_FILES}, or what came in
 * {@link BATCH_WAIT_MS}) and its answers come back in batches: in a national export each
 * message cost the main thread ~0.2 ms, whatever it held, so one per file cost about as much
 * as the writes it handed over.
 */
export class ThreadWriter implements FileWriter {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private batch: { file: string; text: string; fresh: boolean }[] = [];
  /** The id of the batch's first file. */
  private batchStart = 0;
  private nextId = 0;
  /** Why the thread can take no more orders (it failed or exited); every later write rejects with it. */
  private stopped: Error | undefined;
  private closing: Promise<void> | undefined;
  /** Sends the batch once it has waited {@link BATCH_WAIT_MS}. */
  private timer: NodeJS.Timeout | undefined;
  /** What waits for the thread's next answer ({@link drained}). */
  private drainedWaiters: (() => void)[] = [];

  constructor(file = WORKER_FILE) {
    this.worker = new Worker(file);
    this.worker.on('message', (outcomes: BatchOutcome[]) => {
      for (const outcome of outcomes) this.settle(outcome);
      this.wake();
    });
    // A file's own failure comes back as its answer; these are the thread's (it could not start, say).
    this.worker.on('error', (error) => this.stop(threadFailure(error.message)));
    this.worker.on('messageerror', (error) => this.stop(threadFailure(`an answer was unreadable (${error.message})`)));
    this.worker.on('exit', (code) => this.stop(threadFailure(`it exited with code ${code}`)));
  }

  write(file: string, text: string, freshFolder: boolean): Promise<void> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    const written = new Promise<void>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    if (this.batch.length === 0) this.batchStart = id;
    this.batch.push({ file, text, fresh: freshFolder });
    if (this.batch.length >= BATCH_FILES) this.send();
    else this.timer ??= setTimeout(() => this.send(), BATCH_WAIT_MS);
    return written;
  }

  async ready(): Promise<void> {
    while (this.pending.size >= MAX_BACKLOG && !this.stopped) await this.drained();
  }

  async close(): Promise<void> {
    this.closing ??= (async () => {
      this.send();
      while (this.pending.size > 0 && !this.stopped) await this.drained();
      this.stopped ??= threadFailure('the export closed it');
      await this.worker.terminate();
    })();
    return this.closing;
  }

  /** Resolves at the next answer of the thread, or when it stops. */
  private drained(): Promise<void> {
    return new Promise((resolve) => this.drainedWaiters.push(resolve));
  }

  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0 || this.stopped) return;
    const ends: number[] = [];
    let total = 0;
    for (const order of batch) ends.push((total += Buffer.byteLength(order.text, 'utf8')));
    // Not from Buffer's shared pool: the thread takes the whole memory.
    const bytes = Buffer.allocUnsafeSlow(total);
    let offset = 0;
    for (const order of batch) offset += bytes.write(order.text, offset, 'utf8');
    const message: WriteBatch = {
      firstId: this.batchStart,
      files: batch.map((order) => order.file),
      fresh: batch.map((order) => order.fresh),
      bytes,
      ends,
    };
    try {
      this.worker.postMessage(message, [bytes.buffer]);
    } catch (error) {
      // Not thrown at the write (or from the timer): the files fail, the export with them.
      this.stop(threadFailure(`a batch could not be sent (${error instanceof Error ? error.message : String(error)})`));
    }
  }

  private settle({ firstId, count, failures }: BatchOutcome): void {
    const failed = new Map(failures.map(({ id, error }) => [id, error]));
    for (let id = firstId; id < firstId + count; id++) {
      const waiting = this.pending.get(id);
      if (!waiting) continue;
      this.pending.delete(id);
      const error = failed.get(id);
      if (error) waiting.reject(errorOf(error));
      else waiting.resolve();
    }
  }

  /** The thread failed or exited: what it had not answered fails with the reason. */
  private stop(reason: Error): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stopped ??= reason;
    for (const { reject } of this.pending.values()) reject(this.stopped);
    this.pending.clear();
    this.batch = [];
    this.wake();
  }

  private wake(): void {
    const waiters = this.drainedWaiters;
    this.drainedWaiters = [];
    for (const wake of waiters) wake();
  }
}

function threadFailure(reason: string): SwitchboardError {
  return new SwitchboardError(
    'SB_EXPORT_WRITER',
    `the export's file-writing thread stopped: ${reason}; the files it had not written are not (run the export again)`,
  );
}

/** The error a write failed with, as the main thread would have thrown it. */
function errorOf(error: WriteFailure): Error {
  const { message, switchboard, ...details } = error;
  if (switchboard && details.code) return new SwitchboardError(details.code, message, switchboard);
  return Object.assign(new Error(message), details);
}
