import { ISO_CODE, NAME } from './common-fields.js';
import { bodyFromFields, fieldsFromApi, pathId, updatableBody } from './fields.js';
import { subscriptionPath } from './subscription-path.js';
import type { FieldSpec, KindContext, KindDefinition, LiveObject } from './types.js';

const fields: readonly FieldSpec[] = [
  {
    name: 'sku',
    change: 'replace',
    type: 'string',
    doc: 'Product reference; identity of the template.',
    manifest: NAME,
  },
  { name: 'name', change: 'update', type: 'string', doc: 'Template name.', manifest: { required: true, minLength: 1 } },
  { name: 'description', change: 'update', type: 'string', doc: 'Template description.', manifest: { required: true } },
  {
    name: 'location',
    change: 'update',
    type: 'string',
    doc: 'ISO 3166 alpha-2 country.',
    manifest: { ...ISO_CODE, required: true },
  },
  {
    name: 'vrp',
    change: 'update',
    type: 'string',
    doc: 'Voice routing policy identity.',
    manifest: { required: true, minLength: 1 },
  },
  // Read for display only: the create and update calls do not accept it (Doc 2 §4.8).
  {
    name: 'voiceEnabled',
    change: 'readOnly',
    type: 'boolean',
    doc: '`voiceEnabled` is not accepted by the template create or update calls (Doc 2 §4.8); it would be ignored',
  },
  { name: 'groups', change: 'update', type: 'set', elements: 'string', doc: 'Group ids.' },
  { name: 'licenses', change: 'update', type: 'set', elements: 'string', doc: 'License sku ids.' },
  { name: 'customerLicenses', change: 'update', type: 'set', elements: 'string', doc: 'Customer license skus.' },
];

const collectionPath = (ctx: KindContext, ids: Readonly<Record<string, string>>): string =>
  `${subscriptionPath(ctx, ids)}/uc_alpha/templates`;
const itemPath = (live: LiveObject, ctx: KindContext): string =>
  `${collectionPath(ctx, live.ids)}/${pathId(live.ids, 'Template')}`;
const ROLE = 'tenants.instance.subscriptions.instance.uc_alpha.templates';

/**
 * Doc 2 §2.10, §4.8: user templates, identified by sku. Create answers 204 without an id
 * (the executor finds it by listing and matching the sku); the default template (id 0)
 * always exists and is never deleted.
 */
export const templateKind: KindDefinition = {
  kind: 'Template',
  parentKinds: ['Subscription'],
  collection: 'templates',
  manifest: {
    noun: 'template',
    collectionDoc: 'User templates (Doc 2 §2.10). The default template (id 0) is never deleted.',
    doc: 'A user template (Doc 2 §2.10), identified by its sku. The default template (id 0) is never deleted.',
    identity: ['sku'],
    refused: {
      id: { why: '`id` is assigned by the platform; a template is identified by its `sku`', readOnly: true },
    },
  },
  contract: {
    sample: {
      sku: 'KIND-TPL',
      name: 'Contract template',
      description: 'For the contract',
      location: 'BE',
      vrp: 'vrp-1',
    },
    update: { name: 'Contract template 2', licenses: ['LIC-1'] },
  },
  fields,
  identity: (f) => String(f['sku']),
  address: (parent, identity) => `${parent}/template/${identity}`,
  list: (parent, ctx) =>
    parent && { path: collectionPath(ctx, parent.ids), itemsKey: 'templates', style: 'none', role: `${ROLE}.list` },
  detail: {
    listed: ['sku', 'name', 'description'],
    request: (live, ctx) => ({ method: 'GET', path: itemPath(live, ctx), role: `${ROLE}.get` }),
  },
  fromApi: (item) => ({ id: String(item['id']), fields: fieldsFromApi(fields, item) }),
  createdId: { from: 'lookup' },
  create: (desired, parent, ctx) => [
    {
      method: 'POST',
      path: collectionPath(ctx, parent?.ids ?? {}),
      role: `${ROLE}.create`,
      body: bodyFromFields(fields, desired.fields),
    },
  ],
  update: (desired, live, ctx) => [
    { method: 'PUT', path: itemPath(live, ctx), role: `${ROLE}.update`, body: updatableBody(fields, desired.fields) },
  ],
  delete: (live, ctx) => [{ method: 'DELETE', path: itemPath(live, ctx), role: `${ROLE}.delete` }],
  isUndeletable: (live) => live.id === '0',
};
