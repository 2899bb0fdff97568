/**
 * The `plan-org` estate expressed with baselines (docs/baselines.md): the same live estate,
 * its manifests written as three Baseline documents and tenants that hold only what differs
 * from them. 5 % of the tenants have overrides: the 2 % whose entitlements drifted
 * (estate.mjs's ORG_DRIFT, each entitlement a value override), and 3 % that leave one item
 * of their standard out (`remove: true`: that live entitlement is then unmanaged, as it is
 * for a flat manifest without it). The plan is the flat one's, with the same requests.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GROUP, ORG, ORG_DRIFT, addressOf, entitlementsOf, flow, pad, resellerName, tenantName } from './estate.mjs';

/** The tenants (3 %) whose standard leaves `BE mobile` of their second subscription out. */
export const leavesMobileOut = (t) => [5, 15, 95].includes(t % 100);
const LEFT_OUT = 'BE mobile';

/**
 * `baselines/*.yaml`, `resellers.yaml` and one file of tenants per reseller in `dir`.
 * @returns {Promise<{ baselines: number, tenants: number, withOverrides: number, overrides: number }>}
 */
export async function writeOrgBaselineManifests(dir, size = ORG, drift = ORG_DRIFT) {
  await mkdir(join(dir, 'tenants'), { recursive: true });
  await mkdir(join(dir, 'baselines'), { recursive: true });
  const half = Math.ceil(size.resellers / 2);
  const names = (from, to) => Array.from({ length: to - from }, (_, r) => resellerName(from + r)).join(', ');
  const standard = (s) =>
    `      - name: s${s}\n        uc: uc_alpha\n        entitlements:\n` +
    entitlementsOf(s, size)
      .map((e) => `          - ${flow(e)}\n`)
      .join('');
  const baselines = [
    ['office-s0', '{}', standard(0)],
    ['office-s1-north', `{ resellers: [${names(0, half)}] }`, standard(1)],
    ['office-s1-south', `{ resellers: [${names(half, size.resellers)}] }`, standard(1)],
  ];
  for (const [name, selector, values] of baselines)
    await writeFile(
      join(dir, 'baselines', `${name}.yaml`),
      `apiVersion: switchboard/v1\nkind: Baseline\nmetadata: { name: ${name} }\nspec:\n  selector: ${selector}\n  values:\n    subscriptions:\n${values}`,
    );
  if (!entitlementsOf(1, size).some((e) => e.type === LEFT_OUT))
    throw new Error(`the estate's second subscription has no ${LEFT_OUT} entitlement to leave out`);
  let resellers = '';
  let withOverrides = 0;
  let overrides = 0;
  for (let r = 0; r < size.resellers; r++) {
    resellers += `---\napiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: ${resellerName(r)}, group: ${GROUP} }\nspec: { billingId: BR-${pad(r, 2)}, markup: 2 }\n`;
    let docs = '';
    for (let k = 0; k < size.tenantsPerReseller; k++) {
      const t = r * size.tenantsPerReseller + k;
      const markup = drift.tenantMarkup(t) ? (t % 7) + 1 : t % 7;
      const own = [];
      let subscriptions = '';
      for (let s = 0; s < size.subscriptionsPerTenant; s++) {
        const billing = `BT-${pad(t, 4)}-S${s}${drift.subscriptionBillingId(t, s) ? '-X' : ''}`;
        subscriptions += `    - name: s${s}\n      billingId: ${billing}\n`;
        if (drift.entitlements(t, s)) {
          subscriptions += '      entitlements:\n';
          for (const e of entitlementsOf(s, size)) {
            subscriptions += `        - ${flow({ ...e, entitlement: e.entitlement + 10 })}\n`;
            own.push(
              `{ path: "spec.subscriptions[s${s}].entitlements[${e.type}].entitlement", reason: contract C-${t} }`,
            );
          }
        }
        if (s === 1 && leavesMobileOut(t))
          own.push(`{ path: "spec.subscriptions[s1].entitlements[${LEFT_OUT}]", reason: no mobiles, remove: true }`);
        const count = size.addressesPerSubscription + (drift.newAddress(t, s) ? 1 : 0);
        if (count > 0) subscriptions += '      addresses:\n';
        for (let a = 0; a < count; a++) subscriptions += `        - ${flow(addressOf(t, s, a))}\n`;
      }
      if (own.length > 0) {
        withOverrides += 1;
        overrides += own.length;
      }
      const metadata =
        own.length === 0
          ? `metadata: { name: ${tenantName(t)}, reseller: ${resellerName(r)} }\n`
          : `metadata:\n  name: ${tenantName(t)}\n  reseller: ${resellerName(r)}\n  overrides:\n${own.map((o) => `    - ${o}\n`).join('')}`;
      docs += `---\napiVersion: switchboard/v1\nkind: Tenant\n${metadata}spec:\n  billingId: BT-${pad(t, 4)}\n  markup: ${markup}\n  subscriptions:\n${subscriptions}`;
    }
    await writeFile(join(dir, 'tenants', `${resellerName(r)}.yaml`), docs);
  }
  await writeFile(join(dir, 'resellers.yaml'), resellers);
  return { baselines: baselines.length, tenants: size.resellers * size.tenantsPerReseller, withOverrides, overrides };
}
