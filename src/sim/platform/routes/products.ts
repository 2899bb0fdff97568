/**
 * Products (Document 2 §2.12, §4.11): the catalogue items, the product lists of a group
 * (seen from the group, a distributor, a reseller or a tenant), the product detail, create
 * and update. Products belong to a group; every level below sees its group's products.
 *
 * - Lists (any authenticated user, token style): `search` (name, sku), `ebaled` (spelled as
 *   the spec spells it: only enabled products), `detailed` (adds `resources`), `sort`, `dir`,
 *   `parent` (group uuid; required for system administrators on `P/public/products`; other
 *   callers default to their own group), `page_size`, `next`.
 * - `PUT` replaces the whole item list when `items` is given (omitted: unchanged);
 *   `description: null` removes the description; `sku` is not updatable (400 when another one
 *   is sent).
 *
 * Design decisions ("not shown"): there is no delete: `DELETE G/products/{id}` answers 405
 * (`method_not_allowed`), as every unsupported method on a known path does; only system
 * and group administrators create or update products (403 otherwise); items are
 * `{type: license, subType: ucAlphaUsers|sipTrunkChannels, quantity}` or
 * `{type: entitlement, id: <entitlement type id>, quantity}`, quantity ≥ 1, one item per
 * license sub-type or entitlement type; a resource's `service` is `uc_alpha` for user
 * licenses, `sip_trunk` for channels and `numbers` for entitlements.
 */
import { badRequest, forbidden, notFound } from '../errors.js';
import { listScope, pageBody, readListQuery } from '../pagination.js';
import { G, noContent, ok, P, type ApiResponse, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import type { ProductRow } from '../store/types.js';
import { optionalString, queryFlag, requiredString } from '../validate.js';
import { actorOf, assertVisible, isSystem } from '../visibility.js';
import { intParam } from './subscription-scope.js';
import { visibleGroup } from './groups.js';
import { visibleOwned } from './owned.js';

type Item = ProductRow['items'][number];
const SEARCHABLE = ['name', 'sku', 'id'] as const;
const LICENSES = ['ucAlphaUsers', 'sipTrunkChannels'];

export const registerProductRoutes: RouteModule = (router) => {
  const items = (ctx: RequestContext, groupUuid: string) =>
    ok({
      items: ctx.store.catalogItems
        .sorted({ kind: 'parent', key: groupUuid }, { field: 'id', dir: 'asc' })
        .map(({ groupUuid: _g, ...c }) => c),
    });
  router.add({
    method: 'GET',
    path: `${G}/products/items`,
    role: 'groups.instance.products.items.read',
    handler: (ctx) => items(ctx, visibleGroup(ctx).uuid),
  });
  router.add({
    method: 'GET',
    path: `${P}/public/products/items`,
    role: 'groups.instance.products.items.read',
    handler: (ctx) => items(ctx, groupFromParent(ctx, true)),
  });
  const list = (path: string, groupOf: (ctx: RequestContext) => string) =>
    router.add({
      method: 'GET',
      path,
      role: 'products.list',
      access: 'authenticated',
      handler: (ctx) => listProducts(ctx, groupOf(ctx)),
    });
  list(`${P}/public/products`, (ctx) => groupFromParent(ctx, isSystem(ctx)));
  list(`${G}/products`, (ctx) => visibleGroup(ctx).uuid);
  list(`${P}/distributors/:uuid/products`, (ctx) => {
    const d = ctx.store.distributors.get(ctx.params['uuid'] as string);
    if (!d) throw notFound(`distributor ${ctx.params['uuid']} not found`);
    assertVisible(ctx, { type: 'distributor', row: d });
    return d.groupUuid;
  });
  list(`${P}/resellers/:uuid/products`, (ctx) => visibleOwned(ctx, 'reseller').groupUuid);
  list(`${P}/tenants/:uuid/products`, (ctx) => visibleOwned(ctx, 'tenant').groupUuid);
  router.add({
    method: 'GET',
    path: `${P}/public/products/:product_id`,
    role: 'products.read',
    access: 'authenticated',
    handler: (ctx) => {
      const p = productOf(ctx, groupFromParent(ctx, isSystem(ctx)));
      return ok({
        name: p.name,
        ...(p.description !== undefined ? { description: p.description } : {}),
        sku: p.sku,
        status: p.status,
        items: p.items.map((i) => ({ ...i })),
      });
    },
  });
  router.add({ method: 'POST', path: `${G}/products`, role: 'groups.instance.product.create', handler: createProduct });
  router.add({
    method: 'PUT',
    path: `${G}/products/:product_id`,
    role: 'groups.instance.product.instance.update',
    handler: updateProduct,
  });
};

/** The group of `parent` (required when `required`), else the caller's own group. */
function groupFromParent(ctx: RequestContext, required: boolean): string {
  const parent = ctx.query.get('parent');
  if (parent) {
    const group = ctx.store.groups.get(parent);
    if (!group) throw notFound(`group ${parent} not found`);
    assertVisible(ctx, { type: 'group', row: group });
    return group.uuid;
  }
  if (required) throw badRequest('missing_parent', 'parent (a group uuid) is required');
  const actor = actorOf(ctx.user);
  const node = ctx.store.node(actor.reference);
  if (!node) throw badRequest('missing_parent', 'parent (a group uuid) is required');
  return node.type === 'group' ? node.row.uuid : node.type === 'distributor' ? node.row.groupUuid : node.row.groupUuid;
}

function productOf(ctx: RequestContext, groupUuid: string): ProductRow {
  const id = intParam(ctx, 'product_id');
  const p = ctx.store.products.get(id);
  if (!p || p.groupUuid !== groupUuid) throw notFound(`product ${id} not found in group ${groupUuid}`);
  return p;
}

function listProducts(ctx: RequestContext, groupUuid: string): ApiResponse {
  const q = readListQuery(ctx.query, { searchable: SEARCHABLE, defaultSort: 'name', filters: ['ebaled', 'detailed'] });
  const enabledOnly = queryFlag(ctx.query, 'ebaled');
  const detailed = queryFlag(ctx.query, 'detailed');
  const page = listScope(
    ctx.store.products,
    { kind: 'parent', key: groupUuid },
    q,
    'token',
    SEARCHABLE,
    enabledOnly ? (p) => p.status === 'enabled' : undefined,
  );
  return ok(
    pageBody(
      page,
      'products',
      (p) => ({
        id: p.id,
        name: p.name,
        ...(p.description !== undefined ? { description: p.description } : {}),
        sku: p.sku,
        status: p.status,
        ...(detailed ? { resources: p.items.map((i) => resourceOf(ctx.store, i)) } : {}),
      }),
      ctx.forms,
    ),
  );
}

function resourceOf(store: PlatformStore, i: Item): Record<string, unknown> {
  if (i.type === 'license') {
    return {
      name: i.subType,
      quantity: i.quantity,
      service: i.subType === 'sipTrunkChannels' ? 'sip_trunk' : 'uc_alpha',
      sku: i.subType,
      type: 'license',
    };
  }
  const et = i.id === undefined ? undefined : store.entitlementTypes.get(i.id);
  return {
    name: et?.name ?? String(i.id),
    quantity: i.quantity,
    service: 'numbers',
    sku: et?.externalReference ?? `ET-${i.id}`,
    ...(et ? { description: et.description } : {}),
    type: 'entitlement',
  };
}

function assertProductAdmin(ctx: RequestContext): void {
  const level = actorOf(ctx.user).level;
  if (level !== 'system' && level !== 'group') throw forbidden('only system and group administrators manage products');
}

function readItems(store: PlatformStore, raw: unknown): Item[] {
  if (!Array.isArray(raw)) throw badRequest('bad_field', 'items must be an array');
  const seen = new Set<string>();
  return raw.map((x, n) => {
    const at = `items[${n}]`;
    if (typeof x !== 'object' || x === null) throw badRequest('bad_field', `${at} must be an object`);
    const o = x as Record<string, unknown>;
    const quantity = o['quantity'];
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1)
      throw badRequest('bad_field', `${at}.quantity must be an integer ≥ 1`);
    let item: Item;
    if (o['type'] === 'license') {
      if (typeof o['subType'] !== 'string' || !LICENSES.includes(o['subType']))
        throw badRequest('bad_field', `${at}.subType must be ${LICENSES.join(' or ')}`);
      item = { type: 'license', subType: o['subType'], quantity };
    } else if (o['type'] === 'entitlement') {
      const id = o['id'];
      if (typeof id !== 'number' || !store.entitlementTypes.get(id))
        throw badRequest('bad_field', `${at}.id must be an entitlement type id`);
      item = { type: 'entitlement', id, quantity };
    } else throw badRequest('bad_field', `${at}.type must be license or entitlement`);
    const key = `${item.type}:${item.subType ?? item.id}`;
    if (seen.has(key)) throw badRequest('duplicate_item', `${at} repeats ${key}`);
    seen.add(key);
    return item;
  });
}

