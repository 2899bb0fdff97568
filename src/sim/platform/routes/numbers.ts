/**
 * Numbers (Document 2 §2.5, §2.6, §4.4): the inventory type, the numbers of a
 * subscription, free numbers and the built-in inventory.
 *
 * - `T/numbers` pages both ways: `page`/`page_size` and `next` (the response carries `next`
 *   while more rows remain) and serves `page` as a string, as the spec types it (variant
 *   mode: a string or an integer).
 *   `filters` is a JSON object (`filters={"addressId":null,"countryCode":"32"}`; the bracket
 *   form `filters[countryCode]=32` is accepted too): `addressId` null keeps numbers without
 *   an address, a string keeps that address's numbers.
 * - `number_inventory` lists the inventory table plus the subscription numbers that came
 *   from it (state `assigned`); free numbers carry no `state`. `region` is the integer id of
 *   one of the group's regions.
 * - `free_numbers` without `country` lists every free number (the spec has no 400 there).
 */
import { badRequest } from '../errors.js';
import { paginate, pageBody, readListQuery, matchesSearch } from '../pagination.js';
import { G, ok, T, type ApiResponse, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import { subscriptionTables } from '../store/subscription-tables.js';
import type { GroupRow, InventoryNumberRow, NumberRow } from '../store/types.js';
import type { AnswerForms } from '../variants.js';
import { objectQuery, visibleSubscription } from './subscription-scope.js';
import { visibleGroup } from './groups.js';

const NUMBER_SEARCHABLE = ['fullNumber', 'nsn', 'countryCode', 'isoCode'] as const;
const INVENTORY_KEY = 'draas_external_number_inventory_management_system';

export const registerNumberRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: `${G}/number_inventory_type`,
    role: 'groups.instance.number_inventory_type.read',
    handler: (ctx) => inventoryType(visibleGroup(ctx)),
  });
  router.add({
    method: 'GET',
    path: `${T}/number_inventory_type`,
    role: 'tenants.instance.subscriptions.instance.number_inventory_type.read',
    handler: (ctx) => inventoryType(visibleSubscription(ctx).group),
  });
  router.add({
    method: 'GET',
    path: `${T}/numbers`,
    role: 'tenants.instance.subscriptions.instance.numbers.list',
    handler: listNumbers,
  });
  router.add({
    method: 'GET',
    path: `${T}/free_numbers`,
    role: 'tenants.instance.subscriptions.instance.free_numbers.list',
    handler: (ctx) => {
      visibleSubscription(ctx);
      const country = ctx.query.get('country')?.toUpperCase();
      const free = ctx.store.inventory
        .sorted({ kind: 'all' }, { field: 'id', dir: 'asc' })
        .filter(
          (n) =>
            !n.state &&
            (!country || n.isoCode === country) &&
            ctx.store.numbers.findBy('fullNumber', n.id).length === 0,
        );
      return ok({ freeNumbers: free.map((n) => n.id) });
    },
  });
  router.add({
    method: 'GET',
    path: `${T}/number_inventory`,
    role: 'tenants.instance.subscriptions.instance.number_inventory.list',
    handler: listInventory,
  });
};

function inventoryType(group: GroupRow | undefined): ApiResponse {
  return ok({ service: group?.configuration[INVENTORY_KEY] || 'default' });
}

function listNumbers(ctx: RequestContext): ApiResponse {
  const { sub } = visibleSubscription(ctx);
  const q = readListQuery(ctx.query, {
    searchable: NUMBER_SEARCHABLE,
    defaultSort: 'fullNumber',
    filters: ['filters'],
  });
  let filters: Record<string, unknown>;
  if (ctx.query.get('next'))
    filters = q.filters['filters'] ? (JSON.parse(q.filters['filters']) as Record<string, unknown>) : {};
  else {
    filters = objectQuery(ctx.query, 'filters');
    q.filters = Object.keys(filters).length > 0 ? { filters: JSON.stringify(filters) } : {};
  }
  const keep = numberFilter(filters);
  const rows = ctx.store.numbers
    .sorted({ kind: 'parent', key: String(sub.id) }, { field: q.sort, dir: q.dir })
    .filter((n) => matchesSearch(n, q.search, NUMBER_SEARCHABLE) && keep(n));
  const page = paginate(rows, q, 'token');
  const body = pageBody(page, 'numbers', (n) => numberView(ctx.store, n), ctx.forms);
  return ok({ ...body, page: ctx.forms.form('numbersPage') === 'string' ? String(page.page) : page.page });
}

