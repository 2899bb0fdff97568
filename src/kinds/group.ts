import { fieldsFromApi, bodyFromFields, updatableBody, pathId } from './fields.js';
import type { FieldSpec, KindDefinition } from './types.js';

const fields: readonly FieldSpec[] = [
  { name: 'name', change: 'update', type: 'string' },
  { name: 'draasDomain', change: 'update', type: 'string' },
];

/** Doc 1 §2.3, §4.2: groups, administered by system administrators only. */
export const groupKind: KindDefinition = {
  kind: 'Group',
  parentKinds: [],
  manifest: {
    noun: 'group',
    identity: ['name'],
    document: { schema: 'group.schema.json', metadataFields: ['name'], pinnable: true },
    renamable: { field: 'name' },
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
