import * as path from 'node:path';
import { emit, list, pick, declared, asText, type DocContext, type Json } from './build-context.js';
import { buildAdmins, buildCallingPlan, parentDecl } from './build-org.js';
import type { DesiredObject, JsonValue } from './types.js';

const SUBSCRIPTION_COLLECTIONS = ['entitlements', 'addresses', 'locations', 'templates', 'trunkGroups', 'numbers'];
const ADDRESS_PARTS = [
  'street',
  'number',
  'city',
  'state',
  'postalCode',
  'country',
  'isoCode',
  'premises',
  'fullAddress',
  'format',
];

/** A Tenant document: the tenant, its admins and subscriptions with everything nested. */
export function buildTenant(ctx: DocContext, name: string, metadata: Json, spec: Json): void {
  const tenant = emit(ctx, {
    kind: 'Tenant',
    address: `tenant/${name}`,
    identity: { name },
    fields: { name, ...pick(spec, ['billingId', 'markup']) },
    path: [],
    metadataFields: ['name'],
    collections: declared(spec, ['admins', 'subscriptions']),
  });
  const parent = parentDecl(metadata);
  if (parent) ctx.out.parents.set(tenant, parent);
  buildAdmins(ctx, tenant, spec, ['spec']);
  list(spec, 'subscriptions')?.forEach((sub, i) => buildSubscription(ctx, tenant, sub, ['spec', 'subscriptions', i]));
}

function buildSubscription(ctx: DocContext, tenant: DesiredObject, sub: Json, at: (string | number)[]): void {
  const name = String(sub['name']);
  const collections = declared(sub, SUBSCRIPTION_COLLECTIONS);
  if (sub['addressesFrom'] !== undefined && !collections.includes('addresses')) collections.push('addresses');
  const subscription = emit(ctx, {
    kind: 'Subscription',
    address: `${tenant.address}/subscription/${name}`,
    parentAddress: tenant.address,
    identity: { name },
    fields: { name, ...pick(sub, ['billingId', 'uc', 'suspensionProfile']) },
    path: at,
    collections,
  });
  const base = subscription.address;
  const child = (
    kind: Parameters<typeof emit>[1]['kind'],
    suffix: string,
    identity: Record<string, string | number>,
    fields: Json,
    p: (string | number)[],
    collections?: string[],
  ): DesiredObject =>
    emit(ctx, { kind, address: `${base}/${suffix}`, parentAddress: base, identity, fields, path: p, collections });

  list(sub, 'entitlements')?.forEach((e, i) => {
    const byName = e['type'] !== undefined;
    const type = byName ? String(e['type']) : Number(e['typeId']);
    child(
      'Entitlement',
      `entitlement/${type}`,
      byName ? { type } : { typeId: type },
      pick(e, ['type', 'typeId', 'entitlement', 'externalReference']),
      [...at, 'entitlements', i],
    );
  });
  list(sub, 'addresses')?.forEach((a, i) => {
    const fields = addressFields(a);
    const full = String(fields['fullAddress']);
    child('Address', `address/${full}`, { fullAddress: full }, fields, [...at, 'addresses', i]);
  });
  list(sub, 'locations')?.forEach((l, i) => {
    const fields = pick(l, ['street', 'number', 'postalCode', 'postbox', 'postalCodeId']);
    fields['number'] = asText(fields['number']) as JsonValue;
    fields['postalCode'] = asText(fields['postalCode']) as JsonValue;
    const id = `${String(fields['street'])} ${String(fields['number'])} ${String(fields['postalCode'])}`;
    child(
      'Location',
      `location/${id}`,
      { street: String(fields['street']), number: String(fields['number']), postalCode: String(fields['postalCode']) },
      fields,
      [...at, 'locations', i],
    );
  });
  list(sub, 'templates')?.forEach((t, i) => {
    const sku = String(t['sku']);
    child(
      'Template',
      `template/${sku}`,
      { sku },
      pick(t, ['sku', 'name', 'description', 'location', 'vrp', 'groups', 'licenses', 'customerLicenses']),
      [...at, 'templates', i],
    );
  });
  list(sub, 'trunkGroups')?.forEach((tg, i) => {
    const id = Number(tg['id']);
    const p = [...at, 'trunkGroups', i];
    const group = child('TrunkGroup', `trunkgroup/${id}`, { id }, { id }, p, declared(tg, ['blockList', 'allowList']));
    for (const [key, listType] of [
      ['blockList', 'block_list'],
      ['allowList', 'allow_list'],
    ] as const) {
      list(tg, key)?.forEach((plan, j) =>
        buildCallingPlan(ctx, plan, {
          kind: 'TrunkGroupCallingPlan',
          parent: group.address,
          listType,
          path: [...p, key, j],
        }),
      );
    }
  });
  const numbers = sub['numbers'] as Record<string, Json> | undefined;
  for (const [number, link] of Object.entries(numbers ?? {})) {
    child('NumberAddressLink', `number/${number}`, { number }, { number, address: link['address'] ?? null }, [
      ...at,
      'numbers',
      number,
    ]);
  }
  if (typeof sub['addressesFrom'] === 'string') {
    const file = sub['addressesFrom'];
    ctx.out.csvJobs.push({
      type: 'addresses',
      absolute: path.resolve(ctx.dir, file),
      display: path.posix.normalize(path.posix.join(ctx.displayDir, file.split(path.sep).join('/'))),
      owner: subscription,
      ctx,
      path: [...at, 'addressesFrom'],
    });
  }
}

/**
 * The declared parts of an address plus its `fullAddress`: as given, or formed as
 * "<street> <number>, <postalCode> <city>, <country>" (CONTRACT §2's example
 * "Rue Haute 10, 1000 Brussels, Belgium"); without a number, "<street>, <postalCode> ...".
 */
export function addressFields(a: Json): Json {
  const fields = pick(a, ADDRESS_PARTS);
  if (fields['number'] !== undefined) fields['number'] = asText(fields['number']) as JsonValue;
  if (typeof fields['fullAddress'] !== 'string') fields['fullAddress'] = fullAddress(fields);
  return fields;
}

export function fullAddress(parts: Json): string {
  const street =
    parts['number'] !== undefined && parts['number'] !== ''
      ? `${String(parts['street'])} ${String(parts['number'])}`
      : String(parts['street']);
  return `${street}, ${String(parts['postalCode'])} ${String(parts['city'])}, ${String(parts['country'])}`;
}
