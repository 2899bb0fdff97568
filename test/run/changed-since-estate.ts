/**
 * A small generated estate for the `--changed-since` tests: tenants spread over a few
 * manifest files (some with an `addressesFrom` CSV) and a routing table fed by a CSV,
 * kept as a model that random edits change and that is written out as manifests.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

interface Subscription {
  name: string;
  billingId: string;
  entitlements: { type: string; entitlement: number }[];
  /** The CSV file (under tenants/) of its addresses. */
  addressesFrom?: string;
}

interface Tenant {
  name: string;
  billingId: string;
  markup: number;
  renamedFrom?: string[];
  subscriptions: Subscription[];
}

export interface Estate {
  /** Manifest file (under tenants/) → its tenant documents, in order. */
  files: Map<string, Tenant[]>;
  /** CSV file (under tenants/) → its address rows. */
  addressCsv: Map<string, { street: string; number: string; postalCode: number; city: string }[]>;
  /** The routing table's CSV rows. */
  routes: { number: string; route: string; priority: number }[];
  /** A counter for fresh names. */
  next: number;
}

const TYPES = ['BE geo', 'BE tollfree', 'NL geo', 'FR geo'];

export function generateEstate(tenants: number, random: () => number): Estate {
  const estate: Estate = { files: new Map(), addressCsv: new Map(), routes: [], next: 0 };
  // Names with a space and a non-ASCII letter: git's answers about them must be read raw (-z, no quoting).
  for (let f = 0; f < 3; f++) estate.files.set(fileName(f), []);
  for (let t = 0; t < tenants; t++) addTenant(estate, random, fileName(t % 3));
  for (let r = 0; r < 6; r++) estate.routes.push({ number: `+32299900${r}`, route: `trunk-${r}`, priority: 10 + r });
  return estate;
}

const fileName = (n: number) => `locataires ${n}-é.yaml`;

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

function addTenant(estate: Estate, random: () => number, file: string): void {
  const n = estate.next++;
  const name = `eq-t${n}`;
  const subscriptions: Subscription[] = [];
  for (let s = 0; s < 1 + Math.floor(random() * 2); s++) subscriptions.push(newSubscription(estate, name, s, random));
  estate.files.get(file)?.push({ name, billingId: `EQ-${n}`, markup: n % 5, subscriptions });
}

function newSubscription(estate: Estate, tenant: string, s: number, random: () => number): Subscription {
  const subscription: Subscription = {
    name: `s${s}`,
    billingId: `EQ-${tenant}-S${s}`,
    entitlements: [{ type: pick(TYPES, random), entitlement: 1 + Math.floor(random() * 9) }],
  };
  if (random() < 0.4) {
    const csv = `${tenant}-s${s}.csv`;
    subscription.addressesFrom = csv;
    estate.addressCsv.set(csv, [
      { street: `Eq Street ${tenant}`, number: `${s + 1}`, postalCode: 1000, city: 'Brussels' },
    ]);
  }
  return subscription;
}

function allTenants(estate: Estate): { tenant: Tenant; file: string; list: Tenant[] }[] {
  return [...estate.files].flatMap(([file, list]) => list.map((tenant) => ({ tenant, file, list })));
}

