import { ApiClient, clientOptionsFor, type ConcurrencySetting } from '../api/index.js';
import { loadConnection, type ConnectionConfig } from '../config/index.js';
import { SwitchboardError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { ReadMeter } from '../core/read-meter.js';
import { RoutingClient } from '../routing/index.js';
import type { KindSettings } from '../kinds/types.js';
import type { RunningSimulator } from '../sim/index.js';

/** The options every platform-facing command shares (docs/commands.md, §5). */
export interface ConnectOptions {
  env?: string;
  config?: string;
  /** `--sim`: a fresh embedded simulator in-process. */
  sim?: boolean;
  /** `--seed FILE` for `--sim`. */
  seed?: string;
  concurrency: ConcurrencySetting;
  logger: Logger;
  /** Counts what the clients read (the progress line). */
  meter?: ReadMeter;
}

/** The endpoints a run needs (the manifests say which: routing tables alone need no platform API). */
export interface SessionNeeds {
  platform: boolean;
  routing: boolean;
}

/** Connected endpoints, what the plan file records as the target, and cleanup. */
export interface Session {
  client?: ApiClient;
  routing?: RoutingClient;
  target: { baseUrl: string; instance: string; routingEngine?: string };
  /** Connection settings the kinds need (the branding read path), when configured. */
  settings?: KindSettings;
  simulator?: RunningSimulator;
  close(): Promise<void>;
}

/** The embedded simulator's users (its default data set, docs/simulator.md). */
const SIM_ADMIN = { username: 'admin', password: 'admin' };
const SIM_ROUTING = { username: 'routing', password: 'routing' };

/**
 * Connects what the run needs: a fresh embedded simulator for `--sim`, else the
 * configuration (file, environment); connects the platform API (its login goes out with
 * the first request); makes the routing-engine client. The caller closes the session (which
 * logs out and stops the simulator); `close` does it once, however often it is called.
 */
export async function openSession(options: ConnectOptions, needs: SessionNeeds): Promise<Session> {
  const simulator = options.sim
    ? await (
        await import('../sim/index.js')
      ).startSimulator({
        port: 0,
        host: '127.0.0.1',
        logger: options.logger,
        ...(options.seed ? { seed: options.seed } : {}),
      })
    : undefined;
  let client: ApiClient | undefined;
  let routing: RoutingClient | undefined;
  // Once: a plan that handed its session over (`readsDone`) and then failed is closed again by
  // planRun, and a second close would stop the simulator under the first one's logout.
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await client?.close();
      await routing?.close();
      await simulator?.close();
    })());
  try {
    const connection: ConnectionConfig = simulator
      ? {
          url: simulator.url,
          auth: SIM_ADMIN,
          routingEngine: { url: simulator.url, auth: SIM_ROUTING },
          source: 'embedded simulator (--sim)',
        }
      : await loadConnection({
          env: process.env,
          platform: needs.platform,
          routing: needs.routing,
          ...(options.config ? { configPath: options.config } : {}),
          ...(options.env ? { envName: options.env } : {}),
        });
    options.logger.info({ source: connection.source }, 'connection settings');
    if (needs.platform) client = await connectPlatform(connection, options);
    if (needs.routing) routing = connectRouting(connection, options);
    const target: Session['target'] = {
      baseUrl: connection.url,
      instance: client?.instance ?? connection.instance ?? '',
    };
    if (connection.routingEngine) target.routingEngine = connection.routingEngine.url;
    const settings = connection.brandingReadPath ? { settings: { brandingReadPath: connection.brandingReadPath } } : {};
    return {
      ...(client ? { client } : {}),
      ...(routing ? { routing } : {}),
      target,
      ...settings,
      ...(simulator ? { simulator } : {}),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function connectPlatform(connection: ConnectionConfig, options: ConnectOptions): Promise<ApiClient> {
  const { concurrency, logger, meter } = options;
  return ApiClient.connect(clientOptionsFor(connection, { concurrency, logger, ...(meter ? { meter } : {}) }));
}

function connectRouting(connection: ConnectionConfig, options: ConnectOptions): RoutingClient {
  const engine = connection.routingEngine;
  if (!engine) {
    throw new SwitchboardError(
      'SB_CONFIG',
      `the manifests declare RoutingTable documents but ${connection.source} has no routingEngine (url and auth)`,
    );
  }
  return new RoutingClient({
    url: engine.url,
    auth: engine.auth,
    concurrency: options.concurrency,
    logger: options.logger,
    ...(options.meter ? { meter: options.meter } : {}),
    ...(engine.caFile ? { caFile: engine.caFile } : {}),
    ...(engine.insecure ? { insecure: true } : {}),
    ...(engine.timeoutMs === undefined ? {} : { timeoutMs: engine.timeoutMs }),
  });
}

/** The connection options of a command's flat options (`--env`, `--config`, `--sim`, `--seed`, `--concurrency`). */
export function connectOptionsOf(
  options: {
    env?: string | undefined;
    config?: string | undefined;
    sim?: boolean | undefined;
    seed?: string | undefined;
    concurrency: ConcurrencySetting;
  },
  logger: Logger,
): ConnectOptions {
  const out: ConnectOptions = { concurrency: options.concurrency, logger };
  if (options.env) out.env = options.env;
  if (options.config) out.config = options.config;
  if (options.sim) out.sim = true;
  if (options.seed) {
    if (!options.sim) throw new SwitchboardError('SB_USAGE', '--seed is for the embedded simulator: add --sim');
    out.seed = options.seed;
  }
  return out;
}
