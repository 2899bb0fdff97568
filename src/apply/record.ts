import { kindOf } from '../kinds/index.js';
import { normalizeField } from '../kinds/fields.js';
import { writeOnlyDigests } from '../plan/diff.js';
import { moveRecorded, writeLastApplied } from '../state/last-applied.js';
import type { DesiredNode, LastAppliedEntry } from '../state/types.js';

/** How often a long run writes the record while it goes (ms). */
export const RECORD_FLUSH_INTERVAL_MS = 5_000;

/**
 * The last-applied record as the run changes it: an entry per object with write-only
 * fields (their digests) or of a kind the API cannot read (its identity), updated after
 * each successful create or update, removed after a delete. Written atomically at the end
 * and every few seconds in between, so a killed run loses at most that much: the next
 * plan then re-sends those write-only values, which is harmless.
 */
export class RecordKeeper {
  private readonly entries: Map<string, LastAppliedEntry>;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly target: { baseUrl: string; instance: string },
    initial: ReadonlyMap<string, LastAppliedEntry>,
  ) {
    this.entries = new Map(initial);
  }

  /** After a successful create or update of `desired`. */
  applied(desired: DesiredNode): void {
    const kind = kindOf(desired.kind);
    const digests = writeOnlyDigests(desired);
    if (Object.keys(digests).length === 0 && !kind.unreadable) return;
    const entry: LastAppliedEntry = { kind: kind.kind, digests };
    if (kind.unreadable) entry.identity = identityFields(desired);
    this.entries.set(desired.address, entry);
    this.dirty = true;
  }

  /** After a successful delete: the object's entry and those of everything below it go. */
  deleted(address: string): void {
    for (const key of [...this.entries.keys()]) {
      if (key === address || key.startsWith(`${address}/`)) {
        this.entries.delete(key);
        this.dirty = true;
      }
    }
  }

  /** After a successful rename: what was recorded under the old address (and below it) follows the object. */
  renamed(from: string, to: string): void {
    if (moveRecorded(this.entries, from, to)) this.dirty = true;
  }

  /** Starts the periodic writes. */
  start(intervalMs = RECORD_FLUSH_INTERVAL_MS): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  /** Writes the record when something changed since the last write. */
  flush(): Promise<void> {
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        if (!this.dirty) return;
        this.dirty = false;
        try {
          await writeLastApplied(this.file, this.target, this.entries);
        } catch (error) {
          this.dirty = true;
          throw error;
        }
      });
    return this.writing;
  }

  /** Stops the periodic writes and writes a last time. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  snapshot(): ReadonlyMap<string, LastAppliedEntry> {
    return this.entries;
  }
}

/**
 * What the reader takes as the live fields of an unreadable object: every declared field
 * the API does not treat as write-only, normalised (for administrators: the e-mail).
 */
function identityFields(desired: DesiredNode): Record<string, unknown> {
  const kind = kindOf(desired.kind);
  const identity: Record<string, unknown> = {};
  for (const spec of kind.fields) {
    if (spec.change === 'writeOnly' || !(spec.name in desired.fields)) continue;
    identity[spec.name] = normalizeField(spec, desired.fields[spec.name]);
  }
  return identity;
}