/** The random edits, each named for the failure message. */
export const EDITS: Record<string, (estate: Estate, random: () => number) => boolean> = {
  markup(estate, random) {
    const found = pick(allTenants(estate), random);
    if (!found) return false;
    found.tenant.markup = (found.tenant.markup + 1) % 7;
    return true;
  },
  entitlement(estate, random) {
    const found = pick(allTenants(estate), random);
    const entitlement = found?.tenant.subscriptions[0]?.entitlements[0];
    if (!entitlement) return false;
    entitlement.entitlement += 1;
    return true;
  },
  addSubscription(estate, random) {
    const found = pick(allTenants(estate), random);
    if (!found) return false;
    found.tenant.subscriptions.push(newSubscription(estate, found.tenant.name, 5 + estate.next++, random));
    return true;
  },
  removeSubscription(estate, random) {
    const found = pick(allTenants(estate), random);
    if (!found || found.tenant.subscriptions.length < 2) return false;
    found.tenant.subscriptions.pop();
    return true;
  },
  removeTenant(estate, random) {
    const found = pick(allTenants(estate), random);
    if (!found) return false;
    found.list.splice(found.list.indexOf(found.tenant), 1);
    return true;
  },
  addTenant(estate, random) {
    addTenant(estate, random, pick([...estate.files.keys()], random));
    return true;
  },
  moveTenant(estate, random) {
    const found = pick(allTenants(estate), random);
    if (!found) return false;
    found.list.splice(found.list.indexOf(found.tenant), 1);
    const file = random() < 0.3 ? fileName(estate.next++) : pick([...estate.files.keys()], random);
    if (!estate.files.has(file)) estate.files.set(file, []);
    estate.files.get(file)?.push(found.tenant);
    return true;
  },
  moveAndChangeTenant(estate, random) {
    return EDITS['moveTenant']!(estate, random) && EDITS['markup']!(estate, random);
  },
  renameTenant(estate, random) {
    const found = pick(allTenants(estate), random);
    if (!found || found.tenant.renamedFrom) return false;
    found.tenant.renamedFrom = [found.tenant.name];
    found.tenant.name = `${found.tenant.name}-renamed`;
    return true;
  },
  removeFile(estate, random) {
    const file = pick([...estate.files.keys()], random);
    estate.files.delete(file);
    return true;
  },
  addressCsv(estate, random) {
    const csv = pick([...estate.addressCsv.keys()], random);
    const rows = csv === undefined ? undefined : estate.addressCsv.get(csv);
    if (!rows) return false;
    rows.push({ street: `Eq Avenue ${estate.next++}`, number: '9', postalCode: 2000, city: 'Antwerpen' });
    return true;
  },
  routingCsv(estate, random) {
    const row = pick(estate.routes, random);
    if (random() < 0.5 && row) row.priority += 1;
    else estate.routes.push({ number: `+3229991${estate.next++}`, route: 'trunk-new', priority: 1 });
    return true;
  },
};

/** Writes the estate's manifests (and only them) into `dir`, replacing what was there. */
export async function writeEstate(dir: string, estate: Estate): Promise<void> {
  await rm(join(dir, 'tenants'), { recursive: true, force: true });
  await mkdir(join(dir, 'tenants'), { recursive: true });
  const used = new Set<string>();
  for (const [file, tenants] of estate.files) {
    if (tenants.length === 0) continue;
    await writeFile(join(dir, 'tenants', file), tenants.map((t) => tenantYaml(t, used)).join(''));
  }
  for (const csv of used) {
    const rows = estate.addressCsv.get(csv) ?? [];
    const lines = rows.map((r) => `${r.street},${r.number},${r.postalCode},${r.city},Belgium,BE`);
    await writeFile(
      join(dir, 'tenants', csv),
      ['street,number,postalCode,city,country,isoCode', ...lines, ''].join('\n'),
    );
  }
  await writeFile(
    join(dir, 'routes.yaml'),
    `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby, prune: true }
spec:
  key: [number]
  fields: { number: string, route: string, priority: integer }
  recordsFrom: routes.csv
`,
  );
  const routes = estate.routes.map((r) => `"${r.number}",${r.route},${r.priority}`);
  await writeFile(join(dir, 'routes.csv'), ['number,route,priority', ...routes, ''].join('\n'));
}

function tenantYaml(tenant: Tenant, csvUsed: Set<string>): string {
  const renamed = tenant.renamedFrom ? `, renamedFrom: [${tenant.renamedFrom.join(', ')}]` : '';
  let text = `---\napiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: ${tenant.name}, reseller: north, prune: true${renamed} }\n`;
  text += `spec:\n  billingId: ${tenant.billingId}\n  markup: ${tenant.markup}\n  subscriptions:\n`;
  for (const s of tenant.subscriptions) {
    text += `    - name: ${s.name}\n      billingId: ${s.billingId}\n      uc: uc_alpha\n      entitlements:\n`;
    for (const e of s.entitlements) text += `        - { type: ${e.type}, entitlement: ${e.entitlement} }\n`;
    if (s.addressesFrom) {
      csvUsed.add(s.addressesFrom);
      text += `      addressesFrom: ${s.addressesFrom}\n`;
    }
  }
  return text;
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

/** Each document's address and what it declares (its text and its CSV rows): two estates differ where these do. */
function documentSignatures(estate: Estate): Map<string, string> {
  const signatures = new Map<string, string>();
  for (const tenants of estate.files.values()) {
    for (const tenant of tenants) {
      const csv = tenant.subscriptions.map((s) => JSON.stringify(estate.addressCsv.get(s.addressesFrom ?? '') ?? null));
      signatures.set(`tenant/${tenant.name}`, `${tenantYaml(tenant, new Set())}${csv.join()}`);
    }
  }
  signatures.set('routing/draas/standby/routes', JSON.stringify(estate.routes));
  return signatures;
}

/** The addresses of the documents that differ between two estates. */
export function changedDocuments(before: Estate, after: Estate): string[] {
  const a = documentSignatures(before);
  const b = documentSignatures(after);
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort();
}
