/**
 * The manifest cache (docs/performance.md "The manifest cache"): each manifest file's
 * documents, parsed and checked, kept in `<state-dir>/cache/` under the SHA-256 of the
 * file's content, so that a plan whose pull request edits one file of 50 parses and checks
 * that file alone; the objects are built and the checks across files run over the whole set
 * as always. A file whose entry is missing, refused (store.ts) or malformed (entry.ts) is
 * loaded afresh and its entry written again; the load's result is the same with and without
 * the cache.
 */
import { FileCapture, MalformedEntry, replay, type FileSource } from './entry.js';
import { CacheStore, contentDigest, type EntryStatus } from './store.js';
import type { BuildOutput } from '../build-context.js';

/** What the cache did in one load (LoadResult.cache). */
export interface CacheReport {
  /** Files put back from their entries. */
  hits: number;
  /** Files with no entry. */
  missing: number;
  /** Files whose entry was refused (another version, another key, a seal that does not hold) or malformed. */
  refused: number;
  /** Entries written. */
  written: number;
  /** Files that cannot be kept (see entry.ts), loaded afresh every time. */
  uncacheable: number;
}

/** A file's lookup: its content digest and, on a hit, the entry's body. */
export interface Lookup {
  source: string;
  /** The file's length in bytes (UTF-8): what bounds its entry's (store.ts `maxEntryBytes`). */
  textBytes: number;
  status: EntryStatus;
  body?: string;
}

export class ManifestCache {
  private readonly store: CacheStore;
  private readonly writes: Promise<void>[] = [];
  readonly report: CacheReport = { hits: 0, missing: 0, refused: 0, written: 0, uncacheable: 0 };

  /**
   * `dir`: the cache folder (`<state-dir>/cache`); `version` is for tests (an entry of another
   * version). Throws SB_CACHE_KEY for an unusable `SWITCHBOARD_CACHE_KEY` (key.ts).
   */
  constructor(dir: string, version?: string) {
    this.store = new CacheStore(dir, version);
  }

  /** The entry of a file's text, when one holds. */
  async lookup(text: string): Promise<Lookup> {
    const source = contentDigest(text);
    const textBytes = Buffer.byteLength(text, 'utf8');
    const { status, body } = await this.store.read(source, textBytes);
    if (status === 'missing') this.report.missing++;
    if (status === 'refused') this.report.refused++;
    return { source, textBytes, status, ...(body === undefined ? {} : { body }) };
  }

  /**
   * Builds a hit's documents into `out` (its seal held: switchboard wrote it for this content).
   * Undefined when the entry is malformed (nothing was added then): the caller loads the
   * file afresh.
   * @returns the number of documents the file holds
   */
  replay(found: Lookup, out: BuildOutput, where: FileSource): number | undefined {
    if (found.body === undefined) return undefined;
    try {
      const count = replay(found.body, out, where);
      this.report.hits++;
      return count;
    } catch (error) {
      if (!(error instanceof MalformedEntry)) throw error;
      this.report.refused++;
      return undefined;
    }
  }

  /** Starts capturing what processing a file adds to `out`. */
  capture(out: BuildOutput): FileCapture {
    return new FileCapture(out);
  }

  /** Writes the entry of a file that was processed afresh, when all of it can be kept. */
  keep(found: Lookup, capture: FileCapture): void {
    const body = capture.body();
    if (body === undefined) {
      this.report.uncacheable++;
      return;
    }
    this.writes.push(
      this.store.write(found.source, body, found.textBytes).then((written) => {
        if (written) this.report.written++;
      }),
    );
  }

  private flushed: Promise<void> | undefined;

  /** Waits for the entries to be written, then removes those unused for a month. */
  flush(): Promise<void> {
    this.flushed ??= (async () => {
      await Promise.all(this.writes);
      await this.store.prune();
    })();
    return this.flushed;
  }

  /** The entries a load kept, on disk (the load's `flush`; at once when nothing was kept). */
  written(): Promise<void> {
    return this.flushed ?? Promise.resolve();
  }
}
