import { hasKind, kindOf } from '../kinds/index.js';
import { fieldSpec, normalizeField } from '../kinds/fields.js';
import { checkValueDigest, isCurrentForm, isPlainDigest, recordDigest } from '../core/value-digest.js';
import { recordedValue, writeOnlyDigests } from '../plan/diff.js';
import { moveRecorded, writeLastApplied } from '../state/last-applied.js';
import type { DesiredNode, LastAppliedEntry } from '../state/types.js';

/** How often a long run writes the record while it goes (ms). */
const RECORD_FLUSH_INTERVAL_MS = 5_000;

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
    const digests = writeOnlyDigests(desired, this.entries.get(desired.address)?.digests);
    if (Object.keys(digests).length === 0 && !kind.unreadable) return;
    const entry: LastAppliedEntry = { kind: kind.kind, digests };
    if (kind.unreadable) entry.identity = identityFields(desired);
    this.entries.set(desired.address, entry);
    this.dirty = true;
  }

  /**
   * Brings the digests of the declared objects to the form this run writes (a record of an
   * older switchboard holds plain SHA-256 digests; a key may have been set or rotated since):
   * each one that the declared value matches is made again; a plain one that no longer
   * matches is dropped (it would only tell an old value; the plan sends the new one). A
   * digest that cannot be checked (another key's) stays, and so do the entries of objects
   * this run does not declare: the first apply that plans them migrates them. Returns how
   * many digests changed.
   */
  migrate(declared: Iterable<DesiredNode>): number {
    let changed = 0;
    for (const node of declared) {
      const entry = this.entries.get(node.address);
      if (!entry || !hasKind(entry.kind) || Object.values(entry.digests).every((d) => isCurrentForm(d))) continue;
      const kind = kindOf(entry.kind);
      const digests: Record<string, string> = {};
      for (const [name, digest] of Object.entries(entry.digests)) {
        const spec = fieldSpec(kind.fields, name);
        const declaredHere = spec !== undefined && Object.hasOwn(node.fields, name);
        if (isCurrentForm(digest)) digests[name] = digest;
        else if (!declaredHere) {
          if (!isPlainDigest(digest)) digests[name] = digest;
        } else {
          const value = recordedValue(spec, node.fields[name]);
          const check = checkValueDigest(value, digest);
          if (check === 'same') digests[name] = recordDigest(value);
          else if (check === 'unverifiable') digests[name] = digest;
        }
        if (digests[name] !== digest) changed++;
      }
      this.entries.set(node.address, { ...entry, digests });
    }
    if (changed > 0) this.dirty = true;
    return changed;
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

/**
 * An apply with nothing to do still brings the record's digests to the current form
 * (`RecordKeeper.migrate`), so that a record of an older switchboard is migrated by the
 * next apply whatever it changes. Writes the file only when a digest changed.
 */
export async function migrateRecordFile(
  file: string,
  target: { baseUrl: string; instance: string },
  entries: ReadonlyMap<string, LastAppliedEntry>,
  declared: Iterable<DesiredNode>,
): Promise<number> {
  const keeper = new RecordKeeper(file, target, entries);
  const changed = keeper.migrate(declared);
  await keeper.close();
  return changed;
}
