/**
 * The control surface under `/_sim/` (docs/simulator.md): not part of the platform's API, no
 * authentication, never subject to faults or latency.
 *
 * | endpoint | effect |
 * |---|---|
 * | `POST /_sim/reset` | reload the default seed, or the seed (JSON or YAML) / state snapshot in the body |
 * | `GET /_sim/state` | the whole store as JSON (the `--state` file format) |
 * | `GET /_sim/outbox`, `DELETE /_sim/outbox` | mails sent (`?to=` filters by recipient) / clear them |
 * | `GET /_sim/events` | reseller/tenant/subscription events (`?since=<id>` for newer ones) |
 * | `GET`/`POST /_sim/clock` | read / advance the sim clock (`{"advanceSeconds": N}`) |
 * | `GET`/`POST /_sim/faults` | read / set injected faults |
 * | `GET`/`DELETE /_sim/stats` | request counters by method and route, 429s of the rate limit / zero them |
 */
import type { ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { sendJson, type SimHandler, type SimRequest } from '../http.js';
import type { PlatformCore } from '../platform/core.js';
import type { Seed } from '../platform/seed/types.js';
import type { StoreSnapshot } from '../platform/store/store.js';
import { parseFaults, type FaultConfig } from './faults.js';
import type { RequestStats } from './stats.js';

export interface ControlTarget {
  core: PlatformCore;
  stats: RequestStats;
  faults: FaultConfig;
  /** Reloads every part (platform and routing engine). */
  reset(source?: Seed | StoreSnapshot): Promise<void>;
  /** Everything, routing engine included (the `--state` format). */
  snapshot(): StoreSnapshot;
  routingStats(): Record<string, number>;
  /** The rate limit in force (requests per second per API), undefined when none. */
  rateLimit(): number | undefined;
}

type Reply = { status: number; body: unknown };

export function createControlHandler(target: ControlTarget): SimHandler {
  return {
    async handle(req: SimRequest, res: ServerResponse): Promise<boolean> {
      if (!req.url.pathname.startsWith('/_sim/')) return false;
      let reply: Reply;
      try {
        reply = await route(target, req);
      } catch (error) {
        reply = fail(400, 'bad_request', (error as Error).message);
      }
      sendJson(res, reply.status, reply.body);
      return true;
    },
  };
}

function fail(status: number, code: string, message: string): Reply {
  return { status, body: { error: { status, code, message } } };
}

async function route(target: ControlTarget, req: SimRequest): Promise<Reply> {
  const { store } = target.core;
  const key = `${req.method} ${req.url.pathname.replace(/\/+$/, '')}`;
  switch (key) {
    case 'POST /_sim/reset': {
      const body = readBody(req);
      if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
        return fail(400, 'bad_seed', 'the body must be a seed mapping');
      await target.reset(body as Seed | StoreSnapshot | undefined);
      return { status: 200, body: { reset: true, instance: store.instance } };
    }
    case 'GET /_sim/state':
      return { status: 200, body: target.snapshot() };
    case 'GET /_sim/outbox': {
      const to = req.url.searchParams.get('to')?.toLowerCase();
      return { status: 200, body: { mails: store.mails.rows().filter((m) => !to || m.to.toLowerCase() === to) } };
    }
    case 'DELETE /_sim/outbox':
      for (const m of store.mails.rows()) store.mails.delete(m.id);
      return { status: 200, body: { mails: [] } };
    case 'GET /_sim/events': {
      const since = Number(req.url.searchParams.get('since') ?? 0);
      return { status: 200, body: { events: store.events.rows().filter((e) => e.id > since) } };
    }
    case 'GET /_sim/clock':
      return { status: 200, body: clockView(target) };
    case 'POST /_sim/clock': {
      const body = readBody(req) as { advanceSeconds?: unknown } | undefined;
      const seconds = body?.advanceSeconds;
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
        return fail(400, 'bad_clock', 'advanceSeconds must be a non-negative number');
      store.clock.advance(seconds);
      store.version++;
      return { status: 200, body: clockView(target) };
    }
    case 'GET /_sim/faults':
      return { status: 200, body: target.faults };
    case 'POST /_sim/faults': {
      const parsed = parseFaults(readBody(req) ?? {});
      if (typeof parsed === 'string') return fail(400, 'bad_faults', parsed);
      target.faults = parsed;
      return { status: 200, body: parsed };
    }
    case 'GET /_sim/stats':
      return {
        status: 200,
        body: { ...target.stats.toJSON(), rateLimit: target.rateLimit() ?? null, routingEngine: target.routingStats() },
      };
    case 'DELETE /_sim/stats':
      target.stats.reset();
      return { status: 200, body: target.stats.toJSON() };
    default:
      return fail(404, 'not_found', `no control endpoint ${key}`);
  }
}

function clockView(target: ControlTarget): Record<string, unknown> {
  const clock = target.core.store.clock;
  return { now: clock.isoNow(), epochMs: clock.now(), offsetSeconds: clock.offset / 1000 };
}

/** JSON, or YAML when the content type says so (seeds are often YAML files). */
function readBody(req: SimRequest): unknown {
  if (req.body.length === 0) return undefined;
  const text = req.body.toString('utf8');
  const type = String(req.headers['content-type'] ?? '');
  return /yaml/i.test(type) ? parseYaml(text) : JSON.parse(text);
}
