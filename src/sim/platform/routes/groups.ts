/**
 * Groups (Document 1 §2.3, §4.2). "Only system administrators administer groups" (§1) and
 * §4.2 is headed "Groups (system administrators only)": every endpoint of §4.2 (the group
 * itself, its administrators, rate plans, configuration, branding, enabled UCs) answers
 * 403 to any other level, whatever its api_rules. The group's Document 2 resources under
 * `G/` (licenses, reports, block list, products, orders, number inventory type) and its
 * regions (§4.5) stay open to the levels that see the group.
 */
import { badRequest, notFound } from '../errors.js';
import { listScope, pageBody, readListQuery } from '../pagination.js';
import { ok, P, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import type { GroupRow } from '../store/types.js';
import { optionalString, requiredEmail, requiredString } from '../validate.js';
import type { AnswerForms } from '../variants.js';
import { assertSystem, assertVisible } from '../visibility.js';
import { assertEmailFree, createAdministrator } from './admins.js';

const SEARCHABLE = ['uuid', 'name', 'draasDomain'] as const;

export const registerGroupRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: `${P}/groups`,
    role: 'groups.list',
    handler: (ctx) => {
      assertSystem(ctx, 'listing groups');
      const q = readListQuery(ctx.query, { searchable: SEARCHABLE, defaultSort: 'name' });
      const page = listScope(ctx.store.groups, { kind: 'all' }, q, 'token', SEARCHABLE);
      return ok(pageBody(page, 'groups', groupRowView, ctx.forms));
    },
  });
  router.add({
    method: 'GET',
    path: `${P}/groups/:uuid`,
    role: 'groups.instance.read',
    handler: (ctx) => ok(groupDetailView(ctx.store, administeredGroup(ctx, 'reading a group'), ctx.forms)),
  });
  router.add({ method: 'POST', path: `${P}/groups`, role: 'groups.create', handler: createGroup });
  router.add({
    method: 'PUT',
    path: `${P}/groups/:uuid`,
    role: 'groups.instance.update',
    handler: (ctx) => {
      const group = administeredGroup(ctx, 'updating a group');
      const name = optionalString(ctx.body, 'name');
      const draasDomain = optionalString(ctx.body, 'draasDomain');
      if (name !== undefined && name !== group.name) assertNameFree(ctx.store, name);
      ctx.store.groups.update(group.uuid, {
        ...(name ? { name } : {}),
        ...(draasDomain !== undefined ? { draasDomain } : {}),
      });
      return ok({ uuid: group.uuid });
    },
  });
  router.add({
    method: 'DELETE',
    path: `${P}/groups/:uuid`,
    role: 'groups.instance.delete',
    handler: (ctx) => {
      assertSystem(ctx, 'deleting a group');
      const uuid = ctx.params['uuid'] as string;
      const { store } = ctx;
      if (!store.groups.has(uuid)) return ok({ uuid }); // missing counts as success
      const children =
        store.distributors.countChildren(uuid) +
        store.resellers.countDescendants(uuid) +
        store.tenants.countDescendants(uuid);
      if (children > 0)
        throw badRequest(
          'has_children',
          `group ${uuid} still has ${children} distributor(s), reseller(s) or tenant(s): delete them first`,
        );
      for (const admin of store.users.rows().filter((u) => u.adminOf.reference === uuid)) store.users.delete(admin.id);
      for (const p of store.products.children(uuid)) store.products.delete(p.id);
      for (const c of store.catalogItems.children(uuid)) store.catalogItems.delete(c.id);
      store.groups.delete(uuid);
      return ok({ uuid });
    },
  });
};

/** The group of `:uuid`: 404 when absent, 403 when out of the caller's scope. */
export function visibleGroup(ctx: RequestContext): GroupRow {
  const uuid = ctx.params['uuid'] as string;
  const group = ctx.store.groups.get(uuid);
  if (!group) throw notFound(`group ${uuid} not found`);
  assertVisible(ctx, { type: 'group', row: group });
  return group;
}

/** The group of `:uuid` for an endpoint of Document 1 §4.2: 403 below system level, then as {@link visibleGroup}. */
export function administeredGroup(ctx: RequestContext, what: string): GroupRow {
  assertSystem(ctx, what);
  return visibleGroup(ctx);
}

function createGroup(ctx: RequestContext) {
  assertSystem(ctx, 'creating a group');
  const name = requiredString(ctx.body, 'name');
  const draasDomain = optionalString(ctx.body, 'draasDomain');
  const adminEmail = optionalString(ctx.body, 'adminEmail');
  assertNameFree(ctx.store, name);
  // Checked whole before anything is stored: a 400 leaves nothing made (Doc 1 §7).
  if (adminEmail) {
    requiredEmail(ctx.body, 'adminEmail');
    assertEmailFree(ctx.store, adminEmail);
  }
  const uuid = ctx.store.newUuid();
  ctx.store.groups.insert({
    uuid,
    name,
    ...(draasDomain ? { draasDomain } : {}),
    enabledUcs: [],
    regions: [],
    configuration: {},
    branding: {},
    createdOn: ctx.store.clock.isoNow(),
  });
  if (adminEmail) createAdministrator(ctx.store, 'group', uuid, ctx.body);
  return ok({ uuid });
}

/** Group names are unique (design decision: they identify groups in manifests). */
function assertNameFree(store: PlatformStore, name: string): void {
  if (store.groups.findByName(name).length > 0)
    throw badRequest('duplicate_name', `a group named ${name} already exists`);
}

function groupRowView(g: GroupRow): Record<string, unknown> {
  return { uuid: g.uuid, name: g.name, ...(g.draasDomain ? { draasDomain: g.draasDomain } : {}) };
}

/** Document 1 §2.3: the count of distributors under the sample's spelling or the field table's. */
function groupDetailView(store: PlatformStore, g: GroupRow, forms: AnswerForms): Record<string, unknown> {
  return {
    ...groupRowView(g),
    [forms.form('nbOfDistributors')]: store.distributors.countChildren(g.uuid),
    nbOfResellers: store.resellers.countDescendants(g.uuid),
    nbOfTenants: store.tenants.countDescendants(g.uuid),
  };
}
