/**
 * A generated estate with standards and random exceptions, written two ways from one
 * description: flat (every tenant repeats the standard) and with baselines (the standard in
 * three Baseline documents, each tenant holding only its exceptions, as overrides with their
 * reasons). Both declare the same objects by construction, written independently of the
 * loader's merge and of `baseline suggest`'s reduction, so each can check the other. The
 * live side (a simulator seed) holds the estate before an edit of the standard.
 */
import { seededRandom } from '../../src/core/random.js';
import { defaultSeed } from '../../src/sim/platform/seed/default-seed.js';
import type { Seed } from '../../src/sim/platform/seed/types.js';

export interface EstateOptions {
  resellers: number;
  tenantsPerReseller: number;
  /** Share of tenants with an exception of each kind (0.05: 5 %). */
  exceptions: number;
  /** The standard's BE geo quantity in the manifests (the live side has 10): the edit. */
  beGeo: number;
  /** The lab standard's FR geo quantity in the manifests (the live side has 1). */
  frGeo?: number;
  random?: number;
}

export interface Estate {
  /** Manifest files by relative name: flat, and with baselines. */
  flat: Record<string, string>;
  withBaselines: Record<string, string>;
  /** The live side before the edit. */
  seed: Seed;
  tenants: number;
  /** Tenants whose BE geo differs from the standard (they keep their own), with the reason. */
  ownBeGeo: Map<string, string>;
  /** Tenants that have no NL geo (an override removes the standard's). */
  withoutNlGeo: Set<string>;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const resellerName = (r: number): string => `std-r${pad(r, 2)}`;
const tenantName = (t: number): string => `std-t${pad(t, 4)}`;

interface TenantShape {
  name: string;
  reseller: string;
  markup: number;
  ownMarkup: boolean;
  beGeo: number;
  ownBeGeo: boolean;
  nlGeo: boolean;
  lab: boolean;
}

export function generateEstate(options: EstateOptions): Estate {
  const random = seededRandom(options.random ?? 7);
  const shapes: TenantShape[] = [];
  for (let r = 0; r < options.resellers; r++) {
    for (let k = 0; k < options.tenantsPerReseller; k++) {
      const t = r * options.tenantsPerReseller + k;
      const ownMarkup = random() < options.exceptions;
      const ownBeGeo = random() < options.exceptions;
      shapes.push({
        name: tenantName(t),
        reseller: resellerName(r),
        markup: ownMarkup ? 6 + (t % 5) : 5,
        ownMarkup,
        beGeo: ownBeGeo ? 20 + (t % 7) : options.beGeo,
        ownBeGeo,
        nlGeo: random() >= options.exceptions,
        lab: t % 10 === 3,
      });
    }
  }
  const ownBeGeo = new Map(shapes.filter((s) => s.ownBeGeo).map((s) => [`tenant/${s.name}`, `contract C-${s.name}`]));
  const withoutNlGeo = new Set(shapes.filter((s) => !s.nlGeo).map((s) => `tenant/${s.name}`));
  const resellers = Array.from({ length: options.resellers }, (_, r) => resellerDocument(resellerName(r))).join('');
  const flat: Record<string, string> = { 'resellers.yaml': resellers };
  const frGeo = options.frGeo ?? 1;
  const withBaselines: Record<string, string> = { 'resellers.yaml': resellers, ...BASELINES(options.beGeo, frGeo) };
  for (let r = 0; r < options.resellers; r++) {
    const mine = shapes.filter((s) => s.reseller === resellerName(r));
    flat[`tenants/${resellerName(r)}.yaml`] = mine.map((s) => flatTenant(s, frGeo)).join('');
    withBaselines[`tenants/${resellerName(r)}.yaml`] = mine.map(reducedTenant).join('');
  }
  return {
    flat,
    withBaselines,
    seed: liveSeed(shapes, options.resellers),
    tenants: shapes.length,
    ownBeGeo,
    withoutNlGeo,
  };
}

function resellerDocument(name: string): string {
  return `---\napiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: ${name}, group: demo-group }\nspec: { billingId: B-${name}, markup: 2 }\n`;
}

const BASELINES = (beGeo: number, frGeo: number): Record<string, string> => ({
  'baselines/office.yaml': `apiVersion: switchboard/v1
kind: Baseline
metadata: { name: office, description: Every tenant's markup }
spec:
  selector: {}
  values:
    markup: 5
`,
  'baselines/alpha.yaml': `apiVersion: switchboard/v1
kind: Baseline
metadata: { name: alpha }
spec:
  selector: {}
  values:
    subscriptions:
      - select: { uc: uc_alpha }
        entitlements:
          - { type: BE geo, entitlement: ${beGeo} }
          - { type: BE tollfree, entitlement: 2 }
          - { type: NL geo, entitlement: 3 }
`,
  'baselines/lab.yaml': `apiVersion: switchboard/v1
kind: Baseline
metadata: { name: lab }
spec:
  selector: { labels: { lab: "yes" } }
  values:
    subscriptions:
      - select: { uc: uc_beta }
        entitlements:
          - { type: FR geo, entitlement: ${frGeo} }
`,
});

function head(s: TenantShape, metadata: string[]): string {
  return `---\napiVersion: switchboard/v1\nkind: Tenant\nmetadata:\n  name: ${s.name}\n  reseller: ${s.reseller}\n${metadata.join('')}spec:\n  billingId: T-${s.name}\n`;
}

function subscriptions(s: TenantShape, main: string, lab: string): string {
  let out = `  subscriptions:\n    - name: main\n      billingId: T-${s.name}-MAIN\n      uc: uc_alpha\n${main}`;
  if (s.lab) out += `    - name: lab\n      billingId: T-${s.name}-LAB\n      uc: uc_beta\n${lab}`;
  return out;
}

function flatTenant(s: TenantShape, frGeo: number): string {
  const labels = s.lab ? ['  labels: { lab: "yes" }\n'] : [];
  let main = `      entitlements:\n        - { type: BE geo, entitlement: ${s.beGeo} }\n        - { type: BE tollfree, entitlement: 2 }\n`;
  if (s.nlGeo) main += '        - { type: NL geo, entitlement: 3 }\n';
  const lab = `      entitlements:\n        - { type: FR geo, entitlement: ${frGeo} }\n`;
  return `${head(s, labels)}  markup: ${s.markup}\n${subscriptions(s, main, lab)}`;
}

function reducedTenant(s: TenantShape): string {
  const metadata = s.lab ? ['  labels: { lab: "yes" }\n'] : [];
  const overrides: string[] = [];
  if (s.ownMarkup) overrides.push(`    - { path: spec.markup, reason: "negotiated ${s.markup} %" }\n`);
  if (s.ownBeGeo)
    overrides.push(
      `    - { path: "spec.subscriptions[main].entitlements[BE geo].entitlement", reason: "contract C-${s.name}" }\n`,
    );
  if (!s.nlGeo)
    overrides.push(
      '    - { path: "spec.subscriptions[main].entitlements[NL geo]", reason: no NL numbers, remove: true }\n',
    );
  if (overrides.length > 0) metadata.push('  overrides:\n', ...overrides);
  const main = s.ownBeGeo ? `      entitlements:\n        - { type: BE geo, entitlement: ${s.beGeo} }\n` : '';
  return `${head(s, metadata)}${s.ownMarkup ? `  markup: ${s.markup}\n` : ''}${subscriptions(s, main, '')}`;
}

/** The live side: the default data set plus the estate, BE geo at 10 where the standard applies. */
function liveSeed(shapes: readonly TenantShape[], resellers: number): Seed {
  const seed = structuredClone(defaultSeed());
  seed.resellers = [...(seed.resellers ?? [])];
  seed.tenants = [...(seed.tenants ?? [])];
  for (let r = 0; r < resellers; r++)
    seed.resellers.push({
      name: resellerName(r),
      billingId: `B-${resellerName(r)}`,
      markup: 2,
      owner: { group: 'demo-group' },
    });
  for (const s of shapes) {
    const main = {
      name: 'main',
      billingId: `T-${s.name}-MAIN`,
      uc: 'uc_alpha',
      entitlements: [
        { type: 'BE geo', entitlement: s.ownBeGeo ? s.beGeo : 10 },
        { type: 'BE tollfree', entitlement: 2 },
        ...(s.nlGeo ? [{ type: 'NL geo', entitlement: 3 }] : []),
      ],
    };
    const lab = {
      name: 'lab',
      billingId: `T-${s.name}-LAB`,
      uc: 'uc_beta',
      entitlements: [{ type: 'FR geo', entitlement: 1 }],
    };
    seed.tenants.push({
      name: s.name,
      billingId: `T-${s.name}`,
      markup: s.markup,
      owner: { reseller: s.reseller },
      subscriptions: s.lab ? [main, lab] : [main],
    });
  }
  return seed;
}
