/**
 * Number entitlements (Document 2 §2.3, §4.3). One entitlement per entitlement type per
 * subscription (400 on a second). The live entitlement carries its type's name, country
 * code, ISO code and number type, but not `licenseModelId`. `assigned` counts the numbers
 * assigned under it (at least the seeded counter); `reserved` and `disconnected` are
 * counters. All three are served only when at least 1.
 *
 * Design decisions: creating, changing and deleting entitlements are billable (403 for
 * tenant administrators); `addressRequired` is true for geographic types; `regions` are
 * the subscription's regions (§4.1 `T/regions`) of the type's country, by name;
 * `externalReference` is served when set (the §2.3 table omits it, the POST accepts it).
 */
import { badRequest, notFound } from '../errors.js';
import { ok, T, type ApiResponse, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import type { EntitlementRow, SubscriptionRow } from '../store/types.js';
import { optionalString } from '../validate.js';
import { assertMayBill } from '../visibility.js';
import { intParam, optionalInt, requiredInt, visibleSubscription } from './subscription-scope.js';
import { subscriptionRegions } from './subscription-views.js';

const E = `${T}/entitlements`;

export const registerEntitlementRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: E,
    role: 'tenants.instance.subscriptions.instance.entitlements.list',
    handler: (ctx) => {
      const { sub, group } = visibleSubscription(ctx);
      const regions = subscriptionRegions(ctx.store, sub, group?.regions ?? []);
      const rows = ctx.store.entitlements.sorted({ kind: 'parent', key: String(sub.id) }, { field: 'id', dir: 'asc' });
      return ok({
        entitlements: rows.map((e) =>
          entitlementView(
            ctx.store,
            e,
            regions.map((r) => ({ isoCode: r.isoCode, name: r.name })),
          ),
        ),
      });
    },
  });
  router.add({
    method: 'POST',
    path: E,
    role: 'tenants.instance.subscriptions.entitlements.create',
    billable: true,
    handler: createEntitlement,
  });
  router.add({
    method: 'PUT',
    path: `${E}/:id`,
    role: 'tenants.instance.subscriptions.entitlements.instance.update',
    billable: true,
    handler: updateEntitlement,
  });
  router.add({
    method: 'DELETE',
    path: `${E}/:id`,
    role: 'tenants.instance.subscriptions.entitlements.instance.delete',
    billable: true,
    handler: deleteEntitlement,
  });
};

/** Numbers assigned under an entitlement: the seeded counter or the assigned numbers, whichever is higher. */
export function assignedCount(store: PlatformStore, e: EntitlementRow): number {
  const numbers = store.numbers
    .children(String(e.subscriptionId))
    .filter((n) => n.entitlementId === e.id && n.assignedTo).length;
  return Math.max(e.assigned, numbers);
}

function entitlementView(
  store: PlatformStore,
  e: EntitlementRow,
  regions: { isoCode: string; name: string }[],
): Record<string, unknown> {
  const type = store.entitlementTypes.get(e.licenseModelId);
  const view: Record<string, unknown> = {
    id: e.id,
    name: type?.name ?? '',
    countryCode: type?.countryCode ?? '',
    ...(type?.isoCode ? { isoCode: type.isoCode } : {}),
    numberType: type?.numberType ?? '',
    serviceCapabilities: type?.serviceCapabilities ?? '',
    entitlement: e.entitlement,
    vanityType: type?.vanityType ?? null,
    addressRequired: type?.numberType === 'geo',
    regions: regions.filter((r) => r.isoCode === type?.isoCode).map((r) => r.name),
    ...(e.externalReference ? { externalReference: e.externalReference } : {}),
  };
  const assigned = assignedCount(store, e);
  if (assigned > 0) view['assigned'] = assigned;
  if (e.reserved > 0) view['reserved'] = e.reserved;
  if (e.disconnected > 0) view['disconnected'] = e.disconnected;
  return view;
}

function createEntitlement(ctx: RequestContext): ApiResponse {
  const { store, body } = ctx;
  const { sub } = visibleSubscription(ctx);
  assertMayBill(ctx, 'creating an entitlement');
  const typeId = requiredInt(body, 'licenseModelId', 1);
  const type = store.entitlementTypes.get(typeId);
  if (!type)
    throw badRequest(
      'unknown_entitlement_type',
      `licenseModelId ${typeId} is not an entitlement type (see GET …/entitlement_types)`,
    );
  const existing = findByType(store, sub, typeId);
  if (existing)
    throw badRequest(
      'duplicate_entitlement',
      `subscription ${sub.id} already has entitlement ${existing.id} of type ${type.name}: update it instead`,
    );
  const entitlement = optionalInt(body, 'entitlement') ?? 0;
  const externalReference = optionalString(body, 'externalReference');
  const row = store.entitlements.insert({
    id: store.nextId('entitlements'),
    subscriptionId: sub.id,
    licenseModelId: typeId,
    entitlement,
    ...(externalReference ? { externalReference } : {}),
    assigned: 0,
    reserved: 0,
    disconnected: 0,
  });
  return ok({ id: row.id });
}

function findByType(store: PlatformStore, sub: SubscriptionRow, typeId: number): EntitlementRow | undefined {
  return store.entitlements.children(String(sub.id)).find((e) => e.licenseModelId === typeId);
}

function entitlementOf(ctx: RequestContext, sub: SubscriptionRow): { id: number; row: EntitlementRow | undefined } {
  const id = intParam(ctx, 'id');
  const row = ctx.store.entitlements.get(id);
  return { id, row: row && row.subscriptionId === sub.id ? row : undefined };
}

function updateEntitlement(ctx: RequestContext): ApiResponse {
  const { store, body } = ctx;
  const { sub } = visibleSubscription(ctx);
  const { id, row } = entitlementOf(ctx, sub);
  if (!row) throw notFound(`entitlement ${id} of subscription ${sub.id} not found`);
  assertMayBill(ctx, 'changing an entitlement');
  const entitlement = optionalInt(body, 'entitlement');
  const assigned = assignedCount(store, row);
  if (entitlement !== undefined && entitlement < assigned) {
    throw badRequest(
      'below_assigned',
      `entitlement cannot be set to ${entitlement}: ${assigned} numbers are assigned under it`,
      { assigned },
    );
  }
  const externalReference = optionalString(body, 'externalReference');
  store.entitlements.update(id, {
    ...(entitlement !== undefined ? { entitlement } : {}),
    ...(externalReference !== undefined ? { externalReference } : {}),
  });
  return ok({ id });
}

function deleteEntitlement(ctx: RequestContext): ApiResponse {
  const { store } = ctx;
  const { sub } = visibleSubscription(ctx);
  const { id, row } = entitlementOf(ctx, sub);
  if (!row) return ok({ id });
  assertMayBill(ctx, 'deleting an entitlement');
  const assigned = assignedCount(store, row);
  if (assigned > 0)
    throw badRequest(
      'entitlement_in_use',
      `entitlement ${id} cannot be deleted: ${assigned} numbers are assigned under it`,
      { assigned },
    );
  for (const n of store.numbers.children(String(sub.id)).filter((x) => x.entitlementId === id)) {
    const { entitlementId: _drop, ...rest } = n;
    store.numbers.delete(n.id);
    store.numbers.insert(rest);
  }
  store.entitlements.delete(id);
  return ok({ id });
}
