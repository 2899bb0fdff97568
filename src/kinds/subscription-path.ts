import { pathId } from './fields.js';
import type { IdChain, KindContext } from './types.js';

/** `T` of Doc 2: `P/tenants/{uuid}/subscriptions/{subscription_id}`. */
export function subscriptionPath(ctx: Pick<KindContext, 'P'>, ids: IdChain): string {
  return `${ctx.P}/tenants/${pathId(ids, 'Tenant')}/subscriptions/${pathId(ids, 'Subscription')}`;
}

/**
 * Where a subscription's entitlement types are listed (Doc 2 §4.1), or undefined while the
 * subscription is only planned (its id is a pending placeholder): callers then use the
 * deprecated `P/public/entitlement_types`.
 */
export function entitlementTypesList(P: string, ids: IdChain): { key: string; path: string; role: string } | undefined {
  const subscription = ids['Subscription'];
  if (subscription === undefined || subscription.startsWith('{id:')) return undefined;
  return {
    key: `${ids['Tenant'] ?? ''}/${subscription}`,
    path: `${subscriptionPath({ P }, ids)}/entitlement_types`,
    role: 'tenants.instance.subscriptions.instance.entitlement_types.read',
  };
}
