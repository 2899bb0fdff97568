import type { ClientStats } from '../api/index.js';
import { exportManifests, type ExportOptions, type ExportResult } from '../export/run.js';
import { SwitchboardError } from '../core/errors.js';
import { openSession, type ConnectOptions } from './session.js';

/** What `export` wrote, and the requests it took. */
export type ExportRunResult = ExportResult & { stats: ClientStats };

/** `export`: connects to the platform API, writes manifests of the live state in scope, and disconnects. */
export async function exportRun(connect: ConnectOptions, options: ExportOptions): Promise<ExportRunResult> {
  const session = await openSession(connect, { platform: true, routing: false });
  try {
    const client = session.client;
    if (!client) throw new SwitchboardError('SB_CONFIG', 'export needs the platform API');
    const result = await exportManifests(client, {
      ...options,
      ...(session.settings ? { settings: session.settings } : {}),
    });
    return { ...result, stats: client.stats() };
  } finally {
    await session.close();
  }
}
