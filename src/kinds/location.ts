import { SwitchboardError } from '../core/errors.js';
import { fieldsFromApi, pathId } from './fields.js';
import { subscriptionPath } from './subscription-path.js';
import type { FieldSpec, KindContext, KindDefinition, LiveObject } from './types.js';

const fields: readonly FieldSpec[] = [
  { name: 'street', change: 'update', type: 'string' },
  { name: 'number', change: 'update', type: 'string' },
  { name: 'postalCode', change: 'update', type: 'string' },
  { name: 'postbox', change: 'update', type: 'string' },
];

const collectionPath = (ctx: KindContext, ids: Readonly<Record<string, string>>): string =>
  `${subscriptionPath(ctx, ids)}/locations`;
const itemPath = (live: LiveObject, ctx: KindContext): string =>
  `${collectionPath(ctx, live.ids)}/${pathId(live.ids, 'Location')}`;

/** Manifests give the postal code; POST and PUT L want `postalCodeId` (Doc 2 §4.7). */
async function body(values: Record<string, unknown>, ctx: KindContext): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  for (const name of ['street', 'number', 'postbox']) if (name in values) result[name] = values[name];
  if ('postalCode' in values) {
    const codes = await ctx.refs.postalCodes();
    const found = codes.find((c) => c.code === String(values['postalCode']));
    if (!found) throw new SwitchboardError('SB_UNKNOWN_REFERENCE', `unknown postal code "${String(values['postalCode'])}"`);
    result['postalCodeId'] = found.id;
  }
  return result;
}

/** Doc 2 §2.8, §4.7: allowed locations, identified by street, number and postal code. */
export const locationKind: KindDefinition = {
  kind: 'Location',
  parentKinds: ['Subscription'],
  collection: 'locations',
  manifest: { noun: 'location', identity: ['street', 'number', 'postalCode'] },
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
    return code === undefined || code === null || typeof code === 'string' || typeof code === 'number' ? undefined : `"postalCode" holds ${Array.isArray(code) ? 'a list' : 'an object'}, not a code`;
  },
  fromApi: (item) => ({ id: String(item['id']), fields: { ...fieldsFromApi(fields, { ...item, postalCode: postalCodeOf(item) }) } }),
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
    { method: 'DELETE', path: itemPath(live, ctx), role: 'tenants.instance.subscriptions.instance.locations.instance.delete' },
  ],
};

/** Doc 2 §2.8: `postalCode` is an object holding the code (some reads give the code itself). */
function postalCodeOf(item: Record<string, unknown>): unknown {
  const postal = item['postalCode'];
  return postal && typeof postal === 'object' && !Array.isArray(postal) ? (postal as Record<string, unknown>)['code'] : postal;
}
