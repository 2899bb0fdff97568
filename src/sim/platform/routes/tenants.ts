/**
 * Tenants (Document 1 §2.5, §4.4). Deleting a tenant also deletes its subscriptions (with
 * their entitlements and numbers) and markups; Document 2 tables hooked on subscriptions
 * register a cascade in `store.subscriptionDeleteHooks` (design decision: the spec does not say
 * whether a tenant with subscriptions may be deleted).
 */
import { ok, P, type RouteModule } from '../router.js';
import { createOwned, deleteOwned, listOwned, ownedDetailView, updateOwned, visibleOwned } from './owned.js';

export const registerTenantRoutes: RouteModule = (router) => {
  router.add({ method: 'GET', path: `${P}/tenants`, role: 'tenants.list', handler: (ctx) => listOwned(ctx, 'tenant') });
  router.add({
    method: 'GET',
    path: `${P}/tenants/:uuid`,
    role: 'tenants.instance.read',
    handler: (ctx) => ok(ownedDetailView(ctx.store, 'tenant', visibleOwned(ctx, 'tenant'), ctx.forms)),
  });
  router.add({
    method: 'POST',
    path: `${P}/tenants`,
    role: 'tenants.create',
    billable: true,
    handler: (ctx) => createOwned(ctx, 'tenant'),
  });
  router.add({
    method: 'PUT',
    path: `${P}/tenants/:uuid`,
    role: 'tenants.instance.update',
    handler: (ctx) => updateOwned(ctx, 'tenant'),
  });
  router.add({
    method: 'DELETE',
    path: `${P}/tenants/:uuid`,
    role: 'tenants.instance.delete',
    billable: true,
    handler: (ctx) =>
      deleteOwned(
        ctx,
        'tenant',
        () => undefined,
        (row) => {
          const { store } = ctx;
          for (const sub of store.subscriptions.children(row.uuid)) {
            for (const hook of store.subscriptionDeleteHooks) hook(sub.id);
            for (const e of store.entitlements.children(String(sub.id))) store.entitlements.delete(e.id);
            for (const n of store.numbers.children(String(sub.id))) store.numbers.delete(n.id);
            store.subscriptions.delete(sub.id);
          }
        },
      ),
  });
};
