// Planner CPU benchmark: 20,000 tenants × 2 subscriptions × 3 entitlements,
// 1% drift, planned against an in-memory platform (no HTTP): the read's normalisation,
// diff, order, safety and the text and JSON renders. Run after `npm run build`:
//   node test/plan/bench-planner.mjs [tenants]
import { kinds } from '../../dist/kinds/index.js';
import { LiveReader } from '../../dist/state/read.js';
import { computeChanges } from '../../dist/plan/planner.js';
import { kindRails } from '../../dist/plan/kind-rails.js';
import { checkSafety } from '../../dist/plan/safety.js';
import { renderText } from '../../dist/plan/render-text.js';
import { renderJson } from '../../dist/plan/render-json.js';

const TENANTS = Number(process.argv[2] ?? 20_000);
const P = '/api/v01/draas/demo';
const types = ['BE geo', 'BE tollfree', 'NL geo'];

const collections = new Map();
const desired = [];
collections.set(`${P}/groups`, [{ uuid: 'g-1', name: 'demo-group' }]);
const tenants = [];
for (let t = 0; t < TENANTS; t++) {
  const name = `tenant-${t}`;
  const uuid = `t-${t}`;
  const drift = t % 100 === 0; // 1% of tenants drifted
  tenants.push({ uuid, name, billingId: `B-${t}`, markup: drift ? '9' : '2.5' });
  desired.push({
    kind: 'Tenant',
    address: `tenant/${name}`,
    parentRef: { kind: 'Group', name: 'demo-group' },
    fields: { name, billingId: `B-${t}`, markup: 2.5 },
    declaredCollections: ['subscriptions'],
  });
  const subs = [];
  for (let s = 0; s < 2; s++) {
    const sub = `sub-${s}`;
    subs.push({ id: s + 1, name: sub, billingId: `B-${t}-${s}`, uc: 'uc_alpha' });
    const subAddress = `tenant/${name}/subscription/${sub}`;
    desired.push({
      kind: 'Subscription',
      address: subAddress,
      parentAddress: `tenant/${name}`,
      fields: { name: sub, billingId: `B-${t}-${s}`, uc: 'uc_alpha' },
      declaredCollections: ['entitlements'],
    });
    collections.set(
      `${P}/tenants/${uuid}/subscriptions/${s + 1}/entitlements`,
      types.map((type, i) => ({ id: i + 1, name: type, entitlement: drift && i === 0 ? 4 : 5 })),
    );
    for (const type of types) {
      desired.push({
        kind: 'Entitlement',
        address: `${subAddress}/entitlement/${type}`,
        parentAddress: subAddress,
        fields: { type, entitlement: 5 },
      });
    }
  }
  collections.set(`${P}/tenants/${uuid}/subscriptions`, subs);
}
collections.set(`${P}/tenants?parent=g-1`, tenants);

const client = {
  async listPages({ path, query }) {
    const key = query ? `${path}?${new URLSearchParams(query)}` : path;
    return collections.get(key) ?? [];
  },
  async request() {
    return { status: 200, body: undefined };
  },
};
const ctx = {
  P,
  refs: {
    read: async (list) => (list.name === 'entitlement types' ? types.map((name, i) => ({ id: i + 1, name })) : []),
  },
};

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const live = await new LiveReader(client, ctx, new Map()).read(
  desired,
  kinds.map((k) => k.kind),
);
const t1 = performance.now();
const out = await computeChanges({ desired, live, lastApplied: new Map(), ctx, options: { prune: false } });
const refusals = checkSafety([{ changes: out.changes, ...kindRails(desired, live) }], {
  maxDeletePercent: 10,
  allowReplace: false,
});
const t2 = performance.now();
const plan = {
  formatVersion: 1,
  createdAt: new Date().toISOString(),
  tool: { name: 'switchboard', version: 'bench' },
  target: { baseUrl: 'http://bench', instance: 'demo' },
  manifests: { digest: 'sha256:' + '0'.repeat(64), files: [] },
  summary: {
    create: 0,
    update: out.changes.length,
    replace: 0,
    delete: 0,
    noop: out.noop,
    unmanaged: out.unmanaged.length,
  },
  changes: out.changes,
  unmanaged: out.unmanaged,
  warnings: out.warnings,
  errors: refusals,
};
const text = renderText(plan, { color: false });
const json = renderJson(plan);
const t3 = performance.now();
const cpu = process.cpuUsage(cpu0);
const objects = desired.length;
console.log(
  JSON.stringify(
    {
      tenants: TENANTS,
      objects,
      changes: out.changes.length,
      noop: out.noop,
      readNormaliseMs: Math.round(t1 - t0),
      diffOrderSafetyMs: Math.round(t2 - t1),
      renderMs: Math.round(t3 - t2),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      textBytes: text.length,
      jsonBytes: json.length,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    },
    null,
    2,
  ),
);
