import { SwitchboardError } from '../core/errors.js';
import { fieldsFromApi, pathId } from './fields.js';
import { subscriptionPath } from './subscription-path.js';
import type { FieldSpec, KindContext, KindDefinition, LiveObject, ReferenceList } from './types.js';

/** Doc 2 §4.7: the postal codes a location may name, by code (the API wants their ids). */
export const POSTAL_CODES: ReferenceList<{ id: number; code: string; isoCode?: string; city?: string }> = {
  name: 'postal codes',
  source: (P) => ({ path: `${P}/public/postal_codes`, itemsKey: 'postalCodes', style: 'page' }),
  shape: { id: 'integer', code: 'scalar', city: 'string?', country: 'object?' },
  value: (item) => {
    const country = item['country'] as { isoCode?: unknown } | undefined;
    const isoCode = typeof country?.isoCode === 'string' && country.isoCode ? country.isoCode : undefined;
    const city = typeof item['city'] === 'string' && item['city'] ? item['city'] : undefined;
    return {
      id: Number(item['id']),
      code: String(item['code']),
      ...(isoCode ? { isoCode } : {}),
      ...(city ? { city } : {}),
    };
  },
};

const fields: readonly FieldSpec[] = [
  { name: 'street', change: 'update', type: 'string', doc: 'Street.', manifest: { minLength: 1 } },
  {
    name: 'number',
    change: 'update',
    type: 'string',
    doc: 'House number.',
    manifest: { integerAsText: true, minLength: 1 },
  },
  {
    name: 'postalCode',
    change: 'update',
    type: 'string',
    doc: "Postal code (translated to the platform's postal-code id).",
    manifest: { integerAsText: true, minLength: 1, examples: ['1000'] },
  },
  { name: 'postbox', change: 'update', type: 'string', doc: 'Post box; optional.' },
  {
    name: 'postalCodeId',
    change: 'update',
    type: 'integer',
    doc: "The platform's id of the postal code (Document 2 §4.7). When given it is sent as is; without it the id is looked up by postalCode, which needs the platform's postal-code list (not shown in the API documents). Must name the same postal code as postalCode.",
    manifest: { minimum: 1 },
  },
];

const collectionPath = (ctx: KindContext, ids: Readonly<Record<string, string>>): string =>
  `${subscriptionPath(ctx, ids)}/locations`;
const itemPath = (live: LiveObject, ctx: KindContext): string =>
  `${collectionPath(ctx, live.ids)}/${pathId(live.ids, 'Location')}`;

/**
 * POST and PUT L want `postalCodeId` (Doc 2 §4.7). A manifest may give it; otherwise it is
 * looked up by the postal code, through a list the documents do not show (it may not exist).
 */
async function body(values: Record<string, unknown>, ctx: KindContext): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  for (const name of ['street', 'number', 'postbox']) if (name in values) result[name] = values[name];
  if ('postalCodeId' in values) result['postalCodeId'] = Number(values['postalCodeId']);
  else if ('postalCode' in values) result['postalCodeId'] = await postalCodeId(String(values['postalCode']), ctx);
  return result;
}

async function postalCodeId(code: string, ctx: KindContext): Promise<number> {
  let codes: { id: number; code: string }[];
  try {
    codes = await ctx.refs.read(POSTAL_CODES);
  } catch (error) {
    // The API client's error for the read names its status (kinds do not import the client).
    if ((error as { status?: unknown }).status !== 404) throw error;
    throw new SwitchboardError(
      'SB_UNKNOWN_REFERENCE',
      `the platform has no postal-code list (GET ${ctx.P}/public/postal_codes answered 404; the API documents show none): declare postalCodeId next to postalCode "${code}"`,
    );
  }
  const found = codes.find((c) => c.code === code);
  if (!found) throw new SwitchboardError('SB_UNKNOWN_REFERENCE', `unknown postal code "${code}"`);
  return found.id;
}

/** Doc 2 §2.8, §4.7: allowed locations, identified by street, number and postal code. */
export const locationKind: KindDefinition = {
  kind: 'Location',
  parentKinds: ['Subscription'],
  collection: 'locations',
  manifest: {
    noun: 'location',
    collectionDoc: 'Allowed locations (Doc 2 §2.8).',
    doc: 'An allowed location (Doc 2 §2.8). Identity: "<street> <number> <postalCode>".',
    identity: ['street', 'number', 'postalCode'],
    refused: { id: { why: '`id` is assigned by the platform', readOnly: true } },
  },
  contract: { sample: { street: 'Contract Street', number: '9', postalCode: '1050' }, update: { postbox: 'PB 7' } },
  fields,
  identity: (f) => `${String(f['street'])} ${String(f['number'])} ${String(f['postalCode'])}`,
  address: (parent, identity) => `${parent}/location/${identity}`,
  list: (parent, ctx) =>
    parent && {
      path: collectionPath(ctx, parent.ids),
      itemsKey: 'locations',
      style: 'none',
      role: 'tenants.instance.subscriptions.instance.locations.list',
    },
  itemProblem: (item) => {
    const code = postalCodeOf(item);
    return code === undefined || code === null || typeof code === 'string' || typeof code === 'number'
      ? undefined
      : `"postalCode" holds ${Array.isArray(code) ? 'a list' : 'an object'}, not a code`;
  },
  fromApi: (item) => ({
    id: String(item['id']),
    fields: {
      ...fieldsFromApi(fields, { ...item, postalCode: postalCodeOf(item), postalCodeId: postalCodeOf(item, 'id') }),
    },
  }),
  createdId: { from: 'body', field: 'id' },
  create: async (desired, parent, ctx) => [
    {
      method: 'POST',
      path: collectionPath(ctx, parent?.ids ?? {}),
      role: 'tenants.instance.subscriptions.instance.locations.create',
      body: await body(desired.fields, ctx),
    },
  ],
  update: async (desired, live, ctx, changed) => {
    const values: Record<string, unknown> = {};
    for (const name of changed) values[name] = desired.fields[name];
    return [
      {
        method: 'PUT',
        path: itemPath(live, ctx),
        role: 'tenants.instance.subscriptions.instance.locations.instance.update',
        body: await body(values, ctx),
      },
    ];
  },
  delete: (live, ctx) => [
    {
      method: 'DELETE',
      path: itemPath(live, ctx),
      role: 'tenants.instance.subscriptions.instance.locations.instance.delete',
    },
  ],
};

/** Doc 2 §2.8: `postalCode` is an object holding the code and the id (some reads give the code itself). */
function postalCodeOf(item: Record<string, unknown>, key: 'code' | 'id' = 'code'): unknown {
  const postal = item['postalCode'];
  if (postal && typeof postal === 'object' && !Array.isArray(postal)) return (postal as Record<string, unknown>)[key];
  return key === 'code' ? postal : undefined;
}
