import { ISO_CODE, NAME } from './common-fields.js';
import { fieldsFromApi, pathId } from './fields.js';
import { subscriptionPath } from './subscription-path.js';
import type { FieldSpec, IdChain, KindContext, KindDefinition, LiveObject } from './types.js';

/**
 * Calling plans (Doc 2 §2.11, §4.9, §4.10): a group's block lists and a trunk group's
 * block and allow lists, all of one shape. The name is the identity; an update can change
 * only the name (spec README), so any other declared difference is a replace, and the new
 * list is created before the old one is deleted so calls are never left unblocked.
 */
const planFields: readonly FieldSpec[] = [
  {
    name: 'name',
    change: 'update',
    type: 'string',
    doc: 'Name of the calling plan; identity inside its parent.',
    manifest: NAME,
  },
  { name: 'country', change: 'replace', type: 'string', doc: 'Country name.' },
  {
    name: 'countryCode',
    change: 'replace',
    type: 'string',
    doc: 'Phone country code.',
    manifest: { integerAsText: true, pattern: '^[0-9]{1,4}$', examples: ['32'] },
  },
  { name: 'isoCode', change: 'replace', type: 'string', doc: 'Two-letter ISO 3166 country code.', manifest: ISO_CODE },
  { name: 'region', change: 'replace', type: 'string', doc: 'Region of the calling plan.' },
  // Read for display only: the create and update calls do not accept it (Doc 2 §4.9).
  {
    name: 'classification',
    change: 'readOnly',
    type: 'string',
    doc: '`classification` is not accepted by the calling-plan create or update calls (Doc 2 §4.9); it would be ignored',
  },
];

/** The form of every calling plan's items, whichever list holds them. */
const planForm = {
  doc: 'A calling plan (Doc 2 §2.11): a block list reduces the prefixes of a country and classification that may be called; an allow list defines exceptions. Only name can be updated; a change of the other fields replaces the list (the new list is created before the old one is deleted).',
  identity: ['name'],
  renamable: { field: 'name' },
  schemaDef: 'callingPlan',
  refused: {
    risk: {
      why: '`risk` is not accepted by the calling-plan create or update calls (Doc 2 §4.9); it would be ignored',
      readOnly: true,
    },
    type: {
      why: "`type` comes from where the list is declared (`blockList` or `allowList`; a group's `callingPlans` are block lists)",
      readOnly: true,
    },
    id: { why: '`id` is assigned by the platform; a calling plan is identified by its `name`', readOnly: true },
  },
} as const;

interface PlanFlavour {
  kind: string;
  /** The manifest's word for one list. */
  noun: string;
  /** What the parent's collection of these lists is. */
  collectionDoc: string;
  parentKind: string;
  collection: string;
  segment: string;
  type: 'block_list' | 'allow_list';
  basePath(ctx: KindContext, ids: IdChain): string;
  /** Roles by operation, as the spec names them (or as chosen where it does not). */
  roles: { list: string; create: string; update: string; delete: string; prefixes: string };
}

const trunkGroupPath = (ctx: KindContext, ids: IdChain): string =>
  `${subscriptionPath(ctx, ids)}/trunkgroups/${pathId(ids, 'TrunkGroup')}`;
const TG = 'tenants.instance.subscriptions.instance.trunk_group.instance';

