/**
 * Reference data (Document 1 §4.5), regions, and rate-plan prices (§2.8, §4.2, §4.4).
 * Public reference data needs a valid token but no api_rule ("any authenticated user");
 * their role names (`public.suspension_profiles.list`, `public.country_iso_codes.list`) are
 * ours. Rate plans are `uc_alpha` and `trunking` (Document 2 §4.1); their prices are
 * derived from the seeded countries (one destination per country).
 */
import { formatPriceDate } from '../clock.js';
import { badRequest, notFound } from '../errors.js';
import { paginate, pageBody, readListQuery } from '../pagination.js';
import { ok, P, T, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import type { Region } from '../store/types.js';
import { assertVisible } from '../visibility.js';
import { administeredGroup, visibleGroup } from './groups.js';
import { visibleOwned } from './owned.js';

export const RATE_PLANS = ['uc_alpha', 'trunking'] as const;

export const registerReferenceRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: `${P}/public/suspension_profiles`,
    role: 'public.suspension_profiles.list',
    access: 'authenticated',
    handler: (ctx) => {
      const q = readListQuery(ctx.query, {
        searchable: ['id', 'name'],
        defaultSort: 'id',
        sizeParam: 'size',
        defaultPageSize: 25,
      });
      const rows = ctx.store.suspensionProfiles.sorted({ kind: 'all' }, { field: 'id', dir: 'asc' });
      const { next: _token, ...body } = pageBody(
        paginate(rows, q, 'page'),
        'suspensionProfiles',
        (s) => ({ ...s }),
        ctx.forms,
      );
      return ok(body);
    },
  });
  router.add({
    method: 'GET',
    path: `${P}/public/country_iso_codes`,
    role: 'public.country_iso_codes.list',
    access: 'authenticated',
    handler: (ctx) =>
      ok({
        countryIsoCodes: ctx.store.countries
          .sorted({ kind: 'all' }, { field: 'isoCode', dir: 'asc' })
          .map((c) => ({ ...c })),
      }),
  });
  router.add({
    method: 'GET',
    path: `${T}/country_codes`,
    role: 'tenants.instance.subscriptions.instance.country_codes.read',
    handler: (ctx) => {
      const tenant = visibleOwned(ctx, 'tenant');
      const sub = ctx.store.subscriptions.get(ctx.params['subscription_id'] as string);
      if (!sub || sub.tenantUuid !== tenant.uuid)
        throw notFound(`subscription ${ctx.params['subscription_id']} of tenant ${tenant.uuid} not found`);
      return ok({ countryCodes: ctx.store.countryCodes.rows().map((c) => ({ ...c })) });
    },
  });
  router.add({
    method: 'GET',
    path: `${P}/groups/:uuid/regions`,
    role: 'groups.instance.regions.read',
    handler: (ctx) => regions(visibleGroup(ctx).regions),
  });
  router.add({
    method: 'GET',
    path: `${P}/distributors/:uuid/regions`,
    role: 'distributors.instance.regions.read',
    handler: (ctx) => {
      const uuid = ctx.params['uuid'] as string;
      const d = ctx.store.distributors.get(uuid);
      if (!d) throw notFound(`distributor ${uuid} not found`);
      assertVisible(ctx, { type: 'distributor', row: d });
      return regions(d.regions);
    },
  });
  router.add({
    method: 'GET',
    path: `${P}/resellers/:uuid/regions`,
    role: 'resellers.instance.regions.read',
    handler: (ctx) => regions(visibleOwned(ctx, 'reseller').regions),
  });
  router.add({
    method: 'GET',
    path: `${P}/tenants/:uuid/regions`,
    role: 'tenants.instance.regions.read',
    handler: (ctx) => regions(visibleOwned(ctx, 'tenant').regions),
  });
  router.add({
    method: 'GET',
    path: `${P}/groups/:uuid/rate_plans/:rate_plan`,
    role: 'groups.instance.rate_plans.instance.read',
    handler: (ctx) => prices(ctx, administeredGroup(ctx, "reading a group's rate plan").uuid),
  });
  router.add({
    method: 'GET',
    path: `${P}/tenants/:uuid/rate_plans/:rate_plan`,
    role: 'tenants.instance.rate_plans.instance.read',
    handler: (ctx) => prices(ctx, visibleOwned(ctx, 'tenant').uuid),
  });
};

function regions(list: Region[]) {
  return ok({ regions: list.map((r) => ({ ...r })) });
}

function prices(ctx: RequestContext, _owner: string) {
  const plan = ctx.params['rate_plan'] as string;
  if (!(RATE_PLANS as readonly string[]).includes(plan))
    throw badRequest('unknown_rate_plan', `rate plan must be one of ${RATE_PLANS.join(', ')}`);
  return ok({ prices: priceList(ctx.store, plan) });
}

/** Deterministic prices per seeded country: trunking is cheaper than uc_alpha. */
export function priceList(store: PlatformStore, plan: string): Record<string, unknown>[] {
  const factor = plan === 'trunking' ? 0.8 : 1;
  const activeSince = formatPriceDate(Date.UTC(2026, 0, 1));
  return store.countryCodes.rows().map((c, i) => ({
    destination: c.name,
    destinationId: c.id,
    activeSince,
    national: { setup: 0, duration: round(0.02 * factor * (1 + i / 10)) },
    international: { setup: round(0.05 * factor), duration: round(0.1 * factor * (1 + i / 10)) },
  }));
}

function round(n: number): number {
  return Math.round(n * 10000) / 10000;
}
