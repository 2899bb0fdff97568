import { isPlainObject } from '../core/values.js';
import { ISO_CODE } from './common-fields.js';
import { normalizeValue, pathId } from './fields.js';
import { subscriptionPath } from './subscription-path.js';
import type { BulkRoute, FieldSpec, KindContext, KindDefinition, LiveObject } from './types.js';

/** The parts of Doc 2 §2.7's address data; `postalCode` is an integer there. */
const dataFields: readonly FieldSpec[] = [
  { name: 'street', change: 'update', type: 'string', doc: 'Street.', manifest: { required: true, minLength: 1 } },
  {
    name: 'number',
    change: 'update',
    type: 'string',
    doc: 'House number; digits, letters, space, "-", "/".',
    manifest: { integerAsText: true, pattern: '^[0-9A-Za-z /-]+$' },
  },
  { name: 'city', change: 'update', type: 'string', doc: 'City.', manifest: { required: true, minLength: 1 } },
  { name: 'state', change: 'update', type: 'string', doc: 'State.' },
  {
    name: 'postalCode',
    change: 'update',
    type: 'integer',
    doc: 'Postal code (an integer in the address data).',
    manifest: { required: true, minimum: 0 },
  },
  {
    name: 'country',
    change: 'update',
    type: 'string',
    doc: 'Country name.',
    manifest: { required: true, minLength: 1 },
  },
  { name: 'isoCode', change: 'update', type: 'string', doc: 'Two-letter ISO 3166 country code.', manifest: ISO_CODE },
  { name: 'premises', change: 'update', type: 'string', doc: "Premises (column of the platform's bulk CSV)." },
];

const fields: readonly FieldSpec[] = [
  ...dataFields,
  {
    name: 'fullAddress',
    api: 'full_address',
    change: 'update',
    type: 'string',
    derived: (parts) => fullAddress(parts as Parameters<typeof fullAddress>[0]),
    doc: 'The full address (full_address); generated from the parts when omitted.',
    manifest: { minLength: 1 },
  },
];

const collectionPath = (ctx: KindContext, ids: Readonly<Record<string, string>>): string =>
  `${subscriptionPath(ctx, ids)}/addresses`;
const itemPath = (live: LiveObject, ctx: KindContext): string =>
  `${collectionPath(ctx, live.ids)}/${pathId(live.ids, 'Address')}`;

/** `{data, full_address}` as POST and PUT A take them. */
function body(fields: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const spec of dataFields) if (spec.name in fields) data[spec.name] = fields[spec.name];
  const result: Record<string, unknown> = { data };
  if (fields['fullAddress'] != null) result['full_address'] = fields['fullAddress'];
  return result;
}

/**
 * An address's full address formed from its parts, as "<street> <number>, <postalCode>
 * <city>, <country>" (docs/manifests.md's example "Rue Haute 10, 1000 Brussels, Belgium");
 * without a number, "<street>, <postalCode> ...". A manifest that leaves `fullAddress` out
 * gets this one, and it is the address's identity.
 */
function fullAddress(parts: Readonly<Record<string, unknown>>): string {
  const number = parts['number'];
  const street =
    number !== undefined && number !== '' ? `${String(parts['street'])} ${String(number)}` : String(parts['street']);
  return `${street}, ${String(parts['postalCode'])} ${String(parts['city'])}, ${String(parts['country'])}`;
}

/** The platform's bulk address CSV header (Doc 2 §4.6, kind `addresses`): an `addressesFrom` file's columns. */
const ADDRESS_CSV_HEADER: readonly string[] = [
  'premises',
  'city',
  'country',
  'isoCode',
  'number',
  'postalCode',
  'state',
  'street',
];

const ROLE = 'tenants.instance.subscriptions.instance';
const ADDRESSES = /\/subscriptions\/[^/]+\/addresses$/;

function field(value: unknown, name: string): unknown {
  return value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}

