/**
 * Loads a seed (./types.ts) into an empty store. Names are resolved in file order, so an
 * owner must appear before what it owns. Mistakes are reported as SeedError with the
 * path of the offending entry (e.g. `tenants[2].owner`).
 */
import { readRegularFile } from '../../../core/safe-write.js';
import { parse as parseYaml } from 'yaml';
import { SwitchboardError } from '../../../core/errors.js';
import { newRegions, placeUnder, sortMarkups } from '../org.js';
import { isSnapshot, type InventedEndpoint, type PlatformStore } from '../store/store.js';
import type { OwnerRef, UserRow } from '../store/types.js';
import { loadSubscriptions } from './load-subscriptions.js';
import { countryCodeOf, expandRange, findEntitlementType, SeedError, suspensionProfileId } from './seed-refs.js';
import type { Seed, SeedGroup, SeedOwned, SeedOwnerRef, SeedUser } from './types.js';

/** Reads a YAML or JSON seed file (YAML is a superset of JSON). */
export async function readSeedFile(file: string): Promise<Seed> {
  let text: string;
  try {
    text = await readRegularFile(file);
  } catch (error) {
    throw new SwitchboardError('SB_SIM_SEED', `cannot read seed file ${file}: ${(error as Error).message}`);
  }
  let parsed: Record<string, unknown>;
  try {
    const seed = parseYaml(text) as unknown;
    if (typeof seed !== 'object' || seed === null || Array.isArray(seed))
      throw new Error('the top level must be a mapping');
    parsed = seed as Record<string, unknown>;
  } catch (error) {
    throw new SwitchboardError('SB_SIM_SEED', `seed file ${file} is not valid YAML/JSON: ${(error as Error).message}`);
  }
  if (isSnapshot(parsed)) return parsed as Seed; // a state snapshot (GET /_sim/state): the server tells them apart
  // A file that is not a seed (a manifest, a plan given by mistake) would otherwise start an empty simulator.
  const unknown = Object.keys(parsed).filter((key) => !Object.hasOwn(SEED_KEYS, key));
  if (unknown.length > 0) {
    const known = Object.keys(SEED_KEYS).join(', ');
    throw new SwitchboardError('SB_SIM_SEED', `seed file ${file}: unknown key ${unknown[0]} (a seed holds ${known})`);
  }
  return parsed as Seed;
}

/** The top-level keys of a seed, checked against the Seed type by the compiler. */
const SEED_KEYS: Record<keyof Seed, true> = {
  instance: true,
  webhook: true,
  groups: true,
  resellers: true,
  tenants: true,
  users: true,
  suspensionProfiles: true,
  entitlementTypes: true,
  countries: true,
  countryCodes: true,
  postalCodes: true,
  numberInventory: true,
  routing: true,
  variants: true,
  rateLimit: true,
  inventedEndpoints: true,
};

export function applySeed(store: PlatformStore, seed: Seed): void {
  store.clear();
  store.instance = seed.instance ?? 'demo';
  if (seed.webhook?.url) store.settings.webhookUrl = seed.webhook.url;
  if (seed.variants !== undefined) {
    if (typeof seed.variants !== 'string' && typeof seed.variants !== 'number')
      throw new SeedError('variants', 'must be a number or a string');
    store.settings.variants = seed.variants;
  }
  store.settings.withoutEndpoints = inventedEndpointsOff(seed.inventedEndpoints);
  if (seed.rateLimit !== undefined) {
    if (typeof seed.rateLimit !== 'number' || !(seed.rateLimit > 0) || !Number.isFinite(seed.rateLimit))
      throw new SeedError('rateLimit', 'must be a positive number of requests per second');
    store.settings.rateLimit = seed.rateLimit;
  }
  const now = store.clock.isoNow();
  for (const c of seed.countries ?? []) store.countries.insert({ isoCode: c.isoCode, name: c.name });
  for (const c of seed.countryCodes ?? []) {
    const id = c.id ?? store.nextId('countryCodes');
    store.reserveId('countryCodes', id);
    store.countryCodes.insert({ id, code: c.code, name: c.name, createdOn: now, updatedOn: now });
  }
  for (const p of seed.suspensionProfiles ?? []) {
    store.reserveId('suspensionProfiles', p.id);
    store.suspensionProfiles.insert({ ...p });
  }
  loadReferenceData(store, seed, now);
  (seed.groups ?? []).forEach((g, i) => loadGroup(store, g, `groups[${i}]`, now));
  (seed.resellers ?? []).forEach((r, i) => loadOwned(store, 'reseller', r, `resellers[${i}]`, now));
  (seed.tenants ?? []).forEach((t, i) => {
    const uuid = loadOwned(store, 'tenant', t, `tenants[${i}]`, now);
    loadSubscriptions(store, uuid, t.subscriptions ?? [], `tenants[${i}].subscriptions`, now);
  });
  (seed.users ?? []).forEach((u, i) => loadUser(store, u, `users[${i}]`, now));
}

