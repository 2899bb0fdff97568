/**
 * How export writes one file so that it is never seen half-written, shared by the main
 * thread (a small export) and the file-writing thread (file-writer.ts).
 */
import { closeSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { SwitchboardError } from '../core/errors.js';
import { assertWritableTargetSync } from '../core/safe-write.js';

/** A file export could not write (a full disk, a folder it may not write in). */
const EXPORT_WRITE_ERROR = 'SB_EXPORT_WRITE';

/**
 * The second header line of every exported file: `--force` only ever removes or overwrites
 * files carrying it (docs/export.md: files without the export header are never touched).
 */
export const EXPORT_MARKER =
  'Exported by `switchboard export`: `switchboard plan` on these files reports "No changes." until live state moves.';

/** A file being written: renamed over its final name once complete (`.acme.yaml.<pid>.tmp`). */
export const TEMP_FILE = /^\..+\.yaml\.\d+\.tmp$/;

/**
 * Writes `text` to `file` so that the file is never seen half-written: into a temporary
 * file of the same folder (`.<name>.<pid>.tmp`, which the loader does not read), then
 * renamed over the final name, which POSIX makes atomic. A run killed between the two
 * leaves only the temporary file, which the next export removes.
 *
 * Synchronous calls: a national export writes 50,000 files, and the promise API's five trips
 * through the thread pool per file (check, open, write, close, rename) cost about 10 s of
 * CPU, where each call takes microseconds on a local disk. A large export makes them on a
 * thread of their own (file-writer.ts).
 */
export function writeFileAtomically(
  file: string,
  text: string | Uint8Array,
  options: { freshFolder?: boolean } = {},
): void {
  // A link, FIFO or device planted where a document goes is refused, never replaced (core/safe-write.ts).
  // Not looked for in a folder this export made (one system call per file of 50,000).
  if (!options.freshFolder) {
    assertWritableTargetSync(file);
    refuseHandWritten(file);
  }
  // A thread of this process writes under the process's id too: the next export knows the name.
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, text, { flag: 'wx' }); // never through a link planted at the temporary name
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    // The system's words (ENOSPC: no space left on device, write) name no file: this names it.
    const reason = error instanceof Error ? error.message : String(error);
    throw new SwitchboardError(EXPORT_WRITE_ERROR, `cannot write ${file}: ${reason}`, { cause: error });
  }
}

/** A file already there that an export did not write (no export header) is never overwritten. */
function refuseHandWritten(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return; // nothing there (or nothing readable: the write says why)
  }
  const head = Buffer.alloc(1024);
  let read: number;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('utf8', 0, read).includes(EXPORT_MARKER)) return;
  throw new SwitchboardError(
    'SB_WRITE_TARGET',
    `${file} is there and an export did not write it (it has no export header): export never overwrites such a ` +
      'file, --force or not; move it away, or export into another folder',
  );
}
