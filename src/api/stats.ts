import type { ClientStats, RouteStats } from './types.js';
import { compareKeys } from '../core/canonical-json.js';

/**
 * Route pattern of a path for accounting: the instance segment after `draas/` becomes
 * `{instance}`, and segments that look like identifiers (UUIDs, integers, E.164 numbers,
 * e-mail addresses, long hex) become `{id}`. `/api/v01/draas/demo/tenants/4b7c…/subscriptions/3`
 * → `/api/v01/draas/{instance}/tenants/{id}/subscriptions/{id}`. Computed for every request
 * (300,000 in a national export): each segment is scanned once, and decoded only when it
 * holds an escape.
 */
export function routePattern(path: string): string {
  const query = path.indexOf('?');
  const text = query < 0 ? path : path.slice(0, query);
  let out = '';
  let previous = '';
  let beforePrevious = '';
  for (let start = 0, index = 0; ; index++) {
    const slash = text.indexOf('/', start);
    const segment = slash < 0 ? text.slice(start) : text.slice(start, slash);
    // The segments before are compared as written out (an instance is `{instance}` by then).
    const shown =
      index > 1 && previous === 'draas' && beforePrevious === 'v01'
        ? '{instance}'
        : namesOneObject(segment.includes('%') ? safeDecode(segment) : segment)
          ? '{id}'
          : segment;
    out = index === 0 ? shown : `${out}/${shown}`;
    beforePrevious = previous;
    previous = shown;
    if (slash < 0) return out;
    start = slash + 1;
  }
}

/** An e-mail address, an integer, an E.164 number, hex of 16 digits or more, a UUID (any case). */
function namesOneObject(segment: string): boolean {
  const length = segment.length;
  if (length === 0) return false;
  if (segment.includes('@')) return true;
  let digits = true;
  let hex = true;
  for (let i = segment.charCodeAt(0) === PLUS && length > 1 ? 1 : 0; i < length; i++) {
    const c = segment.charCodeAt(i);
    const digit = c >= 48 && c <= 57;
    digits &&= digit;
    hex &&= digit || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
    if (!hex) break;
  }
  if (segment.charCodeAt(0) === PLUS) return digits;
  return digits || (hex && length >= 16) || isUuid(segment);
}

const PLUS = 0x2b;

function isUuid(segment: string): boolean {
  if (segment.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = segment.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return false;
    } else if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** One finished attempt, as the accounting sees it. */
export interface AttemptRecord {
  method: string;
  route: string;
  ok: boolean;
  retry: boolean;
  /** The answer's status; undefined when none came. */
  status?: number | undefined;
  bytesIn: number;
  bytesOut: number;
  timeMs: number;
}

/** Request accounting by method and route pattern (`client.stats()`, `--stats`). */
export class RequestStats {
  private readonly routes = new Map<string, RouteStats>();
  private reauthentications = 0;

  record(attempt: AttemptRecord): void {
    const key = `${attempt.method} ${attempt.route}`;
    let row = this.routes.get(key);
    if (!row) {
      row = {
        method: attempt.method,
        route: attempt.route,
        requests: 0,
        retries: 0,
        errors: 0,
        bytesIn: 0,
        bytesOut: 0,
        timeMs: 0,
        statuses: {},
      };
      this.routes.set(key, row);
    }
    const status = statusClass(attempt.status);
    row.statuses[status] = (row.statuses[status] ?? 0) + 1;
    row.requests += 1;
    if (attempt.retry) row.retries += 1;
    if (!attempt.ok) row.errors += 1;
    row.bytesIn += attempt.bytesIn;
    row.bytesOut += attempt.bytesOut;
    row.timeMs += attempt.timeMs;
  }

  recordReauthentication(): void {
    this.reauthentications += 1;
  }

  snapshot(): Omit<ClientStats, 'tokenRenewals'> {
    const routes = [...this.routes.values()].map((row) => ({
      ...row,
      timeMs: Math.round(row.timeMs),
      statuses: { ...row.statuses },
    }));
    // By UTF-16 code units: localeCompare's first call loads ICU's collation, ~15 ms of every plan.
    routes.sort((a, b) => compareKeys(a.route, b.route) || compareKeys(a.method, b.method));
    const sum = (pick: (row: RouteStats) => number): number => routes.reduce((total, row) => total + pick(row), 0);
    return {
      requests: sum((r) => r.requests),
      retries: sum((r) => r.retries),
      errors: sum((r) => r.errors),
      reauthentications: this.reauthentications,
      bytesIn: sum((r) => r.bytesIn),
      bytesOut: sum((r) => r.bytesOut),
      timeMs: sum((r) => r.timeMs),
      routes,
    };
  }
}

/** `2xx` … `5xx` for a status, `none` for no answer. */
function statusClass(status: number | undefined): string {
  return status === undefined || status <= 0 ? 'none' : `${Math.floor(status / 100)}xx`;
}

/** `--stats` output: one line per method and route, then the totals. */
export function formatStats(stats: ClientStats): string {
  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
  const lines = stats.routes.map(
    (r) =>
      `${r.method.padEnd(6)} ${r.route}  requests=${r.requests} retries=${r.retries} errors=${r.errors} in=${kb(r.bytesIn)} out=${kb(r.bytesOut)} time=${r.timeMs} ms`,
  );
  lines.push(
    `total  requests=${stats.requests} retries=${stats.retries} errors=${stats.errors} reauthentications=${stats.reauthentications} ` +
      `tokenRenewals=${stats.tokenRenewals} in=${kb(stats.bytesIn)} out=${kb(stats.bytesOut)} time=${stats.timeMs} ms`,
  );
  return lines.join('\n');
}
