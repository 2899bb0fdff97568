import { pathId } from './fields.js';
import type { IdChain, KindContext } from './types.js';

/** `T` of Doc 2: `P/tenants/{uuid}/subscriptions/{subscription_id}`. */
export function subscriptionPath(ctx: Pick<KindContext, 'P'>, ids: IdChain): string {
  return `${ctx.P}/tenants/${pathId(ids, 'Tenant')}/subscriptions/${pathId(ids, 'Subscription')}`;
}