function numberFilter(filters: Record<string, unknown>): (n: NumberRow) => boolean {
  const checks: ((n: NumberRow) => boolean)[] = [];
  if ('addressId' in filters) {
    const a = filters['addressId'];
    if (a === null || a === 'null') checks.push((n) => n.addressId === undefined);
    else checks.push((n) => String(n.addressId) === String(a));
  }
  if (filters['countryCode'] !== undefined && filters['countryCode'] !== null) {
    const cc = String(filters['countryCode']).replace(/^\+/, '');
    checks.push((n) => n.countryCode === cc);
  }
  return (n) => checks.every((c) => c(n));
}

/** Document 2 §2.5. */
function numberView(store: PlatformStore, n: NumberRow): Record<string, unknown> {
  const address = n.addressId === undefined ? undefined : subscriptionTables(store).addresses.get(n.addressId);
  return {
    id: n.id,
    ...(address
      ? { address: address.full_address, addressId: address.id, addressVerified: n.addressVerified ?? true }
      : {}),
    assigned: n.assignedTo !== undefined,
    ...(n.assignedTo ? { assignedTo: { ...n.assignedTo } } : {}),
    countryCode: n.countryCode,
    fullNumber: n.fullNumber,
    isoCode: n.isoCode,
    nsn: n.nsn,
    numberDivert: n.numberDivert,
    numberRewrite: n.numberRewrite,
    numberType: n.numberType,
    source: n.source,
    status: n.status,
  };
}

function listInventory(ctx: RequestContext): ApiResponse {
  const { group } = visibleSubscription(ctx);
  const q = readListQuery(ctx.query, {
    searchable: ['id'],
    defaultSort: 'id',
    filters: ['number_type', 'country_code', 'nsn', 'region'],
  });
  const f = q.filters;
  let regionName: string | undefined;
  if (f['region'] !== undefined) {
    if (!/^\d+$/.test(f['region'])) throw badRequest('bad_query', 'region must be an integer region id');
    regionName = group?.regions.find((r) => r.id === Number(f['region']))?.name ?? '\u0000none';
  }
  const cc = f['country_code']?.replace(/^\+/, '');
  const rows = inventoryRows(ctx.store).filter(
    (n) =>
      (f['number_type'] === undefined || n.numberType === f['number_type']) &&
      (cc === undefined || n.countryCode === cc) &&
      (f['nsn'] === undefined || n.nsn.includes(f['nsn'])) &&
      (regionName === undefined || n.region === regionName),
  );
  return ok(pageBody(paginate(rows, q, 'token'), 'numbers', (n) => inventoryView(n, ctx.forms), ctx.forms));
}

/**
 * Document 2 §2.6: `id` is the E.164 number (a string in the field table, an integer in
 * the sample), and the state time is `stateUpdatedOn` (the field table: `statusUpdatedOn`).
 */
function inventoryView(n: InventoryNumberRow, forms: AnswerForms): Record<string, unknown> {
  const { id, stateUpdatedOn, ...rest } = n;
  const view: Record<string, unknown> = {
    id: forms.form('inventoryId') === 'integer' ? Number(id.replace(/^\+/, '')) : id,
    ...rest,
  };
  if (stateUpdatedOn !== undefined) view[forms.form('stateUpdatedOn')] = stateUpdatedOn;
  return view;
}

/** The inventory table and the subscription numbers taken from it (not ported-in ones), by number. */
function inventoryRows(store: PlatformStore): InventoryNumberRow[] {
  const rows = new Map<string, InventoryNumberRow>();
  for (const n of store.inventory.rows()) rows.set(n.id, n);
  for (const n of store.numbers.rows()) {
    if (n.source !== 'number_inventory' || rows.has(n.fullNumber)) continue;
    rows.set(n.fullNumber, {
      id: n.fullNumber,
      countryCode: n.countryCode,
      isoCode: n.isoCode,
      nsn: n.nsn,
      numberType: n.numberType,
      region: null,
      state: 'assigned',
      stateUpdatedOn: store.subscriptions.get(n.subscriptionId)?.createdOn ?? store.clock.isoNow(),
    });
  }
  for (const n of store.numbers.rows()) if (n.source === 'ported_in') rows.delete(n.fullNumber);
  return [...rows.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