function inventedEndpointsOff(given: Seed['inventedEndpoints']): InventedEndpoint[] {
  const off: InventedEndpoint[] = [];
  for (const [name, on] of Object.entries(given ?? {})) {
    if (name !== 'postalCodes' && name !== 'brandingRead')
      throw new SeedError(`inventedEndpoints.${name}`, 'unknown: postalCodes or brandingRead');
    if (typeof on !== 'boolean') throw new SeedError(`inventedEndpoints.${name}`, 'must be true or false');
    if (!on) off.push(name);
  }
  return off;
}

function loadReferenceData(store: PlatformStore, seed: Seed, now: string): void {
  for (const e of seed.entitlementTypes ?? []) {
    store.reserveId('entitlementTypes', e.id);
    store.entitlementTypes.insert({
      id: e.id,
      name: e.name,
      description: e.description ?? e.name,
      externalReference: e.externalReference ?? `ET-${e.id}`,
      countryCode: e.countryCode,
      isoCode: e.isoCode,
      numberType: e.numberType,
      serviceCapabilities: e.serviceCapabilities ?? 'voice',
      vanityType: e.vanityType ?? null,
      createdOn: now,
      updatedOn: now,
    });
  }
  (seed.postalCodes ?? []).forEach((p) => {
    const country = store.countries.get(p.isoCode);
    store.postalCodes.insert({
      id: store.nextId('postalCodes'),
      code: p.code,
      city: p.city,
      state: p.state ?? '',
      region: { id: 0, name: p.region ?? '' },
      country: { id: 0, name: country?.name ?? p.isoCode, isoCode: p.isoCode },
    });
  });
  (seed.numberInventory ?? []).forEach((n, i) => {
    for (const full of expandRange(n.number, n.count ?? 1, `numberInventory[${i}]`)) {
      const cc = countryCodeOf(store, full);
      store.inventory.insert({
        id: full,
        countryCode: cc,
        isoCode: n.isoCode,
        nsn: full.slice(1 + cc.length),
        numberType: n.numberType,
        region: n.region ?? null,
      });
    }
  });
}

function loadGroup(store: PlatformStore, g: SeedGroup, where: string, now: string): void {
  if (!g.name) throw new SeedError(where, 'name is required');
  const uuid = g.uuid ?? store.newUuid();
  store.groups.insert({
    uuid,
    name: g.name,
    ...(g.draasDomain ? { draasDomain: g.draasDomain } : {}),
    enabledUcs: g.enabledUcs ?? [],
    regions: newRegions(store, g.regions),
    configuration: { ...(g.configuration ?? {}) },
    branding: structuredClone(g.branding ?? {}),
    createdOn: now,
  });
  for (const d of g.distributors ?? []) {
    store.distributors.insert({
      uuid: d.uuid ?? store.newUuid(),
      name: d.name,
      groupUuid: uuid,
      regions: newRegions(store, d.regions),
      createdOn: now,
    });
  }
  for (const c of g.catalogItems ?? []) {
    store.catalogItems.insert({
      id: store.nextId('catalogItems'),
      groupUuid: uuid,
      name: c.name,
      description: c.description ?? c.name,
      type: c.type,
      ...(c.subType ? { subType: c.subType } : {}),
    });
  }
  (g.products ?? []).forEach((p, i) => {
    const items = (p.items ?? []).map((item) => {
      if (item.type === 'license')
        return { type: 'license' as const, subType: item.subType ?? 'ucAlphaUsers', quantity: item.quantity };
      const et = findEntitlementType(store, item.entitlementType, `${where}.products[${i}]`);
      return { type: 'entitlement' as const, id: et, quantity: item.quantity };
    });
    store.products.insert({
      id: store.nextId('products'),
      groupUuid: uuid,
      name: p.name,
      sku: p.sku,
      status: p.status ?? 'enabled',
      items,
      ...(p.description ? { description: p.description } : {}),
    });
  });
}

