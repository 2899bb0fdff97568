import type { ClientStats } from '../api/index.js';
import { exportManifests, type ExportOptions, type ExportResult } from '../export/run.js';
import { SwitchboardError } from '../core/errors.js';
import { ReadMeter } from '../core/read-meter.js';
import { ReadProgress } from './read-progress.js';
import { openSession, type ConnectOptions } from './session.js';

/** What `export` wrote, and the requests it took. */
export type ExportRunResult = ExportResult & { stats: ClientStats };

/**
 * `export`: connects to the platform API, writes manifests of the live state in scope, and
 * disconnects. With `progressOut` (stderr), what was read so far is shown while it reads.
 */
export async function exportRun(
  connect: ConnectOptions,
  options: ExportOptions,
  progressOut?: NodeJS.WritableStream & { isTTY?: boolean },
): Promise<ExportRunResult> {
  const meter = new ReadMeter();
  const progress = progressOut ? new ReadProgress('export', meter, progressOut).start() : undefined;
  const session = await openSession({ ...connect, meter }, { platform: true, routing: false }).catch(
    (error: unknown) => {
      progress?.stop();
      throw error;
    },
  );
  try {
    const client = session.client;
    if (!client) throw new SwitchboardError('SB_CONFIG', 'export needs the platform API');
    const result = await exportManifests(client, {
      ...options,
      ...(session.settings ? { settings: session.settings } : {}),
    });
    return { ...result, stats: client.stats() };
  } finally {
    progress?.stop();
    await session.close();
  }
}