/** `PUT A/bulk` (Doc 2 §4.5): address creates of one subscription, as one job. */
const addressBulk: BulkRoute = {
  name: 'addresses',
  when: 'threshold',
  afterSiblingCreates: false,
  creates: true,
  matches: (r) => r.method === 'POST' && ADDRESSES.test(r.path),
  bulkPath: (path) => `${path}/bulk`,
  jobsPath: (path) => `${path}/bulk_jobs`,
  subscriptionPath: (path) => path.replace(/\/addresses$/, ''),
  items: (body) => [field(body, 'data')],
  // The bulk takes address data only: an address declared with a full address other than
  // the one the platform forms from its parts is created on its own.
  eligible: (body) => {
    const full = field(body, 'full_address');
    const data = field(body, 'data');
    return data !== undefined && (full === undefined || full === fullAddress(data as Record<string, unknown>));
  },
  jobsRole: `${ROLE}.addresses.bulk.jobs`,
  detailRole: `${ROLE}.bulk.jobs.details`,
  bulkRole: `${ROLE}.addresses.bulk`,
};

/**
 * Doc 2 §2.7, §4.5: emergency addresses, identified by their full address. Large sets go
 * through `PUT A/bulk` (the executor batches creates of this kind).
 */
export const addressKind: KindDefinition = {
  kind: 'Address',
  parentKinds: ['Subscription'],
  collection: 'addresses',
  manifest: {
    noun: 'address',
    collectionDoc: 'Emergency addresses (Doc 2 §2.7).',
    doc: 'An emergency address (Doc 2 §2.7), given by its parts. Its identity is the full address: fullAddress when given, else "<street> <number>, <postalCode> <city>, <country>".',
    identity: ['fullAddress'],
    csv: { key: 'addressesFrom', header: ADDRESS_CSV_HEADER, rowSchema: 'tenant.schema.json#/$defs/address' },
    refused: {
      format: {
        why: '`format` is not managed: the platform sets the address format (its single allowed value, Doc 2 §2.7)',
      },
      id: { why: '`id` is assigned by the platform; an address is identified by its full address', readOnly: true },
    },
  },
  contract: {
    sample: {
      street: 'Contract Street',
      number: '9',
      city: 'Brussels',
      postalCode: 1000,
      country: 'Belgium',
      isoCode: 'BE',
    },
    // Street, number, postal code, city and country form the identity (the full address).
    update: { premises: 'Floor 2', state: 'Brussels-Capital' },
  },
  fields,
  bulk: addressBulk,
  identity: (f) => String(f['fullAddress']),
  address: (parent, identity) => `${parent}/address/${identity}`,
  list: (parent, ctx) =>
    parent && {
      path: collectionPath(ctx, parent.ids),
      itemsKey: 'addresses',
      style: 'page',
      role: 'tenants.instance.subscriptions.instance.addresses.list',
    },
  // Doc 2 §2.7: the fields live in `data`, an object; anything else read as "no fields" would plan a rewrite.
  itemProblem: (item) =>
    isPlainObject(item['data']) ? undefined : `"data" is ${item['data'] === undefined ? 'missing' : 'not an object'}`,
  fromApi: (item) => {
    const data = (item['data'] ?? {}) as Record<string, unknown>;
    const result: Record<string, unknown> = {};
    for (const spec of dataFields)
      if (data[spec.name] !== undefined) result[spec.name] = normalizeValue(spec.type, data[spec.name]);
    result['fullAddress'] = String(item['full_address'] ?? item['address'] ?? '');
    return { id: String(item['id']), fields: result };
  },
  createdId: { from: 'body', field: 'id' },
  create: (desired, parent, ctx) => [
    {
      method: 'POST',
      path: collectionPath(ctx, parent?.ids ?? {}),
      role: 'tenants.instance.subscriptions.instance.addresses.create',
      body: body(desired.fields),
    },
  ],
  update: (desired, live, ctx) => [
    {
      method: 'PUT',
      path: itemPath(live, ctx),
      role: 'tenants.instance.subscriptions.instance.addresses.instance.update',
      body: body({ ...live.fields, ...desired.fields }),
    },
  ],
  delete: (live, ctx) => [
    {
      method: 'DELETE',
      path: itemPath(live, ctx),
      role: 'tenants.instance.subscriptions.instance.addresses.instance.delete',
    },
  ],
};
