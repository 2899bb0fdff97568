/**
 * Locations (Document 2 §2.8, §4.7) and the postal codes they point to.
 *
 * Design decision: the spec shows no endpoint to list postal codes, yet a location needs a
 * `postalCodeId`. The simulator (and switchboard's client) use `GET P/public/postal_codes`
 * (any authenticated user): query `isoCode`, `code` (exact), `search` (code or city
 * substring), page style `page`/`page_size` → `results`, `pages`, `page`, `postalCodes`
 * (items `{id, code, city, state, region {id, name}, country {id, name, isoCode}}`).
 * A region id is the id of the first group region of that country and name (0 when no
 * group serves it); a country id is the id of the country code of the same country name.
 * A seed with `inventedEndpoints: {postalCodes: false}` removes it (404), as a platform
 * without it would answer.
 */
import { badRequest, notFound } from '../errors.js';
import { matchesSearch, paginate, pageBody, readListQuery } from '../pagination.js';
import {
  assertInvented,
  noContent,
  ok,
  P,
  T,
  type ApiResponse,
  type RequestContext,
  type RouteModule,
} from '../router.js';
import type { PlatformStore } from '../store/store.js';
import { subscriptionTables, type LocationRow } from '../store/subscription-tables.js';
import type { PostalCodeRow } from '../store/types.js';
import { optionalString, requiredString } from '../validate.js';
import { intParam, optionalInt, requiredInt, visibleSubscription } from './subscription-scope.js';

const L = `${T}/locations`;

export const registerLocationRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: L,
    role: 'tenants.instance.subscriptions.instance.locations.list',
    handler: (ctx) => {
      const { sub } = visibleSubscription(ctx);
      const rows = subscriptionTables(ctx.store).locations.sorted(
        { kind: 'parent', key: String(sub.id) },
        { field: 'id', dir: 'asc' },
      );
      return ok({ locations: rows.map((l) => locationView(ctx.store, l)) });
    },
  });
  router.add({
    method: 'POST',
    path: L,
    role: 'tenants.instance.subscriptions.instance.locations.create',
    handler: createLocation,
  });
  router.add({
    method: 'PUT',
    path: `${L}/:id`,
    role: 'tenants.instance.subscriptions.instance.locations.instance.update',
    handler: updateLocation,
  });
  router.add({
    method: 'DELETE',
    path: `${L}/:id`,
    role: 'tenants.instance.subscriptions.instance.locations.instance.delete',
    handler: (ctx) => {
      const { sub } = visibleSubscription(ctx);
      const id = intParam(ctx, 'id');
      const row = subscriptionTables(ctx.store).locations.get(id);
      if (row && row.subscriptionId === sub.id) subscriptionTables(ctx.store).locations.delete(id);
      return noContent();
    },
  });
  router.add({
    method: 'GET',
    path: `${P}/public/postal_codes`,
    role: 'public.postal_codes.list',
    access: 'authenticated',
    handler: listPostalCodes,
  });
};

function postalCodeOf(store: PlatformStore, id: number): PostalCodeRow {
  const pc = store.postalCodes.get(id);
  if (!pc) throw badRequest('unknown_postal_code', `postalCodeId ${id} not found (see GET …/public/postal_codes)`);
  return pc;
}

function createLocation(ctx: RequestContext): ApiResponse {
  const { store, body } = ctx;
  const { sub } = visibleSubscription(ctx);
  const street = requiredString(body, 'street');
  const number = requiredString(body, 'number');
  const postbox = optionalString(body, 'postbox');
  const postalCodeId = requiredInt(body, 'postalCodeId', 1);
  postalCodeOf(store, postalCodeId);
  const row = subscriptionTables(store).locations.insert({
    id: store.nextId('locations'),
    subscriptionId: sub.id,
    street,
    number,
    ...(postbox ? { postbox } : {}),
    postalCodeId,
  });
  return ok({ id: row.id });
}

function updateLocation(ctx: RequestContext): ApiResponse {
  const { store, body } = ctx;
  const { sub } = visibleSubscription(ctx);
  const id = intParam(ctx, 'id');
  const row = subscriptionTables(store).locations.get(id);
  if (!row || row.subscriptionId !== sub.id) throw notFound(`location ${id} of subscription ${sub.id} not found`);
  const changes: Partial<LocationRow> = {};
  const street = optionalString(body, 'street');
  const number = optionalString(body, 'number');
  const postbox = optionalString(body, 'postbox');
  const postalCodeId = optionalInt(body, 'postalCodeId', 1);
  if (street !== undefined) changes.street = street;
  if (number !== undefined) changes.number = number;
  if (postbox !== undefined) changes.postbox = postbox;
  if (postalCodeId !== undefined) changes.postalCodeId = postalCodeOf(store, postalCodeId).id;
  subscriptionTables(store).locations.update(id, changes);
  return ok({ id });
}

function locationView(store: PlatformStore, l: LocationRow): Record<string, unknown> {
  const pc = store.postalCodes.get(l.postalCodeId);
  return {
    id: l.id,
    street: l.street,
    number: l.number,
    ...(l.postbox ? { postbox: l.postbox } : {}),
    postalCode: pc ? postalCodeView(store, pc) : null,
  };
}

function postalCodeView(store: PlatformStore, pc: PostalCodeRow): Record<string, unknown> {
  const region = store.groups
    .rows()
    .flatMap((g) => g.regions)
    .find((r) => r.isoCode === pc.country.isoCode && r.name === pc.region.name);
  const country = store.countryCodes.rows().find((c) => c.name === pc.country.name);
  return {
    id: pc.id,
    code: pc.code,
    city: pc.city,
    state: pc.state,
    region: { id: region?.id ?? pc.region.id, name: pc.region.name },
    country: { id: country?.id ?? pc.country.id, name: pc.country.name, isoCode: pc.country.isoCode },
  };
}

function listPostalCodes(ctx: RequestContext): ApiResponse {
  assertInvented(ctx, 'postalCodes');
  const q = readListQuery(ctx.query, { searchable: ['code', 'city', 'id'], defaultSort: 'id' });
  const iso = ctx.query.get('isoCode')?.toUpperCase();
  const code = ctx.query.get('code');
  const rows = ctx.store.postalCodes
    .sorted({ kind: 'all' }, { field: q.sort, dir: q.dir })
    .filter(
      (p) =>
        (!iso || p.country.isoCode === iso) &&
        (!code || p.code === code) &&
        matchesSearch(p, q.search, ['code', 'city']),
    );
  const { next: _none, ...body } = pageBody(
    paginate(rows, q, 'page'),
    'postalCodes',
    (p) => postalCodeView(ctx.store, p),
    ctx.forms,
  );
  return ok(body);
}
