import { billingIdField, NAME, SUSPENSION_PROFILE, UC_PLATFORMS } from './common-fields.js';
import { fieldsFromApi, pathId } from './fields.js';
import { subscriptionLicences } from './licences.js';
import { suspensionProfileId, suspensionProfileName } from './suspension.js';
import type { DesiredLike, FieldSpec, KindContext, KindDefinition, LiveObject, RequestSpec } from './types.js';

const fields: readonly FieldSpec[] = [
  {
    name: 'name',
    change: 'update',
    type: 'string',
    doc: 'Subscription name; identity inside the tenant.',
    manifest: NAME,
  },
  billingIdField({ required: true }),
  {
    name: 'uc',
    change: 'replace',
    type: 'string',
    doc: 'Unified-communications platform: uc_alpha, uc_beta or uc_gamma; one its group enables.',
    manifest: { enum: UC_PLATFORMS },
  },
  { name: 'suspensionProfile', api: 'suspensionProfileId', change: 'update', type: 'string', ...SUSPENSION_PROFILE },
];

const basePath = (ctx: KindContext, ids: Readonly<Record<string, string>>): string =>
  `${ctx.P}/tenants/${pathId(ids, 'Tenant')}/subscriptions`;

/**
 * Doc 2 §2.1, §4.1. Quirks: the read reports the suspension as the barring-profile id (a
 * string) while PUT requires the suspension profile's integer id, and requires it on every
 * update: an update that does not mean to touch the suspension must send the current one.
 */
export const subscriptionKind: KindDefinition = {
  kind: 'Subscription',
  parentKinds: ['Tenant'],
  collection: 'subscriptions',
  manifest: {
    noun: 'subscription',
    collectionDoc: 'Subscriptions of the tenant (Doc 2 §2.1).',
    doc: 'A subscription (Doc 2 §2.1): carries entitlements, numbers, addresses, locations, templates and calling plans. Licenses are changed by orders, not by the subscription API.',
    identity: ['name'],
    renamable: { field: 'name' },
    refused: {
      id: { why: '`id` is assigned by the platform; a subscription is identified by its `name`', readOnly: true },
      licenses: {
        why: '`licenses` cannot be set through the subscription API (Doc 2 §4.1); they are changed by orders',
        readOnly: true,
      },
      suspensionProfileId: { why: 'declare `suspensionProfile` by name (or null)' },
      numberOfUsers: { why: '`numberOfUsers` is computed by the platform', readOnly: true },
      numberOfTrunkgroups: { why: '`numberOfTrunkgroups` is computed by the platform', readOnly: true },
      phoneNumbers: {
        why: '`phoneNumbers` is computed by the platform; link numbers to addresses under `numbers`',
        readOnly: true,
      },
      isDeletable: { why: '`isDeletable` is computed by the platform', readOnly: true },
      assignedEntities: { why: '`assignedEntities` is computed by the platform', readOnly: true },
    },
  },
  contract: {
    sample: { name: 'contract-sub', billingId: 'T-KIND-SUB', uc: 'uc_alpha', suspensionProfile: null },
    update: { billingId: 'T-KIND-SUB-2', suspensionProfile: 'outgoing-barring' },
    replace: { uc: 'uc_beta' },
  },
  fields,
  holdsData: true,
  capacityReport: subscriptionLicences,
  liveReference: {
    field: 'uc',
    kind: 'EnabledUc',
    under: 'Group',
    code: 'SB_UC_NOT_ENABLED',
    why: 'the platform refuses a subscription on a UC platform its group does not enable (Doc 1 §4.2)',
  },
  identity: (f) => String(f['name']),
  address: (parent, identity) => `${parent}/subscription/${identity}`,
  list: (parent, ctx) =>
    parent && {
      path: basePath(ctx, parent.ids),
      itemsKey: 'subscriptions',
      style: 'page',
      role: 'tenants.instance.subscriptions.list',
    },
  fromApi: async (item, ctx) => {
    const normalised = fieldsFromApi(fields, item);
    normalised['suspensionProfile'] = await suspensionProfileName(item['suspensionProfileId'], ctx);
    return {
      id: String(item['id']),
      fields: normalised,
      facts: { barringProfileId: item['suspensionProfileId'] ?? null },
    };
  },
  createdId: { from: 'body', field: 'id' },
  create: async (desired, parent, ctx) => {
    const ids = parent?.ids ?? {};
    const body: Record<string, unknown> = { name: desired.fields['name'], billingId: desired.fields['billingId'] };
    if (desired.fields['uc'] != null) body['uc'] = desired.fields['uc'];
    const requests: RequestSpec[] = [
      { method: 'POST', path: basePath(ctx, ids), role: 'tenants.instance.subscriptions.create', body },
    ];
    if (desired.fields['suspensionProfile'] != null) {
      requests.push(await putRequest(`${basePath(ctx, ids)}/{id:${desired.address}}`, desired, undefined, ctx));
    }
    return requests;
  },
  update: async (desired, live, ctx) => [await putRequest(itemPath(live, ctx), desired, live, ctx)],
  delete: (live, ctx) => [
    // Doc 2 §4.1 names the update role for the delete endpoint.
    { method: 'DELETE', path: itemPath(live, ctx), role: 'tenants.instance.subscriptions.instance.update' },
  ],
};

function itemPath(live: LiveObject, ctx: KindContext): string {
  return `${basePath(ctx, live.ids)}/${pathId(live.ids, 'Subscription')}`;
}

async function putRequest(
  path: string,
  desired: DesiredLike,
  live: LiveObject | undefined,
  ctx: KindContext,
): Promise<RequestSpec> {
  const declared = 'suspensionProfile' in desired.fields;
  const profile = declared ? desired.fields['suspensionProfile'] : (live?.fields['suspensionProfile'] ?? null);
  const body: Record<string, unknown> = { suspensionProfileId: await suspensionProfileId(profile, ctx) };
  for (const name of ['name', 'billingId']) if (name in desired.fields) body[name] = desired.fields[name];
  return { method: 'PUT', path, role: 'tenants.instance.subscriptions.instance.update', body };
}