const flavours: readonly PlanFlavour[] = [
  {
    kind: 'GroupCallingPlan',
    noun: 'block list',
    collectionDoc: 'The group block list (Doc 2 §4.9): calling plans of type block_list, each with its prefixes.',
    parentKind: 'Group',
    collection: 'callingPlans',
    segment: 'block_list',
    type: 'block_list',
    basePath: (ctx, ids) => `${ctx.P}/groups/${pathId(ids, 'Group')}/block_list`,
    roles: {
      list: 'groups.instance.block_list.instance.list',
      create: 'groups.instance.block_list.create',
      update: 'groups.instance.block_list.instance.update',
      delete: 'groups.instance.block_list.instance.delete',
      prefixes: 'groups.instance.block_list.instance.prefixes',
    },
  },
  {
    kind: 'TrunkGroupBlockList',
    noun: 'block list',
    collectionDoc: 'Block lists of the trunk group (Doc 2 §4.10).',
    parentKind: 'TrunkGroup',
    collection: 'blockList',
    segment: 'block_list',
    type: 'block_list',
    basePath: (ctx, ids) => `${trunkGroupPath(ctx, ids)}/block_list`,
    roles: {
      list: `${TG}.block_list.instance.read`,
      create: `${TG}.block_list.create`,
      update: `${TG}.block_list.instance.update`,
      // Delete and the prefix endpoints of this list are not shown (Doc 2 §4.10): named like the allow list's.
      delete: `${TG}.block_list.instance.delete`,
      prefixes: `${TG}.block_list.instance.prefixes`,
    },
  },
  {
    kind: 'TrunkGroupAllowList',
    noun: 'allow list',
    collectionDoc: 'Allow lists of the trunk group (Doc 2 §4.10): exceptions to its block lists.',
    parentKind: 'TrunkGroup',
    collection: 'allowList',
    segment: 'allow_list',
    type: 'allow_list',
    basePath: (ctx, ids) => `${trunkGroupPath(ctx, ids)}/allow_list`,
    roles: {
      list: `${TG}.allow_list.list`,
      create: `${TG}.allow_list.create`,
      update: `${TG}.allow_list.instance.update`,
      delete: `${TG}.allow_list.instance.delete`,
      prefixes: `${TG}.allow_list.instance.prefixes`,
    },
  },
];

function planKind(flavour: PlanFlavour): KindDefinition {
  const itemPath = (live: LiveObject, ctx: KindContext): string =>
    `${flavour.basePath(ctx, live.ids)}/${pathId(live.ids, flavour.kind)}`;
  return {
    kind: flavour.kind,
    parentKinds: [flavour.parentKind],
    collection: flavour.collection,
    manifest: { noun: flavour.noun, collectionDoc: flavour.collectionDoc, ...planForm },
    fields: planFields,
    contract: {
      sample: { name: 'contract-list', country: 'Belgium', countryCode: '32', isoCode: 'BE', region: 'Flanders' },
      replace: { region: 'Wallonia' },
    },
    createBeforeDelete: true,
    identity: (f) => String(f['name']),
    address: (parent, identity) => `${parent}/${flavour.segment}/${identity}`,
    list: (parent, ctx) =>
      parent && {
        path: flavour.basePath(ctx, parent.ids),
        itemsKey: 'callingPlans',
        style: 'token',
        role: flavour.roles.list,
        notFoundIsEmpty: true,
      },
    fromApi: (item) => ({ id: String(item['id']), fields: fieldsFromApi(planFields, item) }),
    createdId: { from: 'body', field: 'id' },
    create: (desired, parent, ctx) => {
      const body: Record<string, unknown> = { type: flavour.type };
      for (const spec of planFields) if (spec.name in desired.fields) body[spec.name] = desired.fields[spec.name];
      return [{ method: 'POST', path: flavour.basePath(ctx, parent?.ids ?? {}), role: flavour.roles.create, body }];
    },
    update: (desired, live, ctx) => [
      { method: 'PUT', path: itemPath(live, ctx), role: flavour.roles.update, body: { name: desired.fields['name'] } },
    ],
    delete: (live, ctx) => [{ method: 'DELETE', path: itemPath(live, ctx), role: flavour.roles.delete }],
  };
}

export const callingPlanKinds: readonly KindDefinition[] = flavours.map(planKind);

const prefixFields: readonly FieldSpec[] = [
  {
    name: 'prefix',
    change: 'replace',
    type: 'string',
    doc: 'The dialled-number prefix, digits with an optional leading +.',
    manifest: { pattern: '^\\+?[0-9]{1,15}$' },
  },
  { name: 'isExact', change: 'update', type: 'boolean', doc: 'True when the prefix matches the exact number only.' },
  { name: 'name', change: 'update', type: 'string', doc: 'Label of the prefix.' },
];

