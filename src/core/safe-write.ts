/**
 * The one way switchboard writes a file (plan files, journals, exported manifests, the
 * files of `init`, the last-applied record, the simulator's state):
 *
 * - the target must be a regular file or not exist: a symbolic link, a FIFO, a device node
 *   or a folder at that path is refused (`SB_WRITE_TARGET`), never replaced and never
 *   written through: `--out /dev/full` run as root must not replace the device, and a link
 *   planted in a repository must not make `init --force` write outside it;
 * - a whole file is written to a temporary file in the target's own folder, flushed, then
 *   renamed over the target, so that a reader sees the old content or the new, never half;
 * - an appended file (the journal) is opened without following a link and checked to be a
 *   regular file once open.
 */
import { randomBytes } from 'node:crypto';
import { constants, lstatSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { SwitchboardError } from './errors.js';

const WRITE_TARGET_ERROR = 'SB_WRITE_TARGET';

/** What is at `target` when it is not a regular file, in words; undefined for a regular file or nothing. */
async function irregular(target: string): Promise<string | undefined> {
  const info = await lstat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return info && describeIrregular(info);
}

/** {@link irregular}, without a trip through the thread pool. */
function irregularSync(target: string): string | undefined {
  const info = lstatSync(target, { throwIfNoEntry: false });
  return info && describeIrregular(info);
}

function describeIrregular(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

function refused(target: string, what: string): SwitchboardError {
  return new SwitchboardError(
    WRITE_TARGET_ERROR,
    `${target} is ${what}: switchboard writes only regular files (it never replaces or writes through anything else); remove it or give another path`,
  );
}

/**
 * Refuses (SB_WRITE_TARGET) a target that exists and is not a regular file, in one system call
 * on this thread (export checks each of its tens of thousands of files).
 */
export function assertWritableTargetSync(target: string): void {
  const what = irregularSync(target);
  if (what) throw refused(target, what);
}

/**
 * Writes `data` to `target` whole: a temporary file in the same folder, flushed, renamed
 * over the target. `mode` applies to a new file (default 0o666, less the umask).
 */
export async function writeFileSafely(target: string, data: string | Uint8Array, mode = 0o666): Promise<void> {
  const what = await irregular(target);
  if (what) throw refused(target, what);
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Checked again just before: what was put there meanwhile is not replaced either.
    const now = await irregular(target);
    if (now) throw refused(target, now);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(path.dirname(target));
}

/** Opens `target` to append to it (created when missing), refusing anything but a regular file. */
export async function openForAppend(target: string, mode = 0o600): Promise<FileHandle> {
  const what = await irregular(target);
  if (what) throw refused(target, what);
  const flags =
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const handle = await open(target, flags, mode);
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw refused(target, 'not a regular file');
  }
  return handle;
}

async function syncFolder(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    await handle.sync().finally(() => handle.close());
  } catch {
    // Some filesystems cannot fsync a folder; the rename is still atomic.
  }
}

/**
 * Reads a whole text file the user named (a plan file, a seed, the configuration): opened
 * without blocking and checked to be a regular file first, so that a FIFO fails at once
 * instead of hanging the command and a folder or a device says what it is. Fails with an
 * error whose `code` is the system's (`ENOENT`…) or `ENOTREG`.
 */
export async function readRegularFile(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    await assertRegular(file, await handle.stat());
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Fails (code `ENOTREG`, or the system's) unless `file` is a regular file. */
export async function assertRegularFile(file: string): Promise<void> {
  await assertRegular(file, await stat(file));
}

async function assertRegular(file: string, info: Stats): Promise<void> {
  if (info.isFile()) return;
  const what = info.isDirectory()
    ? 'a folder'
    : info.isFIFO()
      ? 'a FIFO (named pipe)'
      : info.isSocket()
        ? 'a socket'
        : 'a device';
  throw Object.assign(new Error(`${file} is ${what}, not a regular file`), { code: 'ENOTREG', path: file });
}
