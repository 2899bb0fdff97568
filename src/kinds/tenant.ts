import { billingIdField, NAME } from './common-fields.js';
import { bodyFromFields, fieldsFromApi, pathId, updatableBody } from './fields.js';
import { ownerBody, ownerFromItem, parentQuery } from './owner.js';
import type { FieldSpec, KindDefinition } from './types.js';

const fields: readonly FieldSpec[] = [
  {
    name: 'name',
    change: 'update',
    type: 'string',
    doc: 'Tenant name; searchable; unique among tenants of the manifest set.',
    manifest: NAME,
  },
  billingIdField(),
  { name: 'markup', change: 'update', type: 'number', doc: 'Markup in percent, relative (float).' },
];

/** Doc 1 §2.5, §4.4: tenants under a group, a distributor or a reseller. */
export const tenantKind: KindDefinition = {
  kind: 'Tenant',
  parentKinds: ['Group', 'Distributor', 'Reseller'],
  manifest: {
    noun: 'tenant',
    doc: 'A tenant: an organization with one or more subscriptions (Doc 1 §2.5). Subscription-level objects are nested, so one tenant reads as one unit in review.',
    identity: ['name'],
    document: { schema: 'tenant.schema.json', metadataFields: ['name'], pinnable: true, baselines: true },
    renamable: { field: 'name' },
    refused: {
      owner: { why: 'the owner is the parent given in metadata (`group:`, `distributor:` or `reseller:`)' },
      uuid: {
        why: '`uuid` is assigned by the platform and cannot be set; to bind this document to an existing tenant, give `metadata.uuid`',
        readOnly: true,
      },
      markups: { why: '`markups` is the read-only history; declare `markup`', readOnly: true },
      numberOfSubscriptions: { why: '`numberOfSubscriptions` is computed by the platform', readOnly: true },
      suspensionProfile: {
        why: 'a tenant cannot be suspended through the API; set `suspensionProfile` on its subscriptions or its reseller',
      },
    },
  },
  contract: {
    sample: { name: 'contract-tenant', billingId: 'T-KIND', markup: 2 },
    update: { billingId: 'T-KIND-2', markup: 3 },
  },
  fields,
  holdsData: true,
  fixedParent: {
    reference: 'Document 1 §4.4: "Owner cannot be changed through the API"',
    remedy:
      'declare a new tenant (another name and billingId) under the new owner, move its subscriptions there, then delete the old one',
  },
  identity: (f) => String(f['name']),
  address: (_parent, identity) => `tenant/${identity}`,
  list: (parent, ctx) => ({
    path: `${ctx.P}/tenants`,
    itemsKey: 'tenants',
    style: 'token',
    role: 'tenants.list',
    query: parentQuery(parent),
  }),
  ownerOf: ownerFromItem,
  fromApi: (item) => ({ id: String(item['uuid']), fields: fieldsFromApi(fields, item) }),
  createdId: { from: 'body', field: 'uuid' },
  create: (desired, parent, ctx) => [
    {
      method: 'POST',
      path: `${ctx.P}/tenants`,
      role: 'tenants.create',
      body: { ...bodyFromFields(fields, desired.fields), owner: ownerBody(parent) },
    },
  ],
  update: (desired, live, ctx) => [
    {
      method: 'PUT',
      path: `${ctx.P}/tenants/${pathId(live.ids, 'Tenant')}`,
      role: 'tenants.instance.update',
      body: updatableBody(fields, desired.fields),
    },
  ],
  delete: (live, ctx) => [
    { method: 'DELETE', path: `${ctx.P}/tenants/${pathId(live.ids, 'Tenant')}`, role: 'tenants.instance.delete' },
  ],
};