function loadOwned(
  store: PlatformStore,
  kind: 'reseller' | 'tenant',
  s: SeedOwned,
  where: string,
  now: string,
): string {
  if (!s.name) throw new SeedError(where, 'name is required');
  const owner = resolveOwner(store, s.owner, `${where}.owner`);
  const place = placeUnder(store, owner);
  if (!place) throw new SeedError(`${where}.owner`, 'owner not found');
  const markups = sortMarkups(s.markups ?? (s.markup === undefined ? [] : [{ markup: s.markup, startDate: now }]));
  const uuid = s.uuid ?? store.newUuid();
  const base = {
    uuid,
    name: s.name,
    ...(s.billingId ? { billingId: s.billingId } : {}),
    owner,
    ...place,
    markups,
    regions: newRegions(store, s.regions),
    createdOn: now,
  };
  if (kind === 'tenant') store.tenants.insert(base);
  else {
    const sp =
      s.suspensionProfile === undefined
        ? null
        : suspensionProfileId(store, s.suspensionProfile, `${where}.suspensionProfile`);
    store.resellers.insert({ ...base, suspensionProfileId: sp, ...(s.status ? { status: s.status } : {}) });
  }
  return uuid;
}

function resolveOwner(store: PlatformStore, ref: SeedOwnerRef | undefined, where: string): OwnerRef {
  if (!ref) throw new SeedError(where, 'owner is required ({group|distributor|reseller: name})');
  if (ref.uuid) {
    const node = store.node(ref.uuid);
    if (!node || node.type === 'tenant')
      throw new SeedError(where, `no group, distributor or reseller has uuid ${ref.uuid}`);
    return { type: node.type, uuid: ref.uuid };
  }
  const type =
    ref.group !== undefined
      ? 'group'
      : ref.distributor !== undefined
        ? 'distributor'
        : ref.reseller !== undefined
          ? 'reseller'
          : undefined;
  if (!type) throw new SeedError(where, 'owner must name a group, distributor or reseller');
  const name = ref[type] as string;
  const table = type === 'group' ? store.groups : type === 'distributor' ? store.distributors : store.resellers;
  const row = table.rows().find((r) => r.name === name);
  if (!row) throw new SeedError(where, `${type} ${name} not found (owners must come earlier in the seed)`);
  return { type, uuid: row.uuid };
}

function loadUser(store: PlatformStore, u: SeedUser, where: string, now: string): void {
  if (!u.username) throw new SeedError(where, 'username is required');
  const level = u.adminOf?.level ?? 'system';
  let reference = '';
  if (level !== 'system') {
    const ref = u.adminOf.uuid ?? findNodeUuid(store, level, u.adminOf.name);
    if (!ref) throw new SeedError(`${where}.adminOf`, `${level} ${u.adminOf.name ?? '?'} not found`);
    reference = ref;
  }
  const id = store.nextId('users');
  const row: UserRow = {
    id,
    username: u.username,
    password: u.password ?? null,
    ...(u.email ? { email: u.email } : {}),
    ...(u.firstName ? { firstName: u.firstName } : {}),
    ...(u.lastName ? { lastName: u.lastName } : {}),
    ...(u.mobile ? { mobile: u.mobile } : {}),
    language: u.language ?? 'en',
    timezone: u.timezone ?? '+01:00',
    adminOf: { level, reference },
    rules: u.rules ?? 'all',
    profileId: id,
    profileName: u.profileName ?? `${level}-admin`,
    twoFactor: u.twoFactor ?? 'none',
    alwaysTwoFactor: u.alwaysTwoFactor ?? false,
    ...(u.totpSecret ? { totpSecret: u.totpSecret } : {}),
    ...(u.m2mToken ? { m2mToken: u.m2mToken } : {}),
    trustedLocs: (u.trustedLocations ?? []).map((t) => ({ ...t, createdOn: now })),
    forceReset: false,
    registeredOn: now,
  };
  store.users.insert(row);
}

function findNodeUuid(
  store: PlatformStore,
  level: 'group' | 'distributor' | 'reseller' | 'tenant',
  name: string | undefined,
): string | undefined {
  const table = {
    group: store.groups,
    distributor: store.distributors,
    reseller: store.resellers,
    tenant: store.tenants,
  }[level];
  return (table.rows() as { uuid: string; name: string }[]).find((r) => r.name === name)?.uuid;
}
