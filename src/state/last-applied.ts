import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SwitchboardError } from '../core/errors.js';
import { readRegularFile, writeFileSafely } from '../core/safe-write.js';
import { DIGEST_KEY_ENV, PREVIOUS_DIGEST_KEY_ENV, digestKeys, keyIdOf, type DigestKeys } from '../core/value-digest.js';
import type { LastApplied, LastAppliedEntry } from './types.js';

/**
 * The last-applied record: for every object with write-only values (administrators,
 * entitlement external references, reseller suspensions), the digests of the values the
 * last successful apply sent, and the identity of objects the API cannot read back.
 * Digests only, never values, and digests a dictionary cannot reverse (keyed with
 * `SWITCHBOARD_DIGEST_KEY`, else salted scrypt: core/value-digest.ts): the file is safe to
 * commit to git, which is how CI keeps it (see docs/apply.md "The last-applied record";
 * docs/reliability.md says what its digests tell).
 *
 * Format 2 is written; format 1 (plain SHA-256 digests) is read, and its digests are made
 * again by the next apply (RecordKeeper.migrate). A switchboard that knows format 1 only
 * refuses a format 2 record instead of planning every write-only value as changed.
 */
export const LAST_APPLIED_VERSION = 2;
const READABLE_VERSIONS: ReadonlySet<unknown> = new Set([1, LAST_APPLIED_VERSION]);

interface LastAppliedFile {
  formatVersion: number;
  target: { baseUrl: string; instance: string };
  entries: Record<string, LastAppliedEntry>;
}

/** `<stateDir>/last-applied.<instance>.json`: one record per platform instance. */
export function lastAppliedPath(stateDir: string, instance: string): string {
  return join(stateDir, `last-applied.${instance.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
}

export async function readLastApplied(file: string): Promise<Map<string, LastAppliedEntry>> {
  let text: string;
  try {
    text = await readRegularFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw new SwitchboardError(
      'SB_LAST_APPLIED',
      `cannot read the last-applied record ${file}: ${(error as Error).message}`,
    );
  }
  let parsed: LastAppliedFile;
  try {
    parsed = JSON.parse(text) as LastAppliedFile;
  } catch {
    throw new SwitchboardError(
      'SB_LAST_APPLIED',
      `the last-applied record ${file} is not valid JSON; restore it from git or delete it (write-only values will then be re-sent)`,
    );
  }
  if (!READABLE_VERSIONS.has(parsed.formatVersion) || typeof parsed.entries !== 'object' || parsed.entries === null) {
    throw new SwitchboardError(
      'SB_LAST_APPLIED',
      `the last-applied record ${file} has an unknown format (formatVersion ${String(parsed.formatVersion)})`,
    );
  }
  return new Map(Object.entries(parsed.entries));
}

/** Writes atomically (temp file, fsync, rename): a crash leaves the old record or the new one. */
export async function writeLastApplied(
  file: string,
  target: LastAppliedFile['target'],
  entries: LastApplied,
): Promise<void> {
  const sorted = Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const body: LastAppliedFile = { formatVersion: LAST_APPLIED_VERSION, target, entries: sorted };
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFileSafely(file, `${JSON.stringify(body, null, 2)}\n`);
  } catch (error) {
    // A read-only directory, a full disk, a directory where the file goes: a diagnostic, not a crash.
    throw new SwitchboardError(
      'SB_LAST_APPLIED',
      `cannot write the last-applied record ${file}: ${(error as Error).message}`,
    );
  }
}

/**
 * After a rename: the entries of the object at `from` and of everything below it move to
 * `to`. An entry already recorded at the new address (written since) is newer and stays.
 * Returns whether anything moved.
 */
export function moveRecorded(entries: Map<string, LastAppliedEntry>, from: string, to: string): boolean {
  let moved = false;
  for (const [address, entry] of [...entries]) {
    const rest = address === from ? '' : address.startsWith(`${from}/`) ? address.slice(from.length) : undefined;
    if (rest === undefined) continue;
    entries.delete(address);
    if (!entries.has(`${to}${rest}`)) entries.set(`${to}${rest}`, entry);
    moved = true;
  }
  return moved;
}

/**
 * What a plan should say about digests this run cannot check: those made with a key it does
 * not hold (`SWITCHBOARD_DIGEST_KEY` unset, or another key). Their values are planned as
 * changed and sent again; the warning names the key ids so the reason is plain.
 */
export function unverifiableDigestWarnings(
  entries: LastApplied,
  keys: DigestKeys = digestKeys(),
): { code: string; message: string }[] {
  const held = new Set([keys.current?.id, ...keys.previous.map((k) => k.id)]);
  const counts = new Map<string, number>();
  for (const entry of entries.values()) {
    for (const digest of Object.values(entry.digests)) {
      const id = keyIdOf(digest);
      if (id !== undefined && !held.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  if (counts.size === 0) return [];
  const found = [...counts].map(([id, n]) => `${n} made with key ${id}`).join(', ');
  const given = keys.current ? `${DIGEST_KEY_ENV} holds key ${keys.current.id}` : `${DIGEST_KEY_ENV} is not set`;
  return [
    {
      code: 'SB_DIGEST_KEY_UNKNOWN',
      message:
        `the last-applied record holds digests this run cannot check (${found}; ${given}): the write-only values ` +
        `they stand for are planned as changed and sent again. Set ${DIGEST_KEY_ENV} to the key the record was ` +
        `written with (after a rotation, the old one in ${PREVIOUS_DIGEST_KEY_ENV})`,
    },
  ];
}
