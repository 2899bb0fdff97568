import { UC_PLATFORMS } from './common-fields.js';
import { fieldsFromApi, pathId } from './fields.js';
import type { FieldSpec, KindDefinition } from './types.js';

const fields: readonly FieldSpec[] = [
  {
    name: 'uc',
    change: 'replace',
    type: 'string',
    doc: 'The platform: uc_alpha, uc_beta or uc_gamma.',
    manifest: { enum: UC_PLATFORMS },
  },
];

/**
 * Doc 1 §4.2: the unified-communications platforms a group enables (`GET G/enabled_ucs`, an
 * array of strings; system administrators only). The API only lists them: a declared one
 * that is not enabled fails the plan (nothing can create it), an undeclared one is never
 * deleted. A subscription's `uc` must be one of its group's (subscription.ts
 * `liveReference`), which the plan checks before anything is sent.
 */
export const enabledUcKind: KindDefinition = {
  kind: 'EnabledUc',
  parentKinds: ['Group'],
  collection: 'enabledUcs',
  manifest: {
    noun: 'enabled UC platform',
    collectionDoc:
      "The unified-communications platforms the group enables (Doc 1 §4.2); a subscription's uc must be one of them.",
    doc: 'An enabled unified-communications platform of the group, identified by its name.',
    identity: ['uc'],
  },
  contract: { sample: { uc: 'uc_alpha' } },
  fields,
  cannotDelete: 'the platform API cannot disable a UC platform of a group (Doc 1 §4.2 only lists them)',
  identity: (f) => String(f['uc']),
  address: (parent, identity) => `${parent}/enabled_uc/${identity}`,
  list: (parent, ctx) =>
    parent && {
      path: `${ctx.P}/groups/${pathId(parent.ids, 'Group')}/enabled_ucs`,
      itemsKey: 'enabled_ucs',
      style: 'none',
      role: 'groups.instance.enabled_ucs.list',
      scalarItems: 'uc',
    },
  fromApi: (item) => ({ id: String(item['uc']), fields: fieldsFromApi(fields, item) }),
};