function prefixesPath(parent: { kind: string; ids: IdChain }, ctx: KindContext): { path: string; role: string } {
  const flavour = flavours.find((f) => f.kind === parent.kind);
  if (!flavour) throw new Error(`prefixes cannot live under ${parent.kind}`);
  return {
    path: `${flavour.basePath(ctx, parent.ids)}/${pathId(parent.ids, parent.kind)}/prefixes`,
    role: flavour.roles.prefixes,
  };
}

function prefixItem(live: LiveObject, ctx: KindContext): { path: string; role: string } {
  const parentKind = flavours.find((f) => live.ids[f.kind] !== undefined)?.kind ?? '';
  const base = prefixesPath({ kind: parentKind, ids: live.ids }, ctx);
  return { path: `${base.path}/${pathId(live.ids, 'Prefix')}`, role: `${base.role}.instance` };
}

/** Prefixes of any calling plan (Doc 2 §2.11), identified by the prefix itself. */
export const prefixKind: KindDefinition = {
  kind: 'Prefix',
  parentKinds: flavours.map((f) => f.kind),
  collection: 'prefixes',
  manifest: {
    noun: 'prefix',
    collectionDoc: 'Prefixes of this list.',
    doc: 'A prefix of a calling plan (Doc 2 §2.11).',
    identity: ['prefix'],
    refused: { id: { why: '`id` is assigned by the platform; a prefix is identified by `prefix`', readOnly: true } },
  },
  fields: prefixFields,
  contract: {
    sample: { prefix: '+3290', isExact: false, name: 'premium' },
    update: { isExact: true, name: 'premium rate' },
  },
  identity: (f) => String(f['prefix']),
  address: (parent, identity) => `${parent}/prefix/${identity}`,
  list: (parent, ctx) => {
    if (!parent) return undefined;
    const { path, role } = prefixesPath(parent, ctx);
    return { path, itemsKey: 'prefixes', style: 'none', role: `${role}.list`, notFoundIsEmpty: true };
  },
  fromApi: (item) => ({ id: String(item['id']), fields: fieldsFromApi(prefixFields, item) }),
  createdId: { from: 'body', field: 'id' },
  create: (desired, parent, ctx) => {
    if (!parent) throw new Error('a prefix needs a calling plan');
    const { path, role } = prefixesPath(parent, ctx);
    return [{ method: 'POST', path, role: `${role}.create`, body: { ...desired.fields } }];
  },
  update: (desired, live, ctx) => {
    const { path, role } = prefixItem(live, ctx);
    return [{ method: 'PUT', path, role: `${role}.update`, body: { ...desired.fields } }];
  },
  delete: (live, ctx) => {
    const { path, role } = prefixItem(live, ctx);
    return [{ method: 'DELETE', path, role: `${role}.delete` }];
  },
};

/** Trunk groups cannot be listed or created (Doc 2 names them by id only): declared = assumed to exist. */
export const trunkGroupKind: KindDefinition = {
  kind: 'TrunkGroup',
  parentKinds: ['Subscription'],
  collection: 'trunkGroups',
  manifest: {
    noun: 'trunk group',
    collectionDoc: "Calling plans of the subscription's trunk groups (Doc 2 §4.10), by trunk group.",
    doc: 'A trunk group of the subscription (Doc 2 §4.10), by id, to declare its calling plans: the API cannot list or create trunk groups, so it must exist.',
    identity: ['id'],
  },
  fields: [
    {
      name: 'id',
      change: 'replace',
      type: 'integer',
      doc: 'Trunk group id (integer); the trunk group must exist.',
      manifest: { minimum: 0 },
    },
  ],
  contract: { sample: { id: 7 } },
  assumedToExist: true,
  identity: (f) => String(f['id']),
  address: (parent, identity) => `${parent}/trunkgroup/${identity}`,
  fromApi: (item) => ({ id: String(item['id']), fields: { id: String(item['id']) } }),
};
