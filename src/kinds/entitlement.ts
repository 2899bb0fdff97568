import { SwitchboardError } from '../core/errors.js';
import { NAME } from './common-fields.js';
import { fieldsFromApi, pathId } from './fields.js';
import { subscriptionPath } from './subscription-path.js';
import type { FieldSpec, IdChain, KindContext, KindDefinition, LiveObject, ReferenceList } from './types.js';

/**
 * Doc 2 §4.1: a subscription's entitlement types. A subscription this plan creates has no
 * types endpoint yet (its id is a pending placeholder): the deprecated instance-wide
 * `P/public/entitlement_types` stands in.
 */
export const ENTITLEMENT_TYPES: ReferenceList<{ id: number; name: string }> = {
  name: 'entitlement types',
  source: (P, ids) => {
    const subscription = ids['Subscription'];
    // Both answers carry `pagination` (Doc 2 §4.1): read in page style, every page.
    if (subscription === undefined || subscription.startsWith('{id:')) {
      return { path: `${P}/public/entitlement_types`, itemsKey: 'entitlementTypes', style: 'page' };
    }
    return {
      path: `${subscriptionPath({ P }, ids)}/entitlement_types`,
      itemsKey: 'entitlementTypes',
      style: 'page',
      role: 'tenants.instance.subscriptions.instance.entitlement_types.read',
    };
  },
  shape: { id: 'integer', name: 'string' },
  value: (item) => ({ id: Number(item['id']), name: String(item['name']) }),
};

const fields: readonly FieldSpec[] = [
  // The live entitlement names its type but carries no licenseModelId (Doc 2 §2.3).
  {
    name: 'type',
    api: 'name',
    change: 'replace',
    type: 'string',
    doc: 'Entitlement type, by name; identity inside the subscription.',
    manifest: { ...NAME, examples: ['BE geo'] },
  },
  {
    name: 'entitlement',
    change: 'update',
    type: 'integer',
    doc: 'Quantity of numbers that can be selected (default 0).',
    manifest: { minimum: 0 },
  },
  {
    name: 'externalReference',
    change: 'writeOnly',
    type: 'string',
    doc: 'External reference; write-only (not returned by the entitlement list).',
  },
];

const counted = (name: string) => ({ why: `\`${name}\` is counted by the platform`, readOnly: true });
const ofType = (name: string) => ({ why: `\`${name}\` comes from the entitlement type`, readOnly: true });

const itemPath = (live: LiveObject, ctx: KindContext): string =>
  `${subscriptionPath(ctx, live.ids)}/entitlements/${pathId(live.ids, 'Entitlement')}`;

