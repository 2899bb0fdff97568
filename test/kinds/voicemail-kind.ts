import { bodyFromFields, fieldsFromApi, pathId, updatableBody } from '../../src/kinds/fields.js';
import { subscriptionPath } from '../../src/kinds/subscription-path.js';
import type { FieldSpec, KindDefinition, LiveObject } from '../../src/kinds/types.js';

/**
 * A made-up kind, as a new module of src/kinds/ would declare it (the platform has no
 * voicemail boxes): for new-kind.test.ts, which adds it to a copy of the kind table.
 */
const fields: readonly FieldSpec[] = [
  {
    name: 'box',
    change: 'replace',
    type: 'string',
    doc: 'The box number; its identity.',
    manifest: { pattern: '^[0-9]{3,6}$' },
  },
  {
    name: 'greeting',
    change: 'update',
    type: 'string',
    doc: 'The greeting callers hear.',
    manifest: { enum: ['default', 'custom'] },
  },
  {
    name: 'pin',
    change: 'writeOnly',
    type: 'string',
    sensitive: true,
    doc: 'The PIN of the box.',
    manifest: { pattern: '^[0-9]{4}$' },
  },
];

const itemPath = (live: LiveObject, path: string): string => `${path}/${pathId(live.ids, 'Voicemail')}`;

export const voicemailKind: KindDefinition = {
  kind: 'Voicemail',
  parentKinds: ['Subscription'],
  collection: 'voicemails',
  manifest: {
    noun: 'voicemail box',
    doc: 'A voicemail box of the subscription, by number.',
    identity: ['box'],
    refused: { id: { why: '`id` is assigned by the platform', readOnly: true } },
  },
  fields,
  identity: (f) => String(f['box']),
  address: (parent, identity) => `${parent}/voicemail/${identity}`,
  list: (parent, ctx) =>
    parent && { path: `${subscriptionPath(ctx, parent.ids)}/voicemails`, itemsKey: 'voicemails', style: 'none' },
  fromApi: (item) => ({ id: String(item['id']), fields: fieldsFromApi(fields, item) }),
  createdId: { from: 'body', field: 'id' },
  create: (desired, parent, ctx) => [
    {
      method: 'POST',
      path: `${subscriptionPath(ctx, parent?.ids ?? {})}/voicemails`,
      role: 'voicemails.create',
      body: bodyFromFields(fields, desired.fields),
    },
  ],
  update: (desired, live, ctx) => [
    {
      method: 'PUT',
      path: itemPath(live, `${subscriptionPath(ctx, live.ids)}/voicemails`),
      role: 'voicemails.update',
      body: updatableBody(fields, desired.fields),
    },
  ],
  delete: (live, ctx) => [
    {
      method: 'DELETE',
      path: itemPath(live, `${subscriptionPath(ctx, live.ids)}/voicemails`),
      role: 'voicemails.delete',
    },
  ],
  contract: { sample: { box: '100', greeting: 'default', pin: '1234' }, update: { greeting: 'custom' } },
};
