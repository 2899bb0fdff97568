/**
 * Resellers (Document 1 §2.4, §4.3). Role of the suspension-profile PUT (not shown):
 * `resellers.instance.suspension_profile.update`. A suspended reseller reads with
 * `status: "suspended"` and `suspensionProfileId` (the barring-profile id, as subscriptions do).
 */
import { badRequest } from '../errors.js';
import { ok, P, type RouteModule } from '../router.js';
import type { ResellerRow } from '../store/types.js';
import { recordEvent } from '../events.js';
import { createOwned, deleteOwned, listOwned, ownedDetailView, updateOwned, visibleOwned } from './owned.js';
import { assertMayBill } from '../visibility.js';

export const registerResellerRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: `${P}/resellers`,
    role: 'resellers.list',
    handler: (ctx) => listOwned(ctx, 'reseller'),
  });
  router.add({
    method: 'GET',
    path: `${P}/resellers/:uuid`,
    role: 'resellers.instance.read',
    handler: (ctx) => ok(ownedDetailView(ctx.store, 'reseller', visibleOwned(ctx, 'reseller'), ctx.forms)),
  });
  router.add({
    method: 'POST',
    path: `${P}/resellers`,
    role: 'resellers.create',
    billable: true,
    handler: (ctx) => createOwned(ctx, 'reseller'),
  });
  router.add({
    method: 'PUT',
    path: `${P}/resellers/:uuid`,
    role: 'resellers.instance.update',
    handler: (ctx) => updateOwned(ctx, 'reseller'),
  });
  router.add({
    method: 'DELETE',
    path: `${P}/resellers/:uuid`,
    role: 'resellers.instance.delete',
    billable: true,
    handler: (ctx) =>
      deleteOwned(
        ctx,
        'reseller',
        (row) => {
          const tenants = ctx.store.tenants.countDescendants(row.uuid);
          const resellers = ctx.store.resellers.countChildren(row.uuid);
          if (tenants > 0) return `${tenants} tenant(s)`;
          if (resellers > 0) return `${resellers} reseller(s)`;
          return undefined;
        },
        () => {},
      ),
  });
  router.add({
    method: 'PUT',
    path: `${P}/resellers/:uuid/suspension_profile`,
    role: 'resellers.instance.suspension_profile.update',
    billable: true,
    handler: (ctx) => {
      const reseller = visibleOwned(ctx, 'reseller');
      assertMayBill(ctx, 'suspending a reseller');
      if (!('suspensionProfileId' in ctx.body))
        throw badRequest('missing_field', 'suspensionProfileId (integer or null) is required');
      const id = ctx.body['suspensionProfileId'];
      const changes: Partial<ResellerRow> = {};
      if (id === null) {
        changes.suspensionProfileId = null;
        changes.status = undefined;
      } else {
        if (typeof id !== 'number' || !Number.isInteger(id))
          throw badRequest('bad_field', 'suspensionProfileId must be an integer or null');
        if (!ctx.store.suspensionProfiles.has(id))
          throw badRequest('unknown_suspension_profile', `suspension profile ${id} does not exist`);
        changes.suspensionProfileId = id;
        changes.status = 'suspended';
      }
      ctx.store.resellers.update(reseller.uuid, changes);
      if (changes.status === undefined) delete reseller.status;
      recordEvent(ctx.store, 'reseller', 'update', reseller.uuid, ownedDetailView(ctx.store, 'reseller', reseller));
      return ok({ uuid: reseller.uuid });
    },
  });
};
