/**
 * The simulator's HTTP server: one port for the control surface (`/_sim/`), the platform
 * API (`/api/`) and the routing engine (everything else, when its simulator is present).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger, type Logger } from '../core/logger.js';
import { createControlHandler, type ControlTarget } from './control/control.js';
import { defaultFaults, drawFault, sendFault, sleep } from './control/faults.js';
import { drawMalformed, spoilResponse } from './control/malformed.js';
import { RateLimiter, sendRateLimited } from './control/rate-limit.js';
import { RequestStats } from './control/stats.js';
import { answerNoSoonerThan, readBody, sendJson, type SimRequest } from './http.js';
import { createPlatformCore, type PlatformCore } from './platform/core.js';
import { readSeedFile } from './platform/seed/load-seed.js';
import type { Seed } from './platform/seed/types.js';
import { isSnapshot, type StoreSnapshot } from './platform/store/store.js';
import { createRoutingEngineSim, type RoutingEngineSim, type RoutingSeed } from './routing/index.js';
import { assertStateFileWritable, loadStateFile, StatePersister } from './persistence.js';

export interface SimulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** A seed, or the path of a YAML/JSON seed file; the default data set when omitted. */
  seed?: Seed | string;
  /** Persist the store here; loaded at start when the file exists (it wins over `seed`). */
  stateFile?: string;
  /** Constant latency added to every platform and routing-engine request. */
  latencyMs?: number;
  /** Initial fault rate (statuses 500, 503, 429). */
  faultRate?: number;
  /**
   * Requests per second each API (platform, routing engine) serves; beyond it, 429 with
   * `Retry-After` (./control/rate-limit.ts). Wins over the seed's `rateLimit`.
   */
  rateLimit?: number;
  /**
   * Variant mode: every documented loosely typed field in one of its documented forms,
   * drawn per answer from a random source seeded with this (wins over the seed's `variants`).
   */
  variants?: string | number;
  logger?: Logger;
}

export interface RunningSimulator {
  /** e.g. `http://127.0.0.1:8080` (the `{base_url}`). */
  url: string;
  port: number;
  host: string;
  core: PlatformCore;
  /** The routing-engine simulator is mounted (always, since src/sim/routing exists). */
  routingEngine: boolean;
  /** The rate limit in force (requests per second per API), undefined when none. */
  readonly rateLimit: number | undefined;
  /** Writes pending state (with `stateFile`); rejects (SB_SIM_STATE) when it cannot. */
  flush(): Promise<void>;
  /** Stops serving, then writes pending state: rejects (SB_SIM_STATE) when it cannot, once stopped. */
  close(): Promise<void>;
}

/**
 * MOUNT POINT of the routing-engine simulator (Document 3, src/sim/routing/): it gets the
 * seed's `routing` section (its own default data set when absent) and answers the
 * `/<service>/<version>/<table>` paths; its data is part of `/_sim/state` and `--state`.
 */
function routingSeedOf(source: Seed | StoreSnapshot | undefined): RoutingSeed | undefined {
  return (source?.routing ?? undefined) as RoutingSeed | undefined;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const logger = options.logger ?? silentLogger;
  const seed = typeof options.seed === 'string' ? await readSeedFile(options.seed) : options.seed;
  const saved = options.stateFile ? await loadStateFile(options.stateFile) : undefined;
  // Before listening: a simulator that cannot save would lose every change, and say so only on exit.
  if (options.stateFile) await assertStateFileWritable(options.stateFile);
  const stats = new RequestStats();
  const core = createPlatformCore({
    seed: saved ?? seed,
    observe: (m, r) => stats.record(m, r),
    ...(options.variants !== undefined ? { variants: options.variants } : {}),
  });
  if (saved && seed) core.seed = seed;
  // A seed file may itself be a state snapshot (`GET /_sim/state`): its routing data comes with it.
  const routing: RoutingEngineSim = createRoutingEngineSim(
    routingSeedOf(saved ?? (isSnapshot(seed) ? seed : core.seed)),
  );
  const snapshot = (): StoreSnapshot => ({ ...core.store.snapshot(), routing: routing.state() });
  const rateLimiterFor = (): RateLimiter => new RateLimiter(options.rateLimit ?? core.store.settings.rateLimit);
  let rateLimiter = rateLimiterFor();

  const target: ControlTarget = {
    core,
    stats,
    faults: defaultFaults(options.faultRate ?? 0),
    async reset(source?: Seed | StoreSnapshot) {
      core.reset(source);
      stats.reset();
      routing.clearStats();
      routing.reset(routingSeedOf(isSnapshot(source) ? source : core.seed));
      rateLimiter = rateLimiterFor();
    },
    rateLimit: () => rateLimiter.perSecond,
    snapshot,
    routingStats: () => routing.stats(),
  };
  const control = createControlHandler(target);
  const persister = options.stateFile
    ? new StatePersister(options.stateFile, core.store, snapshot, (error) =>
        // An expected failure (a full disk, a folder gone): its message, not a stack.
        logger.error({ reason: (error as Error).message }, 'cannot write simulator state; the next change tries again'),
      )
    : undefined;
  const baseLatency = options.latencyMs ?? 0;

  const server = createServer((req, res) => {
    void serve(req, res).catch((error: unknown) => {
      logger.error({ err: error }, 'simulator request failed');
      if (!res.headersSent) sendJson(res, 500, { error: { status: 500, code: 'internal', message: String(error) } });
      else res.destroy();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrival = performance.now();
    const simReq: SimRequest = {
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', 'http://simulator'),
      headers: req.headers,
      body: await readBody(req),
      remoteAddress: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''),
    };
    if (await control.handle(simReq, res)) {
      persister?.changed();
      return;
    }
    stats.arrived();
    const deadline = arrival + baseLatency + target.faults.latencyMs;
    const api = simReq.url.pathname.startsWith('/api/') ? 'platform' : 'routingEngine';
    const retryAfterS = rateLimiter.admit(api);
    if (retryAfterS !== undefined) {
      stats.recordRateLimited(api);
      await sleep(Math.ceil(deadline - performance.now()));
      sendRateLimited(res, api, rateLimiter.perSecond ?? 0, retryAfterS);
      return;
    }
    const fault = drawFault(target.faults);
    if (fault.kind !== 'none') {
      stats.recordFault(fault.kind === 'reset' ? 'reset' : String(fault.status));
      await sleep(Math.ceil(deadline - performance.now()));
      sendFault(res, fault);
      return;
    }
    const malformed = simReq.url.pathname.startsWith('/api/')
      ? drawMalformed(target.faults.malformed, target.faults.malformedKinds)
      : undefined;
    if (malformed) {
      stats.recordFault(`malformed-${malformed}`);
      spoilResponse(res, malformed);
    }
    if (deadline > arrival) answerNoSoonerThan(res, deadline);
    const handled = (await core.api.handle(simReq, res)) || (await routing.handle(simReq, res));
    if (!handled) {
      stats.record(simReq.method, 'unmatched');
      sendJson(res, 404, {
        error: { status: 404, code: 'not_found', message: `no endpoint ${simReq.method} ${simReq.url.pathname}` },
      });
    } else if (!simReq.url.pathname.startsWith('/api/')) {
      stats.record(simReq.method, 'routing-engine');
    }
    persister?.changed();
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    core,
    routingEngine: true,
    get rateLimit() {
      return rateLimiter.perSecond;
    },
    flush: async () => persister?.flush(),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await persister?.flush();
    },
  };
}
