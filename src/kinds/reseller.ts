import { billingIdField, NAME, SUSPENSION_PROFILE } from './common-fields.js';
import { bodyFromFields, fieldsFromApi, pathId, updatableBody } from './fields.js';
import { ownerBody, ownerFromItem, parentQuery } from './owner.js';
import { suspensionProfileId } from './suspension.js';
import type { FieldSpec, KindDefinition, RequestSpec } from './types.js';

const fields: readonly FieldSpec[] = [
  {
    name: 'name',
    change: 'update',
    type: 'string',
    doc: 'Reseller name; searchable; unique among resellers of the manifest set.',
    manifest: NAME,
  },
  billingIdField(),
  { name: 'markup', change: 'update', type: 'number', doc: 'Latest active markup, in percent (float).' },
  // Doc 1 §2.4: the reseller read shows `status: suspended` but never which profile.
  { name: 'suspensionProfile', change: 'writeOnly', type: 'string', ...SUSPENSION_PROFILE },
];

const apiFields = fields.filter((f) => f.name !== 'suspensionProfile');

/** Doc 1 §2.4, §4.3: resellers under a group or a distributor. */
export const resellerKind: KindDefinition = {
  kind: 'Reseller',
  parentKinds: ['Group', 'Distributor'],
  manifest: {
    noun: 'reseller',
    doc: 'A reseller manages tenants; it is managed by a group or a distributor (Doc 1 §2.4).',
    identity: ['name'],
    document: { schema: 'reseller.schema.json', metadataFields: ['name'], pinnable: true },
    renamable: { field: 'name' },
    refused: {
      owner: { why: 'the owner is the parent given in metadata (`group:` or `distributor:`)' },
      uuid: {
        why: '`uuid` is assigned by the platform and cannot be set; to bind this document to an existing reseller, give `metadata.uuid`',
        readOnly: true,
      },
      markups: { why: '`markups` is the read-only history; declare `markup`', readOnly: true },
      status: { why: '`status` is read-only; declare `suspensionProfile` to suspend', readOnly: true },
      nbOfTenants: { why: '`nbOfTenants` is computed by the platform', readOnly: true },
    },
  },
  contract: {
    sample: { name: 'contract-reseller', billingId: 'R-KIND', markup: 1 },
    update: { markup: 2, suspensionProfile: 'full-barring' },
  },
  fields,
  fixedParent: {
    reference: 'Document 1 §4.3: "The owner cannot be changed through the API"',
    remedy:
      'declare a new reseller (another name and billingId) under the new owner, move its tenants there, then delete the old one',
  },
  identity: (f) => String(f['name']),
  address: (_parent, identity) => `reseller/${identity}`,
  list: (parent, ctx) => ({
    path: `${ctx.P}/resellers`,
    itemsKey: 'resellers',
    style: 'token',
    role: 'resellers.list',
    query: parentQuery(parent),
  }),
  ownerOf: ownerFromItem,
  fromApi: (item) => ({
    id: String(item['uuid']),
    fields: fieldsFromApi(apiFields, item),
    facts: { status: item['status'] },
  }),
  createdId: { from: 'body', field: 'uuid' },
  create: async (desired, parent, ctx) => {
    const body = { ...bodyFromFields(apiFields, desired.fields), owner: ownerBody(parent) };
    const requests: RequestSpec[] = [{ method: 'POST', path: `${ctx.P}/resellers`, role: 'resellers.create', body }];
    if (desired.fields['suspensionProfile'] != null) {
      requests.push(
        await suspend(`${ctx.P}/resellers/{id:${desired.address}}`, desired.fields['suspensionProfile'], ctx),
      );
    }
    return requests;
  },
  update: async (desired, live, ctx, changed) => {
    const path = `${ctx.P}/resellers/${pathId(live.ids, 'Reseller')}`;
    const requests: RequestSpec[] = [];
    if (changed.some((name) => name !== 'suspensionProfile')) {
      requests.push({
        method: 'PUT',
        path,
        role: 'resellers.instance.update',
        body: updatableBody(apiFields, desired.fields),
      });
    }
    if (changed.includes('suspensionProfile'))
      requests.push(await suspend(path, desired.fields['suspensionProfile'], ctx));
    return requests;
  },
  delete: (live, ctx) => [
    { method: 'DELETE', path: `${ctx.P}/resellers/${pathId(live.ids, 'Reseller')}`, role: 'resellers.instance.delete' },
  ],
};

async function suspend(
  resellerPath: string,
  profileName: unknown,
  ctx: Parameters<typeof suspensionProfileId>[1],
): Promise<RequestSpec> {
  return {
    method: 'PUT',
    path: `${resellerPath}/suspension_profile`,
    // Doc 1 §4.3 does not name this endpoint's role; the simulator and the docs use this one.
    role: 'resellers.instance.suspension_profile.update',
    body: { suspensionProfileId: await suspensionProfileId(profileName, ctx) },
  };
}