function readStatus(body: Record<string, unknown>): ProductRow['status'] | undefined {
  const s = optionalString(body, 'status');
  if (s !== undefined && s !== 'enabled' && s !== 'disabled')
    throw badRequest('bad_field', 'status must be enabled or disabled');
  return s;
}

function createProduct(ctx: RequestContext): ApiResponse {
  const { store, body } = ctx;
  const group = visibleGroup(ctx);
  assertProductAdmin(ctx);
  const name = requiredString(body, 'name');
  const sku = requiredString(body, 'sku');
  if (store.products.findByName(sku, group.uuid).length > 0)
    throw badRequest('duplicate_sku', `a product with sku ${sku} already exists in this group`);
  const description = optionalString(body, 'description');
  const items = body['items'] === undefined || body['items'] === null ? [] : readItems(store, body['items']);
  const row = store.products.insert({
    id: store.nextId('products'),
    groupUuid: group.uuid,
    name,
    sku,
    status: readStatus(body) ?? 'enabled',
    items,
    ...(description !== undefined ? { description } : {}),
  });
  return ok({ id: row.id });
}

function updateProduct(ctx: RequestContext): ApiResponse {
  const { store, body } = ctx;
  const group = visibleGroup(ctx);
  assertProductAdmin(ctx);
  const row = productOf(ctx, group.uuid);
  const sku = optionalString(body, 'sku');
  if (sku !== undefined && sku !== row.sku) throw badRequest('sku_immutable', 'the sku of a product cannot be changed');
  const name = optionalString(body, 'name');
  const status = readStatus(body);
  const next: ProductRow = {
    ...row,
    ...(name !== undefined ? { name } : {}),
    ...(status !== undefined ? { status } : {}),
  };
  if (body['description'] === null) delete next.description;
  else {
    const d = optionalString(body, 'description');
    if (d !== undefined) next.description = d;
  }
  if (body['items'] !== undefined && body['items'] !== null) next.items = readItems(store, body['items']);
  store.products.delete(row.id);
  store.products.insert(next);
  return noContent();
}
