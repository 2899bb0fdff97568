/**
 * Generated estates: the simulator seed (what is live) and the manifests (what is
 * desired) come from one description, so the drift between them is known exactly.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The simulator's default entitlement types (docs/simulator.md "Default data set"). */
export const ENTITLEMENT_TYPES = ['BE geo', 'BE tollfree', 'NL geo', 'FR geo', 'DE geo', 'BE mobile'];
const TYPES = ENTITLEMENT_TYPES;
export const GROUP = 'demo-group';
export const EMPTY_GROUP = 'bench-empty';

/** The `plan-org` estate. */
export const ORG = {
  resellers: 20,
  tenantsPerReseller: 100,
  subscriptionsPerTenant: 2,
  entitlementsPerSubscription: 3,
  addressesPerSubscription: 1,
};

/**
 * The `small-estate`: 200 tenants with two subscriptions each, three entitlements and two
 * addresses per subscription, the estate most teams have (1,015 requests to plan it).
 */
export const SMALL = {
  resellers: 10,
  tenantsPerReseller: 20,
  subscriptionsPerTenant: 2,
  entitlementsPerSubscription: 3,
  addressesPerSubscription: 2,
};

/** The `national` estate: 50,000 tenants with a subscription and three entitlements each. */
export const NATIONAL = {
  resellers: 50,
  tenantsPerReseller: 1000,
  subscriptionsPerTenant: 1,
  entitlementsPerSubscription: 3,
  addressesPerSubscription: 0,
};

export const pad = (n, width) => String(n).padStart(width, '0');
export const resellerName = (r) => `bench-r${pad(r, 2)}`;
export const tenantName = (t) => `bench-t${pad(t, 4)}`;

/**
 * 1% drift, spread over the kinds: 20 tenants get another markup, 40 subscriptions another
 * billingId, 120 entitlements another quantity (all three of one subscription in 40
 * tenants), and 40 subscriptions one more address (creates).
 */
export const ORG_DRIFT = {
  tenantMarkup: (t) => t % 100 === 50,
  subscriptionBillingId: (t, s) => s === 0 && (t % 100 === 25 || t % 100 === 75),
  entitlements: (t, s) => s === 0 && t % 50 === 10,
  newAddress: (t, s) => s === 1 && t % 50 === 40,
};

/**
 * 1% of the `national` estate's 250,000 objects: 500 tenants get another markup, 500
 * subscriptions another billingId, and the three entitlements of 500 more subscriptions
 * another quantity (2,500 updates).
 */
export const NATIONAL_DRIFT = {
  tenantMarkup: (t) => t % 100 === 50,
  subscriptionBillingId: (t, s) => s === 0 && t % 100 === 25,
  entitlements: (t, s) => s === 0 && t % 100 === 75,
  newAddress: () => false,
};

export function entitlementsOf(s, size) {
  return Array.from({ length: size.entitlementsPerSubscription }, (_, e) => ({
    type: TYPES[(s * size.entitlementsPerSubscription + e) % TYPES.length],
    entitlement: 5 + e,
  }));
}

export function addressOf(t, s, a) {
  return {
    street: `Bench Street ${t}`,
    number: `${s + 1}${a > 0 ? `-${a}` : ''}`,
    postalCode: 1000,
    city: 'Brussels',
    country: 'Belgium',
    isoCode: 'BE',
  };
}

/**
 * The live side: `seed` for `POST /_sim/reset` (the default data set plus the estate) and
 * the addresses to create through the API afterwards (the seed format has no addresses).
 * @param {import('../../../dist/sim/index.js').Seed} base the default seed
 */
export function orgLive(base, size = ORG) {
  const seed = structuredClone(base);
  const addresses = [];
  seed.resellers = [...(seed.resellers ?? [])];
  seed.tenants = [...(seed.tenants ?? [])];
  for (let r = 0; r < size.resellers; r++) {
    seed.resellers.push({ name: resellerName(r), billingId: `BR-${pad(r, 2)}`, markup: 2, owner: { group: GROUP } });
    for (let k = 0; k < size.tenantsPerReseller; k++) {
      const t = r * size.tenantsPerReseller + k;
      const subscriptions = Array.from({ length: size.subscriptionsPerTenant }, (_, s) => {
        for (let a = 0; a < size.addressesPerSubscription; a++)
          addresses.push({ tenant: tenantName(t), subscription: `s${s}`, data: addressOf(t, s, a) });
        return {
          name: `s${s}`,
          billingId: `BT-${pad(t, 4)}-S${s}`,
          uc: 'uc_alpha',
          entitlements: entitlementsOf(s, size),
        };
      });
      seed.tenants.push({
        name: tenantName(t),
        billingId: `BT-${pad(t, 4)}`,
        markup: t % 7,
        owner: { reseller: resellerName(r) },
        subscriptions,
      });
    }
  }
  return { seed, addresses };
}

