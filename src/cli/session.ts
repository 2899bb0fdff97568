import type { Logger } from '../core/logger.js';
import { SwitchboardError } from '../core/errors.js';
import { ApiClient } from '../api/index.js';
import { loadConnection, type ConnectionConfig } from '../config/index.js';
import { RoutingClient } from '../routing/index.js';
import type { RunningSimulator } from '../sim/index.js';

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

/** What the manifests need: a set of only RoutingTable documents needs no platform API. */
export interface SessionNeeds {
  platform: boolean;
  routing: boolean;
}

/** Connected endpoints, what the plan file records as the target, and cleanup. */
export interface PlatformSession {
  client?: ApiClient;
  routing?: RoutingClient;
  target: { baseUrl: string; instance: string; routingEngine?: string };
  simulator?: RunningSimulator;
  close(): Promise<void>;
}

/** The embedded simulator's users (its default data set, README "The simulator"). */
const SIM_ADMIN = { username: 'admin', password: 'admin' };
const SIM_ROUTING = { username: 'routing', password: 'routing' };

export async function openSession(options: ConnectOptions, needs: SessionNeeds): Promise<PlatformSession> {
  const simulator = options.sim
    ? await (await import('../sim/index.js')).startSimulator({ port: 0, host: '127.0.0.1', logger: options.logger, ...(options.seed ? { seed: options.seed } : {}) })
    : undefined;
  let client: ApiClient | undefined;
  let routing: RoutingClient | undefined;
  const close = async () => {
    await client?.close();
    await routing?.close();
    await simulator?.close();
  };
  try {
    const connection: ConnectionConfig = simulator
      ? { url: simulator.url, auth: SIM_ADMIN, routingEngine: { url: simulator.url, auth: SIM_ROUTING }, source: 'embedded simulator (--sim)' }
      : await loadConnection({
          env: process.env,
          platform: needs.platform,
          routing: needs.routing,
          ...(options.config ? { configPath: options.config } : {}),
          ...(options.env ? { envName: options.env } : {}),
        });
    if (needs.platform) client = await connectPlatform(connection, options);
    if (needs.routing) routing = connectRouting(connection, options);
    const target: PlatformSession['target'] = { baseUrl: connection.url, instance: client?.instance ?? connection.instance ?? '' };
    if (connection.routingEngine) target.routingEngine = connection.routingEngine.url;
    return { ...(client ? { client } : {}), ...(routing ? { routing } : {}), target, ...(simulator ? { simulator } : {}), close };
  } catch (error) {
    await close();
    throw error;
  }
}

function connectPlatform(connection: ConnectionConfig, options: ConnectOptions): Promise<ApiClient> {
  return ApiClient.connect({
    baseUrl: connection.url,
    ...(connection.instance ? { instance: connection.instance } : {}),
    auth: connection.auth,
    concurrency: options.concurrency,
    logger: options.logger,
    ...(connection.caFile ? { caFile: connection.caFile } : {}),
    ...(connection.insecure ? { insecure: true } : {}),
  });
}

function connectRouting(connection: ConnectionConfig, options: ConnectOptions): RoutingClient {
  const engine = connection.routingEngine;
  if (!engine) {
    throw new SwitchboardError('SB_CONFIG', `the manifests declare RoutingTable documents but ${connection.source} has no routingEngine (url and auth)`);
  }
  return new RoutingClient({
    url: engine.url,
    auth: engine.auth,
    concurrency: options.concurrency,
    logger: options.logger,
    ...(engine.caFile ? { caFile: engine.caFile } : {}),
    ...(engine.insecure ? { insecure: true } : {}),
  });
}
