/**
 * `--state FILE`: the store survives restarts. After a request that changed something the
 * snapshot is written, debounced, atomically (temp file, fsync, rename, fsync of the
 * folder), so a crash leaves either the old or the new file, never half of one.
 */
import { randomBytes } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SwitchboardError } from '../core/errors.js';
import { assertWritableTargetSync, readRegularFile, writeFileSafely } from '../core/safe-write.js';
import { isSnapshot, type PlatformStore, type StoreSnapshot } from './platform/store/store.js';

const SAVE_DEBOUNCE_MS = 200;

export async function loadStateFile(file: string): Promise<StoreSnapshot | undefined> {
  let text: string;
  try {
    text = await readRegularFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SwitchboardError('SB_SIM_STATE', `cannot read state file ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SwitchboardError(
      'SB_SIM_STATE',
      `state file ${file} is not valid JSON (${(error as Error).message}); move it away to start fresh`,
    );
  }
  if (!isSnapshot(value))
    throw new SwitchboardError('SB_SIM_STATE', `${file} is not a simulator state file (kind switchboard-sim-state)`);
  return value;
}

/**
 * Refuses (SB_SIM_STATE) a state file that could not be written: its folder missing or not
 * writable (a probe file is created there and removed), or something not a regular file at
 * its path. Checked at start, so a simulator never runs losing every change.
 */
export async function assertStateFileWritable(file: string): Promise<void> {
  const probe = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.probe`);
  try {
    assertWritableTargetSync(file);
    await (await open(probe, 'wx', 0o600)).close();
  } catch (error) {
    throw new SwitchboardError(
      'SB_SIM_STATE',
      `cannot write the state file ${file}: ${(error as Error).message}; give --state a file in a folder this user can write`,
    );
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}

/** The state file, written whole (src/core/safe-write.ts: temp file, fsync, rename; never through a link). */
export const writeFileAtomic = (file: string, text: string): Promise<void> => writeFileSafely(file, text);

export class StatePersister {
  private timer: NodeJS.Timeout | undefined;
  private savedVersion: number;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly store: PlatformStore,
    private readonly snapshot: () => StoreSnapshot,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly debounceMs = SAVE_DEBOUNCE_MS,
  ) {
    this.savedVersion = store.version;
  }

  /** Schedules a save when the store changed since the last one. */
  changed(): void {
    if (this.store.version === this.savedVersion || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.save();
    }, this.debounceMs);
  }

  /**
   * Writes now if anything is pending (used on shutdown); rejects (SB_SIM_STATE) when that
   * write fails: the changes since the last save are then lost, and the caller says so.
   */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.save(true);
  }

  /** A debounced save reports a failure to `onError` (the next change tries again); the final one rejects. */
  private save(final = false): Promise<void> {
    const write = this.writing.then(async () => {
      if (this.store.version === this.savedVersion) return;
      const version = this.store.version;
      try {
        await writeFileAtomic(this.file, JSON.stringify(this.snapshot()));
        this.savedVersion = version;
      } catch (error) {
        const failure = new SwitchboardError(
          'SB_SIM_STATE',
          `cannot write the state file ${this.file}: ${(error as Error).message}`,
        );
        if (final)
          throw new SwitchboardError(
            'SB_SIM_STATE',
            `${failure.message}; the changes since it was last written are lost`,
          );
        this.onError(failure);
      }
    });
    // The chain goes on after a failed final write: a later flush tries again.
    this.writing = write.catch(() => undefined);
    return write;
  }
}
