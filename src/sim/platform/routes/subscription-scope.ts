/**
 * What Document 2 route modules share: the subscription of `T` after the hierarchy checks,
 * integer path parameters, and body readers the core's validate.ts does not have.
 */
import { badRequest, notFound } from '../errors.js';
import type { RequestContext } from '../router.js';
import type { GroupRow, SubscriptionRow, TenantRow } from '../store/types.js';
import { visibleOwned } from './owned.js';

export interface SubscriptionScope {
  tenant: TenantRow;
  sub: SubscriptionRow;
  group: GroupRow | undefined;
}

/**
 * The subscription `:subscription_id` of tenant `:uuid`: 404 when the tenant or the
 * subscription is absent (or belongs to another tenant), 403 when out of the caller's
 * hierarchy, 400 when the id is not an integer.
 */
export function visibleSubscription(ctx: RequestContext): SubscriptionScope {
  const tenant = visibleOwned(ctx, 'tenant');
  const id = intParam(ctx, 'subscription_id');
  const sub = ctx.store.subscriptions.get(id);
  if (!sub || sub.tenantUuid !== tenant.uuid) throw notFound(`subscription ${id} of tenant ${tenant.uuid} not found`);
  return { tenant, sub, group: ctx.store.groups.get(tenant.groupUuid) };
}

/** An integer path parameter (400 otherwise). */
export function intParam(ctx: RequestContext, name: string): number {
  const raw = ctx.params[name] ?? '';
  if (!/^-?\d+$/.test(raw)) throw badRequest('bad_path', `${name} must be an integer, not ${raw}`);
  return Number(raw);
}

/** An integer body field; numeric strings are accepted. */
export function optionalInt(body: Record<string, unknown>, key: string, min = 0): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw badRequest('bad_field', `${key} must be an integer`);
  if (n < min) throw badRequest('bad_field', `${key} must be at least ${min}`);
  return n;
}

export function requiredInt(body: Record<string, unknown>, key: string, min = 0): number {
  const n = optionalInt(body, key, min);
  if (n === undefined) throw badRequest('missing_field', `${key} is required (an integer)`);
  return n;
}

/** A boolean field given as a boolean or as "true"/"false" (the spec types some as strings). */
export function optionalBool(body: Record<string, unknown>, key: string): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw badRequest('bad_field', `${key} must be a boolean (true/false)`);
}

export function optionalStringArray(body: Record<string, unknown>, key: string): string[] | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw badRequest('bad_field', `${key} must be an array of strings`);
  return v as string[];
}

/** A JSON object query parameter (`filters={"countryCode":"32"}`) or bracket form (`filters[countryCode]=32`). */
export function objectQuery(query: URLSearchParams, name: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const raw = query.get(name);
  if (raw !== null && raw !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw badRequest('bad_query', `${name} must be a JSON object, e.g. ${name}={"countryCode":"32"}`);
    }
    if (Array.isArray(parsed)) {
      for (const c of parsed as { field?: unknown; key?: unknown; value?: unknown }[]) {
        const field = c?.field ?? c?.key;
        if (typeof field !== 'string')
          throw badRequest('bad_query', `each ${name} condition needs a field and a value`);
        out[field] = c.value;
      }
    } else if (typeof parsed === 'object' && parsed !== null) Object.assign(out, parsed);
    else throw badRequest('bad_query', `${name} must be a JSON object or an array of {field, value}`);
  }
  for (const [k, v] of query) {
    const m = /^(\w+)\[(\w+)\]$/.exec(k);
    if (m && m[1] === name && m[2]) out[m[2]] = v === 'null' ? null : v;
  }
  return out;
}
