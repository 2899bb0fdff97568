import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SwitchboardError } from '../core/errors.js';

/**
 * One line of the journal. Never a body, a token or a secret: the method, the path (ids
 * only), the change it belongs to, and what came back (status, created id, error code and
 * the platform's message).
 */
export type JournalEntry =
  | { type: 'run'; event: 'start' | 'end'; runId: string; target?: { baseUrl: string; instance: string }; changes?: number; summary?: Record<string, number> }
  | { type: 'intent'; seq: number; address: string; method: string; path: string; purpose: string }
  | { type: 'outcome'; seq: number; address: string; ok: boolean; status?: number; id?: string; code?: string; message?: string; ms: number }
  | { type: 'change'; address: string; action: string; outcome: 'applied' | 'failed' | 'skipped'; message?: string; source?: string };

/** The default journal file: `<stateDir>/journal-<timestamp>.jsonl`. */
export function defaultJournalPath(stateDir: string, now: Date = new Date()): string {
  return join(stateDir, `journal-${now.toISOString().replace(/[:.]/g, '-')}.jsonl`);
}

/**
 * An append-only JSON-lines file, durable line by line: `append` resolves once the line is
 * on disk (fsync). Lines appended while a sync is running are written and synced together
 * (group commit), so a run with many requests in flight pays one fsync per batch, not one
 * per line.
 */
export class Journal {
  private pending: { line: string; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private flushing: Promise<void> | undefined;
  private seq = 0;

  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
  ) {}

  static async open(path: string): Promise<Journal> {
    try {
      await mkdir(dirname(path), { recursive: true });
      return new Journal(await open(path, 'a', 0o600), path);
    } catch (error) {
      throw new SwitchboardError('SB_JOURNAL', `cannot open the journal ${path}: ${(error as Error).message}`);
    }
  }

  /** A sequence number pairing a request's intent with its outcome. */
  nextSeq(): number {
    return ++this.seq;
  }

  append(entry: JournalEntry): Promise<void> {
    const line = `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`;
    const done = new Promise<void>((resolve, reject) => this.pending.push({ line, resolve, reject }));
    this.flushing ??= this.flush();
    return done;
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.handle.write(batch.map((p) => p.line).join(''));
        await this.handle.sync();
        for (const p of batch) p.resolve();
      } catch (error) {
        const failure = new SwitchboardError('SB_JOURNAL', `cannot write the journal ${this.path}: ${(error as Error).message}`);
        for (const p of batch) p.reject(failure);
      }
    }
    this.flushing = undefined;
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.handle.close();
  }
}
