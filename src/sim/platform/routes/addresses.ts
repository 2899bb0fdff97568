/**
 * Addresses (Document 2 §2.7, §4.5) and the two bulk jobs that write them (address bulk,
 * address-number bulk).
 *
 * Design decisions: `format` is optional, a lower-case word, default `mapservice` (the
 * spec omits the single allowed value); `data` needs `street`, `number`, `postalCode`,
 * `city` and `country` or `isoCode`; `full_address` (when not supplied) is
 * `<street> <number>, <postalCode> <city>, <country>`; a full address is unique within a
 * subscription (400 `duplicate_address`), which is also how an address bulk item fails;
 * an address that numbers still use cannot be deleted (400 `address_in_use`).
 */
import { badRequest, notFound } from '../errors.js';
import { listScope, pageBody, readListQuery } from '../pagination.js';
import { noContent, ok, T, type ApiResponse, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import { subscriptionTables, type AddressData, type AddressRow } from '../store/subscription-tables.js';
import { optionalString, requiredString } from '../validate.js';
import { intParam, visibleSubscription } from './subscription-scope.js';
import { itemObject, requireArray, runBulkJob, subscriptionNumber } from './bulk-jobs.js';

const A = `${T}/addresses`;
const SEARCHABLE = ['full_address', 'id'] as const;
const DEFAULT_FORMAT = 'mapservice';
const NUMBER_CHARS = /^[A-Za-z0-9 /-]+$/;

export const registerAddressRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: A,
    role: 'tenants.instance.subscriptions.instance.addresses.list',
    handler: (ctx) => {
      const { sub } = visibleSubscription(ctx);
      const q = readListQuery(ctx.query, { searchable: SEARCHABLE, defaultSort: 'id' });
      const page = listScope(
        subscriptionTables(ctx.store).addresses,
        { kind: 'parent', key: String(sub.id) },
        q,
        'page',
        ['full_address'],
      );
      // Doc 2 §4.5: "200: `addresses`", paged by `page_size` and `page`, with no totals.
      return ok({ addresses: pageBody(page, 'addresses', addressView, ctx.forms)['addresses'] });
    },
  });
  router.add({
    method: 'GET',
    path: `${A}/:id`,
    role: 'tenants.instance.subscription.instance.addresses.read',
    handler: (ctx) => ok(addressView(addressOf(ctx, visibleSubscription(ctx).sub.id))),
  });
  router.add({
    method: 'POST',
    path: A,
    role: 'tenants.instance.subscriptions.instance.addresses.create',
    handler: (ctx) => ({
      status: 201,
      body: addressView(createAddress(ctx.store, visibleSubscription(ctx).sub.id, ctx.body)),
    }),
  });
  router.add({
    method: 'PUT',
    path: `${A}/:id`,
    role: 'tenants.instance.subscriptions.instance.addresses.instance.update',
    handler: updateAddress,
  });
  router.add({
    method: 'DELETE',
    path: `${A}/:id`,
    role: 'tenants.instance.subscriptions.instance.addresses.instance.delete',
    handler: (ctx) => {
      const { sub } = visibleSubscription(ctx);
      const id = intParam(ctx, 'id');
      const row = subscriptionTables(ctx.store).addresses.get(id);
      if (!row || row.subscriptionId !== sub.id) return noContent();
      const users = ctx.store.numbers
        .children(String(sub.id))
        .filter((n) => n.addressId === id)
        .map((n) => n.fullNumber);
      if (users.length > 0)
        throw badRequest('address_in_use', `address ${id} is used by ${users.join(', ')}: move those numbers first`);
      subscriptionTables(ctx.store).addresses.delete(id);
      return noContent();
    },
  });
  router.add({
    method: 'PUT',
    path: `${A}/bulk`,
    role: 'tenants.instance.subscriptions.instance.addresses.bulk',
    handler: addressBulk,
  });
  router.add({
    method: 'PUT',
    path: `${T}/address_numbers/bulk`,
    role: 'tenants.instance.subscriptions.instance.address_numbers.bulk',
    handler: addressNumberBulk,
  });
};

function addressView(a: AddressRow): Record<string, unknown> {
  return { id: a.id, address: a.full_address, full_address: a.full_address, format: a.format, data: { ...a.data } };
}

function addressOf(ctx: RequestContext, subscriptionId: number): AddressRow {
  const id = intParam(ctx, 'id');
  const row = subscriptionTables(ctx.store).addresses.get(id);
  if (!row || row.subscriptionId !== subscriptionId)
    throw notFound(`address ${id} of subscription ${subscriptionId} not found`);
  return row;
}

