import { NAME } from './common-fields.js';
import { fieldsFromApi, bodyFromFields, updatableBody, pathId } from './fields.js';
import type { FieldSpec, KindDefinition } from './types.js';

const fields: readonly FieldSpec[] = [
  {
    name: 'name',
    change: 'update',
    type: 'string',
    doc: 'Group name; searchable; unique among groups.',
    manifest: NAME,
  },
  {
    name: 'draasDomain',
    change: 'update',
    type: 'string',
    doc: 'Global domain of the group; searchable.',
    manifest: { minLength: 1 },
  },
];

/** Doc 1 §2.3, §4.2: groups, administered by system administrators only. */
export const groupKind: KindDefinition = {
  kind: 'Group',
  parentKinds: [],
  manifest: {
    noun: 'group',
    doc: 'A group: the top-level company (Doc 1 §2.3). Only system administrators administer groups.',
    identity: ['name'],
    document: { schema: 'group.schema.json', metadataFields: ['name'], pinnable: true },
    renamable: { field: 'name' },
    refused: {
      uuid: {
        why: '`uuid` is assigned by the platform and cannot be set; to bind this document to an existing group, give `metadata.uuid`',
        readOnly: true,
      },
      nbOfDistributors: { why: '`nbOfDistributors` is computed by the platform', readOnly: true },
      nbOfResellers: { why: '`nbOfResellers` is computed by the platform', readOnly: true },
      nbOfTenants: { why: '`nbOfTenants` is computed by the platform', readOnly: true },
    },
  },
  contract: {
    sample: { name: 'contract-group', draasDomain: 'contract.example.net' },
    update: { draasDomain: 'contract-2.example.net' },
  },
  fields,
  identity: (f) => String(f['name']),
  address: (_parent, identity) => `group/${identity}`,
  list: (_parent, ctx) => ({ path: `${ctx.P}/groups`, itemsKey: 'groups', style: 'token', role: 'groups.list' }),
  fromApi: (item) => ({ id: String(item['uuid']), fields: fieldsFromApi(fields, item) }),
  createdId: { from: 'body', field: 'uuid' },
  create: (desired, _parent, ctx) => [
    { method: 'POST', path: `${ctx.P}/groups`, role: 'groups.create', body: bodyFromFields(fields, desired.fields) },
  ],
  update: (desired, live, ctx) => [
    {
      method: 'PUT',
      path: `${ctx.P}/groups/${pathId(live.ids, 'Group')}`,
      role: 'groups.instance.update',
      body: updatableBody(fields, desired.fields),
    },
  ],
  delete: (live, ctx) => [
    { method: 'DELETE', path: `${ctx.P}/groups/${pathId(live.ids, 'Group')}`, role: 'groups.instance.delete' },
  ],
};