const yamlString = (v) => JSON.stringify(v);
export const flow = (o) =>
  `{ ${Object.entries(o)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? yamlString(v) : v}`)
    .join(', ')} }`;

/** The desired side of `plan-org` (or `national`): the live estate with its 1% drift, one file per reseller. */
export async function writeOrgManifests(dir, size = ORG, drift = ORG_DRIFT) {
  await mkdir(join(dir, 'tenants'), { recursive: true });
  let resellers = '';
  let changes = 0;
  for (let r = 0; r < size.resellers; r++) {
    resellers += `---\napiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: ${resellerName(r)}, group: ${GROUP} }\nspec: { billingId: BR-${pad(r, 2)}, markup: 2 }\n`;
    let docs = '';
    for (let k = 0; k < size.tenantsPerReseller; k++) {
      const t = r * size.tenantsPerReseller + k;
      const markup = drift.tenantMarkup(t) ? (t % 7) + 1 : t % 7;
      if (drift.tenantMarkup(t)) changes++;
      docs += `---\napiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: ${tenantName(t)}, reseller: ${resellerName(r)} }\nspec:\n  billingId: BT-${pad(t, 4)}\n  markup: ${markup}\n  subscriptions:\n`;
      for (let s = 0; s < size.subscriptionsPerTenant; s++) {
        const billing = `BT-${pad(t, 4)}-S${s}${drift.subscriptionBillingId(t, s) ? '-X' : ''}`;
        docs += `    - name: s${s}\n      billingId: ${billing}\n      uc: uc_alpha\n      entitlements:\n`;
        for (const e of entitlementsOf(s, size)) {
          docs += `        - ${flow({ ...e, entitlement: e.entitlement + (drift.entitlements(t, s) ? 10 : 0) })}\n`;
        }
        const count = size.addressesPerSubscription + (drift.newAddress(t, s) ? 1 : 0);
        if (count > 0) docs += '      addresses:\n';
        for (let a = 0; a < count; a++) docs += `        - ${flow(addressOf(t, s, a))}\n`;
        changes +=
          (drift.subscriptionBillingId(t, s) ? 1 : 0) +
          (drift.entitlements(t, s) ? size.entitlementsPerSubscription : 0) +
          (drift.newAddress(t, s) ? 1 : 0);
      }
    }
    await writeFile(join(dir, 'tenants', `${resellerName(r)}.yaml`), docs);
  }
  await writeFile(join(dir, 'resellers.yaml'), resellers);
  return { changes };
}

/** Object counts of an estate (what a per-object refresh reads one by one). */
export function orgCounts(size = ORG) {
  const tenants = size.resellers * size.tenantsPerReseller;
  const subscriptions = tenants * size.subscriptionsPerTenant;
  return {
    resellers: size.resellers,
    tenants,
    subscriptions,
    entitlements: subscriptions * size.entitlementsPerSubscription,
    addresses: subscriptions * size.addressesPerSubscription,
  };
}

/** `apply-org`: the default data set plus an empty group for the new tenants. */
export function emptyGroupSeed(base) {
  const seed = structuredClone(base);
  seed.groups = [
    ...(seed.groups ?? []),
    { name: EMPTY_GROUP, draasDomain: 'bench.example.net', enabledUcs: ['uc_alpha'] },
  ];
  return seed;
}

/** Apply manifests: `tenants` new tenants, each with one subscription and `entitlements` entitlements (three in `apply-org`, none in `apply-tenants`). */
export async function writeApplyManifests(dir, tenants, entitlements = 3) {
  await mkdir(dir, { recursive: true });
  let docs = '';
  for (let t = 0; t < tenants; t++) {
    docs += `---\napiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: bench-a${pad(t, 4)}, group: ${EMPTY_GROUP} }\nspec:\n  billingId: BA-${pad(t, 4)}\n  markup: 1\n  subscriptions:\n`;
    docs += `    - name: main\n      billingId: BA-${pad(t, 4)}-MAIN\n      uc: uc_alpha\n`;
    if (entitlements === 0) continue;
    docs += '      entitlements:\n';
    for (const e of entitlementsOf(0, { entitlementsPerSubscription: entitlements })) docs += `        - ${flow(e)}\n`;
  }
  await writeFile(join(dir, 'tenants.yaml'), docs);
}
