import type { Logger } from '../core/logger.js';
import { ApiClient } from '../api/index.js';
import { loadConnection, type ConnectionConfig } from '../config/index.js';
import { startSimulator, type RunningSimulator } from '../sim/index.js';

/** The options every platform-facing command shares (CONTRACT §1, §5). */
export interface ConnectOptions {
  env?: string;
  config?: string;
  /** `--sim`: a fresh embedded simulator in-process. */
  sim?: boolean;
  /** `--seed FILE` for `--sim`. */
  seed?: string;
  concurrency: number;
  logger: Logger;
}

/** A connected platform: the client, what the plan file records as its target, and cleanup. */
export interface PlatformSession {
  client: ApiClient;
  connection: Omit<ConnectionConfig, 'auth'>;
  simulator?: RunningSimulator;
  close(): Promise<void>;
}

/** The embedded simulator's system administrator (its default data set, docs/simulator.md). */
const SIM_ADMIN = { username: 'admin', password: 'admin' };

export async function openSession(options: ConnectOptions): Promise<PlatformSession> {
  const simulator = options.sim
    ? await startSimulator({ port: 0, host: '127.0.0.1', logger: options.logger, ...(options.seed ? { seed: options.seed } : {}) })
    : undefined;
  try {
    const connection: ConnectionConfig = simulator
      ? { url: simulator.url, auth: SIM_ADMIN, source: 'embedded simulator (--sim)' }
      : await loadConnection({ env: process.env, ...(options.config ? { configPath: options.config } : {}), ...(options.env ? { envName: options.env } : {}) });
    const client = await ApiClient.connect({
      baseUrl: connection.url,
      ...(connection.instance ? { instance: connection.instance } : {}),
      auth: connection.auth,
      concurrency: options.concurrency,
      logger: options.logger,
      ...(connection.caFile ? { caFile: connection.caFile } : {}),
      ...(connection.insecure ? { insecure: true } : {}),
    });
    const { auth: _auth, ...rest } = connection;
    return {
      client,
      connection: { ...rest, instance: client.instance },
      ...(simulator ? { simulator } : {}),
      close: async () => {
        await client.close();
        await simulator?.close();
      },
    };
  } catch (error) {
    await simulator?.close();
    throw error;
  }
}