/** Doc 2 §2.3, §4.3: number entitlements, one per entitlement type. */
export const entitlementKind: KindDefinition = {
  kind: 'Entitlement',
  parentKinds: ['Subscription'],
  collection: 'entitlements',
  manifest: {
    noun: 'entitlement',
    collectionDoc: 'Number entitlements (Doc 2 §2.3).',
    doc: 'A number entitlement: how many numbers of a type may be selected (Doc 2 §2.3). Give exactly one of type (name) or typeId. It cannot go below its assigned count, nor be deleted while numbers are assigned.',
    identity: ['type', 'typeId'],
    identityAlternatives: true,
    extraFields: [
      {
        name: 'typeId',
        type: 'integer',
        doc: "Entitlement type, by id (the create call's licenseModelId).",
        manifest: { minimum: 0 },
      },
    ],
    refused: {
      assigned: counted('assigned'),
      reserved: counted('reserved'),
      disconnected: counted('disconnected'),
      id: { why: '`id` is assigned by the platform; an entitlement is identified by its `type`', readOnly: true },
      countryCode: ofType('countryCode'),
      isoCode: ofType('isoCode'),
      numberType: ofType('numberType'),
      regions: { why: "`regions` depends on the account's locations", readOnly: true },
      addressRequired: ofType('addressRequired'),
    },
  },
  contract: {
    sample: { type: 'BE mobile', entitlement: 3, externalReference: 'contract-ref' },
    update: { entitlement: 4, externalReference: 'contract-ref-2' },
  },
  fields,
  identity: (f) => String(f['type'] ?? f['typeId']),
  // Manifests may name the type by id; the live entitlement only carries the type's name. A
  // `type` of digits that names no type is an id too, as the create call takes it
  // (entitlementTypeId): planned by its name, it is found live and never created again.
  canonicalize: async (desired, ctx) => {
    const { type, typeId, ...fields } = desired.fields;
    const digits = typeof type === 'string' && /^\d+$/.test(type);
    if (type !== undefined ? !digits : typeId === undefined) return desired;
    const types = await ctx.refs.read(ENTITLEMENT_TYPES);
    if (type !== undefined && types.some((t) => t.name === type)) return desired;
    const id = type ?? typeId;
    const found = types.find((t) => String(t.id) === String(id));
    if (!found) {
      const what = type !== undefined ? `type "${String(type)}"` : `type id ${String(typeId)}`;
      throw new SwitchboardError('SB_UNKNOWN_REFERENCE', `unknown entitlement ${what}`);
    }
    const parent = desired.address.slice(0, desired.address.lastIndexOf('/entitlement/'));
    return { address: `${parent}/entitlement/${found.name}`, fields: { ...fields, type: found.name } };
  },
  address: (parent, identity) => `${parent}/entitlement/${identity}`,
  list: (parent, ctx) =>
    parent && {
      path: `${subscriptionPath(ctx, parent.ids)}/entitlements`,
      itemsKey: 'entitlements',
      style: 'none',
      role: 'tenants.instance.subscriptions.instance.entitlements.list',
    },
  fromApi: (item) => ({
    id: String(item['id']),
    fields: fieldsFromApi(fields, item),
    // Both only served when at least 1 (Doc 2 §2.3).
    facts: { assigned: Number(item['assigned'] ?? 0), reserved: Number(item['reserved'] ?? 0) },
  }),
  createdId: { from: 'body', field: 'id' },
  create: async (desired, parent, ctx) => {
    const ids = parent?.ids ?? {};
    const body: Record<string, unknown> = { licenseModelId: await entitlementTypeId(desired.fields['type'], ids, ctx) };
    if ('entitlement' in desired.fields) body['entitlement'] = desired.fields['entitlement'];
    if ('externalReference' in desired.fields) body['externalReference'] = desired.fields['externalReference'];
    return [
      {
        method: 'POST',
        path: `${subscriptionPath(ctx, ids)}/entitlements`,
        // The spec spells this role without `.instance` after subscriptions.
        role: 'tenants.instance.subscriptions.entitlements.create',
        body,
      },
    ];
  },
  update: (desired, live, ctx) => {
    const body: Record<string, unknown> = {};
    for (const name of ['entitlement', 'externalReference'])
      if (name in desired.fields) body[name] = desired.fields[name];
    return [
      {
        method: 'PUT',
        path: itemPath(live, ctx),
        role: 'tenants.instance.subscriptions.entitlements.instance.update',
        body,
      },
    ];
  },
  delete: (live, ctx) => [
    {
      method: 'DELETE',
      path: itemPath(live, ctx),
      role: 'tenants.instance.subscriptions.entitlements.instance.delete',
    },
  ],
  // Reserved numbers are not counted when entitlements are enforced (Doc 2 §2.3): shown, not subtracted.
  capacity: (desired, live) => {
    const declared = desired && desired.fields['entitlement'] != null ? Number(desired.fields['entitlement']) : null;
    // A create without `entitlement` gets the API's default, 0 (Doc 2 §4.3).
    const quantity = declared ?? Number(live?.fields['entitlement'] ?? 0);
    const assigned = Number(live?.facts?.['assigned'] ?? 0);
    return {
      subject: `entitlement ${String(desired?.fields['type'] ?? live?.fields['type'])}`,
      declared: quantity,
      assigned,
      reserved: Number(live?.facts?.['reserved'] ?? 0),
      headroom: quantity - assigned,
      of: quantity,
    };
  },
  checkUpdate: (desired, live) => {
    const wanted = Number(desired.fields['entitlement']);
    const assigned = Number(live.facts?.['assigned'] ?? 0);
    if ('entitlement' in desired.fields && wanted < assigned) {
      return `entitlement ${wanted} is below the ${assigned} numbers already assigned (Doc 2 §4.3)`;
    }
    return undefined;
  },
  checkDelete: (live) => {
    const assigned = Number(live.facts?.['assigned'] ?? 0);
    return assigned > 0
      ? `${assigned} numbers are assigned under this entitlement; the API refuses its delete (Doc 2 §4.3)`
      : undefined;
  },
};

/** Entitlement types are named in manifests (or given by id); the API wants the id. */
async function entitlementTypeId(type: unknown, ids: IdChain, ctx: KindContext): Promise<number> {
  const types = await ctx.refs.read(ENTITLEMENT_TYPES, ids);
  const found = types.find((t) => t.name === type || String(t.id) === String(type));
  if (!found) throw new SwitchboardError('SB_UNKNOWN_REFERENCE', `unknown entitlement type "${String(type)}"`);
  return found.id;
}
