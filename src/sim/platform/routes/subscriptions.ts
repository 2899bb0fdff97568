/**
 * Subscriptions (Document 2 §2.1, §4.1): list, read (`detailed`), create, update (with the
 * required `suspensionProfileId`), delete, rate plans, regions and entitlement types.
 *
 * Design decisions: subscription ids come from one platform-wide sequence (so they are
 * unique per tenant too); creating and deleting a subscription, and changing its
 * `billingId` or its suspension, are billable (403 for tenant administrators); a delete
 * of a subscription whose `isDeletable` is false is 400 `subscription_in_use` naming the
 * `assignedEntities`; `uc` defaults to the group's first enabled platform and must be one
 * the group enables.
 */
import { recordEvent } from '../events.js';
import { badRequest, forbidden } from '../errors.js';
import { listScope, pageBody, paginate, readListQuery } from '../pagination.js';
import { ok, P, T, type ApiResponse, type RequestContext, type RouteModule } from '../router.js';
import { billingKey } from '../store/store.js';
import type { EntitlementTypeRow, SubscriptionRow } from '../store/types.js';
import { optionalString, queryFlag, requiredString } from '../validate.js';
import { actorOf, assertMayBill } from '../visibility.js';
import { priceList, RATE_PLANS } from './reference.js';
import { intParam, visibleSubscription } from './subscription-scope.js';
import { visibleOwned } from './owned.js';
import {
  assignedEntities,
  subscriptionDetailView,
  subscriptionRegions,
  subscriptionView,
} from './subscription-views.js';

const SEARCHABLE = ['id', 'name', 'billingId', 'uc'] as const;
const UCS = ['uc_alpha', 'uc_beta', 'uc_gamma'];
const SUBS = `${P}/tenants/:uuid/subscriptions`;

export const registerSubscriptionRoutes: RouteModule = (router) => {
  router.add({ method: 'GET', path: SUBS, role: 'tenants.instance.subscriptions.list', handler: listSubscriptions });
  router.add({
    method: 'GET',
    path: T,
    role: 'tenants.instance.subscriptions.read',
    handler: (ctx) =>
      ok(subscriptionDetailView(ctx.store, visibleSubscription(ctx).sub, queryFlag(ctx.query, 'detailed'))),
  });
  router.add({
    method: 'POST',
    path: SUBS,
    role: 'tenants.instance.subscriptions.create',
    billable: true,
    handler: createSubscription,
  });
  router.add({
    method: 'PUT',
    path: T,
    role: 'tenants.instance.subscriptions.instance.update',
    handler: updateSubscription,
  });
  router.add({
    method: 'DELETE',
    path: T,
    role: 'tenants.instance.subscriptions.instance.update',
    billable: true,
    handler: deleteSubscription,
  });
  router.add({
    method: 'GET',
    path: `${T}/rate_plans`,
    role: 'tenants.instance.subscriptions.instance.rate_plans.list',
    handler: (ctx) => {
      visibleSubscription(ctx);
      return ok({
        currency: 'EUR',
        ratePlans: [
          {
            id: 'uc_alpha',
            name: 'uc_alpha calls',
            description: 'Calls from the first unified-communications platform',
          },
          { id: 'trunking', name: 'SIP trunk calls', description: 'Calls over SIP trunks' },
        ],
      });
    },
  });
  router.add({
    method: 'GET',
    path: `${T}/rate_plans/:rate_plan`,
    role: 'tenants.instance.subscriptions.instance.rate_plans.instance.read',
    handler: (ctx) => {
      visibleSubscription(ctx);
      const plan = ctx.params['rate_plan'] as string;
      if (!(RATE_PLANS as readonly string[]).includes(plan))
        throw badRequest('unknown_rate_plan', `rate plan must be one of ${RATE_PLANS.join(', ')}`);
      return ok({ prices: priceList(ctx.store, plan) });
    },
  });
  router.add({
    method: 'GET',
    path: `${T}/regions`,
    role: 'tenants.instance.subscriptions.instance.regions.read',
    handler: (ctx) => {
      const { sub, group } = visibleSubscription(ctx);
      return ok({ regions: subscriptionRegions(ctx.store, sub, group?.regions ?? []) });
    },
  });
  router.add({
    method: 'GET',
    path: `${T}/entitlement_types`,
    role: 'tenants.instance.subscriptions.instance.entitlement_types.read',
    handler: (ctx) => {
      visibleSubscription(ctx);
      return entitlementTypes(ctx);
    },
  });
  router.add({
    method: 'GET',
    path: `${P}/public/entitlement_types`,
    role: 'public.entitlement_types.list',
    access: 'authenticated',
    handler: entitlementTypes,
  });
};

function listSubscriptions(ctx: RequestContext): ApiResponse {
  const tenant = visibleOwned(ctx, 'tenant');
  const q = readListQuery(ctx.query, { searchable: SEARCHABLE, defaultSort: 'id' });
  const page = listScope(ctx.store.subscriptions, { kind: 'parent', key: tenant.uuid }, q, 'page', SEARCHABLE);
  const { next: _none, ...body } = pageBody(page, 'subscriptions', (s) => subscriptionView(ctx.store, s), ctx.forms);
  return ok(body);
}

