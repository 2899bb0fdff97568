/**
 * `--state FILE`: the store survives restarts. After a request that changed something the
 * snapshot is written, debounced, atomically (temp file, fsync, rename, fsync of the
 * folder), so a crash leaves either the old or the new file, never half of one.
 */
import { SwitchboardError } from '../core/errors.js';
import { readRegularFile, writeFileSafely } from '../core/safe-write.js';
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

  /** Writes now if anything is pending (used on shutdown). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.save();
  }

  private save(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.store.version === this.savedVersion) return;
      const version = this.store.version;
      try {
        await writeFileAtomic(this.file, JSON.stringify(this.snapshot()));
        this.savedVersion = version;
      } catch (error) {
        this.onError(error);
      }
    });
    return this.writing;
  }
}
