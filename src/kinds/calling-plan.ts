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
  { name: 'name', change: 'update', type: 'string' },
  { name: 'country', change: 'replace', type: 'string' },
  { name: 'countryCode', change: 'replace', type: 'string' },
  { name: 'isoCode', change: 'replace', type: 'string' },
  { name: 'region', change: 'replace', type: 'string' },
  // Read for display only: the create and update calls do not accept it (Doc 2 §4.9).
  { name: 'classification', change: 'readOnly', type: 'string' },
];

interface PlanFlavour {
  kind: string;
  /** The manifest's word for one list. */
  noun: string;
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
    manifest: { noun: flavour.noun, identity: ['name'], renamable: { field: 'name' } },
    fields: planFields,
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
  { name: 'prefix', change: 'replace', type: 'string' },
  { name: 'isExact', change: 'update', type: 'boolean' },
  { name: 'name', change: 'update', type: 'string' },
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
  manifest: { noun: 'prefix', identity: ['prefix'] },
  fields: prefixFields,
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
  manifest: { noun: 'trunk group', identity: ['id'] },
  fields: [{ name: 'id', change: 'replace', type: 'integer' }],
  assumedToExist: true,
  identity: (f) => String(f['id']),
  address: (parent, identity) => `${parent}/trunkgroup/${identity}`,
  fromApi: (item) => ({ id: String(item['id']), fields: { id: String(item['id']) } }),
};
