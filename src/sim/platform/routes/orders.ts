/**
 * Orders (Document 2 §2.13, §4.12): list and detail at group, distributor and reseller
 * level. An order belongs to a tenant's subscription; a level sees the orders of the
 * tenants below it.
 *
 * Design decisions: no endpoint creates orders ("not shown"), so orders live in the
 * `orders` table of the simulator's state: load them with `POST /_sim/reset` (a state
 * snapshot) or `--state FILE`; the default data set has none. Lists page in token style,
 * search through `name` and `orderId`, sort by `name`, `orderId`, `date` or `id`. A detail
 * of an order outside the caller's hierarchy (or outside the level of the path) is 403.
 */
import { forbidden, notFound } from '../errors.js';
import { listScope, pageBody, readListQuery } from '../pagination.js';
import { ok, P, type ApiResponse, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import { canSee, actorOf, assertVisible } from '../visibility.js';
import { intParam } from './subscription-scope.js';
import { visibleGroup } from './groups.js';
import { visibleOwned } from './owned.js';

/** An order as stored (Document 2 §2.13). */
export interface OrderRow {
  id: number;
  name: string;
  orderId: string;
  date: string;
  provisioned: boolean;
  type: 'post' | 'delete';
  tenantUuid: string;
  /** The tenant's integer id as the ordering system knows it (the simulator's tenants have only uuids). */
  tenantId: number;
  subscriptionId: number;
  orderItems: { sku: string; name: string; quantity: number; provisioned: boolean }[];
}

const SEARCHABLE = ['name', 'orderId', 'date', 'id'] as const;

export const registerOrderRoutes: RouteModule = (router, store) => {
  const orders = store.table<OrderRow>({
    name: 'orders',
    key: (o) => String(o.id),
    searchable: SEARCHABLE,
    // Ancestors: the tenant and every level above it (fixed, owners never change).
    ancestors: (o) => [o.tenantUuid, ...(store.tenants.get(o.tenantUuid)?.ancestors ?? [])],
  });
  const levels = [
    {
      path: `${P}/groups/:uuid/orders`,
      role: 'groups.instance.orders',
      node: (ctx: RequestContext) => visibleGroup(ctx).uuid,
    },
    { path: `${P}/distributors/:uuid/orders`, role: 'distributors.instance.orders', node: visibleDistributor },
    {
      path: `${P}/resellers/:uuid/orders`,
      role: 'resellers.instance.orders',
      node: (ctx: RequestContext) => visibleOwned(ctx, 'reseller').uuid,
    },
  ];
  for (const level of levels) {
    router.add({
      method: 'GET',
      path: level.path,
      role: `${level.role}.list`,
      handler: (ctx): ApiResponse => {
        const uuid = level.node(ctx);
        const q = readListQuery(ctx.query, { searchable: SEARCHABLE, defaultSort: 'id' });
        const keep = (o: OrderRow) => visibleOrder(ctx, o);
        return ok(
          pageBody(
            listScope(orders, { kind: 'ancestor', key: uuid }, q, 'token', SEARCHABLE, keep),
            'orders',
            (o) => ({ id: o.id, ...orderView(ctx.store, o) }),
            ctx.forms,
          ),
        );
      },
    });
    router.add({
      method: 'GET',
      path: `${level.path}/:order_id`,
      role: `${level.role}.instance`,
      handler: (ctx): ApiResponse => {
        const uuid = level.node(ctx);
        const id = intParam(ctx, 'order_id');
        const order = orders.get(id);
        if (!order) throw notFound(`order ${id} not found`);
        const under = [order.tenantUuid, ...(ctx.store.tenants.get(order.tenantUuid)?.ancestors ?? [])].includes(uuid);
        if (!under || !visibleOrder(ctx, order))
          throw forbidden(`order ${id} is outside the hierarchy of this administrator level`);
        return ok({ order: { ...orderView(ctx.store, order), orderItems: order.orderItems.map((i) => ({ ...i })) } });
      },
    });
  }
};

function visibleDistributor(ctx: RequestContext): string {
  const d = ctx.store.distributors.get(ctx.params['uuid'] as string);
  if (!d) throw notFound(`distributor ${ctx.params['uuid']} not found`);
  assertVisible(ctx, { type: 'distributor', row: d });
  return d.uuid;
}

function visibleOrder(ctx: RequestContext, o: OrderRow): boolean {
  const tenant = ctx.store.tenants.get(o.tenantUuid);
  return tenant !== undefined && canSee(actorOf(ctx.user), { type: 'tenant', row: tenant });
}

function orderView(store: PlatformStore, o: OrderRow): Record<string, unknown> {
  const sub = store.subscriptions.get(o.subscriptionId);
  const tenant = store.tenants.get(o.tenantUuid);
  return {
    name: o.name,
    orderId: o.orderId,
    date: o.date,
    provisioned: o.provisioned,
    type: o.type,
    subscription: { id: o.subscriptionId, name: sub?.name ?? '', billingId: sub?.billingId ?? '' },
    tenant: { id: o.tenantId, name: tenant?.name ?? '', uuid: o.tenantUuid },
  };
}