/** Reads and checks address data (Document 2 §2.7). */
function readAddressData(raw: unknown): AddressData {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw badRequest('missing_field', 'data is required (an address data object)');
  const d = raw as Record<string, unknown>;
  const out: AddressData = {};
  for (const key of ['number', 'street', 'city', 'state', 'country', 'isoCode', 'premises'] as const) {
    const v = optionalString(d, key);
    if (v !== undefined) out[key] = v;
  }
  const pc = d['postalCode'];
  if (pc !== undefined && pc !== null) {
    const n = typeof pc === 'string' && /^\d+$/.test(pc) ? Number(pc) : pc;
    if (typeof n !== 'number' || !Number.isInteger(n))
      throw badRequest('bad_field', 'data.postalCode must be an integer');
    out.postalCode = n;
  }
  if (out.number !== undefined && !NUMBER_CHARS.test(out.number))
    throw badRequest('bad_field', 'data.number accepts digits, letters, space, - and /');
  if (out.isoCode !== undefined && !/^[A-Z]{2}$/.test(out.isoCode))
    throw badRequest('bad_field', 'data.isoCode must be an ISO 3166 alpha-2 code');
  const missing = (['street', 'number', 'postalCode', 'city'] as const).filter(
    (k) => out[k] === undefined || out[k] === '',
  );
  if (!out.country && !out.isoCode) missing.push('country' as never);
  if (missing.length > 0) throw badRequest('missing_field', `address data needs ${missing.join(', ')}`);
  return out;
}

function fullAddressOf(d: AddressData, store: PlatformStore): string {
  const country = d.country ?? (d.isoCode ? (store.countries.get(d.isoCode)?.name ?? d.isoCode) : '');
  return `${d.street} ${d.number}, ${d.postalCode} ${d.city}, ${country}`;
}

function readFormat(body: Record<string, unknown>): string | undefined {
  const f = optionalString(body, 'format');
  if (f !== undefined && !/^[a-z][a-z0-9_-]*$/.test(f))
    throw badRequest('bad_field', 'format must be the lower-case name of the map service');
  return f;
}

function assertUnique(store: PlatformStore, subscriptionId: number, full: string, self?: number): void {
  const clash = subscriptionTables(store)
    .addresses.findBy('full', `${subscriptionId}\u0000${full.toLowerCase()}`)
    .find((a) => a.id !== self);
  if (clash) throw badRequest('duplicate_address', `address "${full}" already exists (id ${clash.id})`);
}

export function createAddress(store: PlatformStore, subscriptionId: number, body: Record<string, unknown>): AddressRow {
  const data = readAddressData(body['data']);
  const format = readFormat(body) ?? DEFAULT_FORMAT;
  const full = optionalString(body, 'full_address') || fullAddressOf(data, store);
  assertUnique(store, subscriptionId, full);
  return subscriptionTables(store).addresses.insert({
    id: store.nextId('addresses'),
    subscriptionId,
    full_address: full,
    format,
    data,
  });
}

function updateAddress(ctx: RequestContext): ApiResponse {
  const { store, body } = ctx;
  const { sub } = visibleSubscription(ctx);
  const row = addressOf(ctx, sub.id);
  const data = body['data'] === undefined ? row.data : readAddressData(body['data']);
  const format = readFormat(body) ?? row.format;
  const given = optionalString(body, 'full_address');
  const full = given || (body['data'] === undefined ? row.full_address : fullAddressOf(data, store));
  assertUnique(store, sub.id, full, row.id);
  return ok(
    addressView(subscriptionTables(store).addresses.update(row.id, { data, format, full_address: full }) as AddressRow),
  );
}

/** `PUT A/bulk`: creates each address of `data` (code 3076); items keyed by full address. */
function addressBulk(ctx: RequestContext): ApiResponse {
  const scope = visibleSubscription(ctx);
  requiredString(ctx.body, 'name');
  const items = requireArray(ctx, 'data').map((raw) => {
    const d = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const key = typeof d['full_address'] === 'string' ? d['full_address'] : keyOf(d, ctx.store);
    return { key, data: raw, run: () => void createAddress(ctx.store, scope.sub.id, { data: itemObject(raw) }) };
  });
  return runBulkJob(ctx, scope, 'addresses', 3076, items);
}

function keyOf(d: Record<string, unknown>, store: PlatformStore): string {
  try {
    return fullAddressOf(readAddressData(d), store);
  } catch {
    return [d['street'], d['number'], d['postalCode'], d['city'], d['country']]
      .filter((x) => x !== undefined)
      .join(' ');
  }
}

/** `PUT T/address_numbers/bulk`: links each number to an address by full address (code 3067). */
function addressNumberBulk(ctx: RequestContext): ApiResponse {
  const { store } = ctx;
  const scope = visibleSubscription(ctx);
  requiredString(ctx.body, 'name');
  const items = requireArray(ctx, 'data').map((raw) => {
    const d = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const number = typeof d['number'] === 'string' ? d['number'] : '';
    return {
      key: number,
      data: raw,
      run: () => {
        const item = itemObject(raw);
        const full = requiredString(item, 'full_address');
        const e164 = requiredString(item, 'number');
        const address = subscriptionTables(store).addresses.findBy(
          'full',
          `${scope.sub.id}\u0000${full.toLowerCase()}`,
        )[0];
        if (!address) throw badRequest('unknown_address', `no address "${full}" in subscription ${scope.sub.id}`);
        const n = subscriptionNumber(store, scope.sub.id, e164);
        if (!n) throw badRequest('unknown_number', `number ${e164} does not belong to subscription ${scope.sub.id}`);
        // The simulator's geocoder agrees with every address: a link made here is verified at once.
        store.numbers.update(n.id, { addressId: address.id, addressVerified: true });
      },
    };
  });
  return runBulkJob(ctx, scope, 'address_numbers', 3067, items);
}
