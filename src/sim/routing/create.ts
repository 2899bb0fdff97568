import type { ServerResponse } from 'node:http';
import type { SimHandler, SimRequest } from '../http.js';
import { defaultRoutingSeed } from './default-seed.js';
import { SimEngine } from './engine.js';
import { dispatch, notFound, parseRoutePath, sendError } from './handler.js';
import { GENERIC_500, SimHttpError, type RoutingSeed, type SimCredentials } from './types.js';

/** One request as the routing simulator saw it (for tests: which method, path and query went out). */
export interface RoutingSimRequestLog {
  method: string;
  path: string;
  search: string;
  status: number;
}

/** The routing engine simulator, mountable on the platform simulator's server. */
export interface RoutingEngineSim extends SimHandler {
  /** Replaces all data with `seed` (default: the documented default data set). */
  reset(seed?: RoutingSeed): void;
  /** The current data, as a seed that `reset` accepts. */
  state(): RoutingSeed;
  /** Requests answered, by `METHOD kind` (kind: list, item, bulk, collection). */
  stats(): Record<string, number>;
  /** The last requests (at most 10,000), oldest first. */
  requests(): RoutingSimRequestLog[];
  /** Clears stats and the request log. */
  clearStats(): void;
}

const LOG_LIMIT = 10_000;

/**
 * Builds the routing engine of Document 3. It answers `/<service>/<version>/<table>[/…]`,
 * and every other path outside `/api/…` and `/_sim/…` with its own 404 body (Doc3 §7); it
 * returns false for those two.
 */
export function createRoutingEngineSim(seed?: RoutingSeed): RoutingEngineSim {
  let engine = new SimEngine(seed ?? defaultRoutingSeed());
  let counts: Record<string, number> = {};
  let log: RoutingSimRequestLog[] = [];

  const record = (req: SimRequest, kind: string, status: number): void => {
    const key = `${req.method.toUpperCase()} ${kind}`;
    counts[key] = (counts[key] ?? 0) + 1;
    log.push({ method: req.method.toUpperCase(), path: req.url.pathname, search: req.url.search, status });
    if (log.length > LOG_LIMIT * 2) log = log.slice(-LOG_LIMIT);
  };

  return {
    handle(req: SimRequest, res: ServerResponse): boolean {
      const path = parseRoutePath(req.url.pathname);
      if (!path) return false;
      const kind =
        path === 'unknown'
          ? 'unknown'
          : path.item === undefined
            ? 'collection'
            : path.item === '_bulk'
              ? 'bulk'
              : 'item';
      try {
        if (!authorized(req.headers.authorization, engine.credentials))
          throw new SimHttpError(
            401,
            'The server could not verify that you are authorized to access the URL requested.',
          );
        if (path === 'unknown') throw notFound(req);
        dispatch(engine, path, req, res);
      } catch (error) {
        sendError(res, error instanceof SimHttpError ? error : new SimHttpError(500, GENERIC_500));
      }
      record(req, kind, res.statusCode);
      return true;
    },
    reset(next?: RoutingSeed): void {
      engine = new SimEngine(next ?? defaultRoutingSeed());
    },
    state: () => engine.snapshot(),
    stats: () => ({ ...counts }),
    requests: () => log.slice(-LOG_LIMIT),
    clearStats(): void {
      counts = {};
      log = [];
    },
  };
}

/** Doc3 §5: HTTP Basic or Bearer on every request. */
function authorized(header: string | undefined, credentials: SimCredentials): boolean {
  if (!header) return false;
  const [scheme, value = ''] = header.split(' ', 2) as [string, string | undefined];
  if (scheme.toLowerCase() === 'bearer') return (credentials.tokens ?? []).includes(value.trim());
  if (scheme.toLowerCase() !== 'basic') return false;
  const decoded = Buffer.from(value.trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  return (credentials.basic ?? []).some((c) => c.username === user && c.password === password);
}
