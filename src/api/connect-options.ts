import type { ConnectionConfig } from '../config/load-connection.js';
import type { ApiClientOptions } from './types.js';

/** Client settings a command adds to the connection (`--concurrency`, the logger, …). */
export type ClientTuning = Pick<ApiClientOptions, 'concurrency' | 'logger' | 'timeoutMs' | 'retry' | 'meter'>;

/**
 * `ApiClient.connect` options for a loaded connection:
 * `ApiClient.connect(clientOptionsFor(await loadConnection({ env: process.env, envName }), { concurrency }))`.
 */
export function clientOptionsFor(connection: ConnectionConfig, tuning: ClientTuning = {}): ApiClientOptions {
  return {
    baseUrl: connection.url,
    auth: connection.auth,
    ...(connection.instance ? { instance: connection.instance } : {}),
    ...(connection.caFile ? { caFile: connection.caFile } : {}),
    ...(connection.insecure ? { insecure: true } : {}),
    ...(connection.timeoutMs === undefined ? {} : { timeoutMs: connection.timeoutMs }),
    ...tuning,
  };
}
