import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * Writes a realistic estate of `tenants` tenants (each with an admin and one subscription
 * with two entitlements, an address, a location, a template and a trunk-group block list)
 * under `dir`, `perFile` tenant documents per file, plus their two resellers and group:
 * `tenants` × 11 + 3 objects. Plain JavaScript: the manifest tests and the benchmark
 * (test/bench/manifest-load.mjs) share it.
 * @param {string} dir
 * @param {number} tenants
 * @param {number} [perFile]
 * @returns {Promise<void>}
 */
export async function generateEstate(dir, tenants, perFile = 1000) {
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'org.yaml'),
    [
      'apiVersion: switchboard/v1\nkind: Group\nmetadata: { name: demo-group }\nspec: { draasDomain: demo.example.net }',
      'apiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: north, group: demo-group }\nspec: { billingId: R-NORTH }',
      'apiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: south, group: demo-group }\nspec: { billingId: R-SOUTH }',
    ].join('\n---\n') + '\n',
  );
  for (let start = 0; start < tenants; start += perFile) {
    const docs = [];
    for (let i = start; i < Math.min(tenants, start + perFile); i++) docs.push(tenant(i));
    await writeFile(path.join(dir, `tenants-${String(start / perFile).padStart(3, '0')}.yaml`), docs.join('---\n'));
  }
}

/** @param {number} i */
function tenant(i) {
  const n = String(i).padStart(5, '0');
  return `apiVersion: switchboard/v1
kind: Tenant
metadata:
  name: tenant-${n}
  reseller: ${i % 2 === 0 ? 'north' : 'south'}
spec:
  billingId: T-${n}
  markup: ${i % 7}
  admins:
    - { email: it@tenant-${n}.example, firstName: Ada, lastName: Lovelace }
  subscriptions:
    - name: main
      billingId: T-${n}-MAIN
      uc: uc_alpha
      suspensionProfile: null
      entitlements:
        - { type: BE geo, entitlement: ${10 + (i % 20)} }
        - { type: NL geo, entitlement: 2 }
      addresses:
        - { street: Rue Haute, number: "${1 + (i % 300)}", city: Brussels, postalCode: 1000, country: Belgium, isoCode: BE }
      locations:
        - { street: Rue Haute, number: "${1 + (i % 300)}", postalCode: "1000" }
      templates:
        - { sku: TPL-STD, name: Standard user, description: Default, location: BE, vrp: vrp-std }
      trunkGroups:
        - id: ${i}
          blockList:
            - name: no-premium
              prefixes: [ { prefix: "+32900", isExact: false } ]
`;
}
