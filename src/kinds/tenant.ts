import { bodyFromFields, fieldsFromApi, pathId, updatableBody } from './fields.js';
import { ownerBody, ownerFromItem, parentQuery } from './owner.js';
import type { FieldSpec, KindDefinition } from './types.js';

const fields: readonly FieldSpec[] = [
  { name: 'name', change: 'update', type: 'string' },
  { name: 'billingId', change: 'update', type: 'string' },
  { name: 'markup', change: 'update', type: 'number' },
];

/** Doc 1 §2.5, §4.4: tenants under a group, a distributor or a reseller. */
export const tenantKind: KindDefinition = {
  kind: 'Tenant',
  parentKinds: ['Group', 'Distributor', 'Reseller'],
  manifest: {
    noun: 'tenant',
    identity: ['name'],
    document: { schema: 'tenant.schema.json', metadataFields: ['name'], pinnable: true },
    renamable: { field: 'name' },
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
