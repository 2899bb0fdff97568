import { emit, list, pick, declared, asText, type DocContext, type Json, type ParentDecl } from './build-context.js';
import { sortKeys } from './digest.js';
import type { DesiredObject, JsonValue } from './types.js';

/** Administrators of a group, reseller or tenant: `<parent>/admin/<email>`. */
export function buildAdmins(ctx: DocContext, parent: DesiredObject, spec: Json, path: (string | number)[]): void {
  list(spec, 'admins')?.forEach((admin, i) => {
    const email = String(admin['email']);
    emit(ctx, {
      kind: 'Administrator',
      address: `${parent.address}/admin/${email}`,
      parentAddress: parent.address,
      identity: { email },
      fields: pick(admin, ['email', 'firstName', 'lastName', 'mobile']),
      path: [...path, 'admins', i],
    });
  });
}

/** A calling plan (group block list or trunk-group list) and its prefixes. */
export function buildCallingPlan(
  ctx: DocContext,
  plan: Json,
  where: {
    kind: 'GroupCallingPlan' | 'TrunkGroupCallingPlan';
    parent: string;
    listType: 'block_list' | 'allow_list';
    path: (string | number)[];
  },
): void {
  const name = String(plan['name']);
  const fields = pick(plan, ['name', 'country', 'countryCode', 'isoCode', 'region']);
  if (fields['countryCode'] !== undefined) fields['countryCode'] = asText(fields['countryCode']) as JsonValue;
  const identity: Record<string, string> = { name };
  if (where.kind === 'TrunkGroupCallingPlan') {
    identity['listType'] = where.listType;
    fields['listType'] = where.listType;
  }
  const address = `${where.parent}/${where.listType}/${name}`;
  emit(ctx, {
    kind: where.kind,
    address,
    parentAddress: where.parent,
    identity,
    fields,
    path: where.path,
    collections: declared(plan, ['prefixes']),
  });
  list(plan, 'prefixes')?.forEach((prefix, i) => {
    const value = String(prefix['prefix']);
    emit(ctx, {
      kind: 'Prefix',
      address: `${address}/prefix/${value}`,
      parentAddress: address,
      identity: { prefix: value },
      fields: pick(prefix, ['prefix', 'isExact', 'name']),
      path: [...where.path, 'prefixes', i],
    });
  });
}

/** A Group document: the group, its admins, block list, products and branding. */
export function buildGroup(ctx: DocContext, name: string, spec: Json): void {
  const group = emit(ctx, {
    kind: 'Group',
    address: `group/${name}`,
    identity: { name },
    fields: { name, ...pick(spec, ['draasDomain']) },
    path: [],
    metadataFields: ['name'],
    collections: declared(spec, ['admins', 'callingPlans', 'products', 'branding']),
  });
  buildAdmins(ctx, group, spec, ['spec']);
  list(spec, 'callingPlans')?.forEach((plan, i) =>
    buildCallingPlan(ctx, plan, {
      kind: 'GroupCallingPlan',
      parent: group.address,
      listType: 'block_list',
      path: ['spec', 'callingPlans', i],
    }),
  );
  list(spec, 'products')?.forEach((product, i) => {
    const sku = String(product['sku']);
    emit(ctx, {
      kind: 'Product',
      address: `${group.address}/product/${sku}`,
      parentAddress: group.address,
      identity: { sku },
      fields: sortNested(pick(product, ['sku', 'name', 'description', 'status', 'items'])),
      path: ['spec', 'products', i],
    });
  });
  const branding = spec['branding'] as Json | undefined;
  for (const type of ['font', 'image', 'theme']) {
    const styling = branding?.[type] as Json | undefined;
    if (!styling) continue;
    emit(ctx, {
      kind: 'Branding',
      address: `${group.address}/branding/${type}`,
      parentAddress: group.address,
      identity: { type },
      fields: { type, ...(sortKeys(styling) as Json) },
      path: ['spec', 'branding', type],
    });
  }
}

/** The parent a Reseller or Tenant document names in its metadata. */
export function parentDecl(metadata: Json): ParentDecl | undefined {
  for (const kind of ['group', 'distributor', 'reseller'] as const) {
    const ref = metadata[kind];
    if (ref === undefined) continue;
    const parentKind = kind === 'group' ? 'Group' : kind === 'reseller' ? 'Reseller' : 'Distributor';
    const path = ['metadata', kind];
    return typeof ref === 'string'
      ? { kind: parentKind, name: ref, path }
      : { kind: parentKind, uuid: String((ref as Json)['uuid']), path };
  }
  return undefined;
}

/** A Reseller document. */
export function buildReseller(ctx: DocContext, name: string, metadata: Json, spec: Json): void {
  const reseller = emit(ctx, {
    kind: 'Reseller',
    address: `reseller/${name}`,
    identity: { name },
    fields: { name, ...pick(spec, ['billingId', 'markup', 'suspensionProfile']) },
    path: [],
    metadataFields: ['name'],
    collections: declared(spec, ['admins']),
  });
  const parent = parentDecl(metadata);
  if (parent) ctx.out.parents.set(reseller, parent);
  buildAdmins(ctx, reseller, spec, ['spec']);
}

/** Nested values with sorted keys, so that the set's digest does not depend on key order. */
function sortNested(fields: Json): Json {
  for (const [k, v] of Object.entries(fields)) if (v !== null && typeof v === 'object') fields[k] = sortKeys(v);
  return fields;
}