function createSubscription(ctx: RequestContext): ApiResponse {
  const { store, body } = ctx;
  const tenant = visibleOwned(ctx, 'tenant');
  assertMayBill(ctx, 'creating a subscription');
  const name = requiredString(body, 'name');
  const billingId = requiredString(body, 'billingId');
  const enabled = store.groups.get(tenant.groupUuid)?.enabledUcs ?? [];
  const uc = optionalString(body, 'uc') ?? enabled[0] ?? 'uc_alpha';
  if (!UCS.includes(uc)) throw badRequest('bad_field', `uc must be one of ${UCS.join(', ')}`);
  if (enabled.length > 0 && !enabled.includes(uc))
    throw badRequest('uc_not_enabled', `${uc} is not enabled for this group (enabled: ${enabled.join(', ')})`);
  assertBillingFree(ctx, tenant.groupUuid, billingId);
  const sub: SubscriptionRow = {
    id: store.nextId('subscriptions'),
    tenantUuid: tenant.uuid,
    ancestors: [tenant.uuid, ...tenant.ancestors],
    name,
    billingId,
    uc,
    licenses: { ucAlphaUsers: 0, sipTrunkChannels: 0 },
    suspensionProfileId: null,
    trunkGroups: [],
    createdOn: store.clock.isoNow(),
  };
  store.subscriptions.insert(sub);
  recordEvent(store, 'subscription', 'create', String(sub.id), subscriptionView(store, sub));
  return ok({ id: sub.id });
}

function assertBillingFree(ctx: RequestContext, groupUuid: string, billingId: string, self?: number): void {
  const key = billingKey(groupUuid, billingId) as string;
  if (ctx.store.subscriptions.findBy('billing', key).some((s) => s.id !== self)) {
    throw badRequest('duplicate_billing_id', `billingId ${billingId} is already used by a subscription of this group`);
  }
}

function updateSubscription(ctx: RequestContext): ApiResponse {
  const { store, body } = ctx;
  const { tenant, sub } = visibleSubscription(ctx);
  if (!('suspensionProfileId' in body)) {
    throw badRequest(
      'missing_field',
      'suspensionProfileId is required (the suspension profile id, or null for no suspension)',
    );
  }
  const raw = body['suspensionProfileId'];
  if (raw !== null && (typeof raw !== 'number' || !Number.isInteger(raw))) {
    throw badRequest('bad_field', 'suspensionProfileId must be an integer suspension profile id or null');
  }
  if (raw !== null && !store.suspensionProfiles.get(raw))
    throw badRequest('unknown_suspension_profile', `suspension profile ${raw} not found`);
  const name = optionalString(body, 'name');
  const billingId = optionalString(body, 'billingId');
  const billable = (billingId !== undefined && billingId !== sub.billingId) || raw !== sub.suspensionProfileId;
  if (billable && actorOf(ctx.user).level === 'tenant') {
    throw forbidden('billingId and the suspension are billable: tenant administrators may not change them');
  }
  if (billingId !== undefined && billingId !== sub.billingId)
    assertBillingFree(ctx, tenant.groupUuid, billingId, sub.id);
  store.subscriptions.update(sub.id, {
    ...(name !== undefined ? { name } : {}),
    ...(billingId !== undefined ? { billingId } : {}),
    suspensionProfileId: raw,
  });
  recordEvent(store, 'subscription', 'update', String(sub.id), subscriptionView(store, sub));
  return ok({ id: sub.id });
}

function deleteSubscription(ctx: RequestContext): ApiResponse {
  const { store } = ctx;
  const tenant = visibleOwned(ctx, 'tenant');
  const id = intParam(ctx, 'subscription_id');
  const sub = store.subscriptions.get(id);
  if (!sub || sub.tenantUuid !== tenant.uuid) return ok({ id });
  assertMayBill(ctx, 'deleting a subscription');
  const blocking = assignedEntities(store, sub);
  if (blocking.length > 0) {
    throw badRequest(
      'subscription_in_use',
      `subscription ${id} is not deletable: remove its ${blocking.join(', ')} first`,
      { assignedEntities: blocking },
    );
  }
  const before = subscriptionView(store, sub);
  for (const hook of store.subscriptionDeleteHooks) hook(sub.id);
  for (const e of store.entitlements.children(String(sub.id))) store.entitlements.delete(e.id);
  store.subscriptions.delete(sub.id);
  recordEvent(store, 'subscription', 'delete', String(id), before);
  return ok({ id });
}

/**
 * Entitlement types (Document 2 §2.4, §4.1). The answer carries `pagination` and `sorting`,
 * arrays whose content is not shown: the simulator pages the list in page style (Document
 * 1 §1.8: `page`, `page_size`, default 10) and describes the page in one `pagination` entry,
 * `[{results, pages, page, page_size}]`, and the order in one `sorting` entry,
 * `[{field: "id", dir: "asc"}]`.
 */
function entitlementTypes(ctx: RequestContext): ApiResponse {
  const q = readListQuery(ctx.query, { searchable: ['id', 'name'], defaultSort: 'id' });
  const rows = ctx.store.entitlementTypes.sorted({ kind: 'all' }, { field: 'id', dir: 'asc' });
  const page = paginate(rows, { ...q, sort: 'id', dir: 'asc' }, 'page');
  const { results, pages, page: number } = pageBody(page, 'entitlementTypes', () => undefined, ctx.forms);
  return ok({
    entitlementTypes: page.items.map(entitlementTypeView),
    pagination: [{ results, pages, page: number, page_size: q.pageSize }],
    sorting: [{ field: 'id', dir: 'asc' }],
  });
}

/** Document 2 §2.4 (plus `isoCode`, which the simulator keeps for the entitlement view). */
function entitlementTypeView(e: EntitlementTypeRow): Record<string, unknown> {
  return {
    id: e.id,
    name: e.name,
    description: e.description,
    externalReference: e.externalReference,
    createdOn: e.createdOn,
    updatedOn: e.updatedOn,
    countryCode: e.countryCode,
    isoCode: e.isoCode,
    numberType: e.numberType,
    serviceCapabilities: e.serviceCapabilities,
    vanityType: e.vanityType,
  };
}
