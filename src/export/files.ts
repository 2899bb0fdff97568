import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { SwitchboardError } from '../core/errors.js';
import { realExisting } from '../core/real-existing.js';
import { EXPORT_MARKER, TEMP_FILE } from './atomic-write.js';
import { relativeLeadsInside } from '../core/path-inside.js';

export { EXPORT_MARKER } from './atomic-write.js';

/** The folders export writes documents into. */
const EXPORT_FOLDERS = ['groups', 'resellers', 'tenants'] as const;

/**
 * Present in the output folder while an export writes into it, removed once the last file
 * is written and checked: a folder holding it is an export that was interrupted (Ctrl-C,
 * SIGTERM, a crash), which the same command continues without `--force`.
 */
const UNFINISHED_FILE = '.switchboard-export-unfinished';
const UNFINISHED_TEXT =
  'switchboard export is writing into this folder, or was interrupted while it did.\n' +
  'Run the same export again to finish it: the files it writes are complete, the others are rewritten.\n';

/** What the output folder held when the export started. */
export interface OutDirState {
  /** The folder holds an interrupted export, continued without `--force`. */
  unfinished: boolean;
}

/**
 * Refuses a non-empty output folder unless `force`, or unless it holds an export that was
 * interrupted (its {@link UNFINISHED_FILE}): an export never mixes with files it did not
 * write by accident. Called before the estate is read (the session's login and profile only).
 */
export async function checkOutDir(outDir: string, force: boolean): Promise<OutDirState> {
  const entries = await readdir(outDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw new SwitchboardError('SB_EXPORT_OUT', `cannot read ${outDir}: ${error.message}`);
  });
  const unfinished = entries.includes(UNFINISHED_FILE);
  if (entries.length > 0 && !force && !unfinished) {
    throw new SwitchboardError(
      'SB_EXPORT_NOT_EMPTY',
      `${outDir} is not empty: export writes into an empty or new folder; add --force to overwrite the files a previous export wrote there`,
    );
  }
  // Each name looked up, not matched against the listing: on a case-insensitive disk a planted `Tenants` is `tenants`.
  for (const folder of EXPORT_FOLDERS) await assertInside(outDir, folder);
  return { unfinished };
}

/**
 * A folder export writes into must be, when it is there already, one inside `outDir`: a
 * symbolic link planted as `tenants` (a repository's, written with --force) would have the
 * files written wherever it leads. A folder not there yet passes (export makes it).
 */
async function assertInside(outDir: string, folder: string): Promise<void> {
  const at = path.join(outDir, folder);
  const [realOut, real] = await Promise.all([realExisting(outDir), realExisting(at)]);
  const relative = path.relative(realOut, real);
  const inside = relative !== '' && relativeLeadsInside(relative);
  const info = await lstat(real).catch(() => undefined);
  if (inside && (info === undefined || info.isDirectory())) return;
  throw new SwitchboardError(
    'SB_WRITE_TARGET',
    inside
      ? `${at} is not a folder: export writes its ${folder} there; remove it or give another folder`
      : `${at} leads to ${real}, not a folder inside ${realOut} (through a symbolic link): export writes only inside the folder it is given; remove the link or give another folder`,
  );
}

/**
 * Makes the folder ready for the files of this export: marks it unfinished, removes the
 * temporary files an interrupted export left, and the files a previous export wrote that
 * this one does not write again (so a re-export into a git checkout diffs cleanly: a tenant
 * deleted on the platform shows as a deleted file). Files without the export marker are kept.
 */
export async function prepareOutDir(outDir: string, keep: ReadonlySet<string>): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, UNFINISHED_FILE), UNFINISHED_TEXT);
  for (const folder of EXPORT_FOLDERS) {
    const dir = path.join(outDir, folder);
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files) {
      const full = path.join(dir, file);
      if (TEMP_FILE.test(file)) {
        await rm(full, { force: true });
        continue;
      }
      if (!file.endsWith('.yaml') || keep.has(full)) continue;
      const head = (await readFile(full, 'utf8').catch(() => '')).slice(0, 1000);
      if (head.includes(EXPORT_MARKER)) await rm(full);
    }
  }
}

/** The export is complete: the folder is no longer an unfinished one. */
export async function finishOutDir(outDir: string): Promise<void> {
  await rm(path.join(outDir, UNFINISHED_FILE), { force: true });
}

/** A document's place in the output folder. */
export interface DocumentName {
  name: string;
  /** `groups`, `resellers`, `tenants`. */
  folder: string;
}

/** File names for the documents: `<folder>/<name>.yaml`, made safe and unique per folder. */
export function fileNames<T extends DocumentName>(outDir: string, documents: readonly T[]): Map<T, string> {
  const out = new Map<T, string>();
  const taken = new Set<string>();
  for (const doc of documents) {
    let base = safeName(doc.name);
    // Case-insensitive file systems would merge "Acme" and "acme".
    if (taken.has(`${doc.folder}/${base}`.toLowerCase()))
      base = `${base}-${createHash('sha256').update(doc.name).digest('hex').slice(0, 8)}`;
    taken.add(`${doc.folder}/${base}`.toLowerCase());
    out.set(doc, path.join(outDir, doc.folder, `${base}.yaml`));
  }
  return out;
}

/**
 * A file name's base: at most this many characters, so that the name and the temporary one
 * written first (`.<name>.yaml.<pid>.tmp`) stay within a file system's 255 bytes.
 */
const MAX_BASE = 120;

function safeName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  const hash = () => createHash('sha256').update(name).digest('hex').slice(0, 8);
  if (safe === '') return `object-${hash()}`;
  // A longer name is cut, and told apart from others cut alike by its hash.
  return safe.length > MAX_BASE ? `${safe.slice(0, MAX_BASE)}-${hash()}` : safe;
}
