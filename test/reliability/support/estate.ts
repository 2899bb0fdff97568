/**
 * A generated estate of N tenants (and the examples, copied next to it) for the chaos,
 * crash and soak tests: resellers under `demo-group`, each tenant with a subscription, an
 * entitlement and a location, every tenth one with an administrator.
 */
import { readFileSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const EXAMPLES = resolve(import.meta.dirname, '../../../examples');

const POSTAL = ['1000', '1050', '2000', '9000'];

/**
 * `rich`: every tenant gets an entitlement and a location (four objects each); otherwise only
 * every fifth does, which keeps a 500-tenant plan's reads (one list per collection) small.
 */
export function estateDocuments(tenants: number, perReseller = 100, prefix = 'est', rich = true): string {
  const docs: string[] = [];
  const resellers = Math.ceil(tenants / perReseller);
  for (let r = 0; r < resellers; r++) {
    docs.push(`apiVersion: switchboard/v1
kind: Reseller
metadata: { name: ${prefix}-r${r}, group: demo-group }
spec:
  billingId: R-${prefix.toUpperCase()}-${r}
  markup: ${(r % 4) + 1}
`);
  }
  for (let t = 0; t < tenants; t++) {
    const name = `${prefix}-t${String(t).padStart(4, '0')}`;
    const extras =
      rich || t % 5 === 0
        ? `      entitlements:\n        - { type: BE geo, entitlement: ${(t % 7) + 1} }\n      locations:\n        - { street: Estate Street, number: "${t}", postalCode: "${POSTAL[t % POSTAL.length] ?? '1000'}" }\n`
        : '';
    const admin =
      t % 10 === 0 ? `  admins:\n    - { email: admin-${name}@estate.example, firstName: Ada, lastName: T${t} }\n` : '';
    docs.push(`apiVersion: switchboard/v1
kind: Tenant
metadata: { name: ${name}, reseller: ${prefix}-r${Math.floor(t / perReseller)} }
spec:
  billingId: T-${prefix.toUpperCase()}-${t}
  markup: ${t % 5}
${admin}  subscriptions:
    - name: main
      billingId: T-${prefix.toUpperCase()}-${t}-MAIN
      uc: uc_alpha
${extras}`);
  }
  return docs.join('---\n');
}

/** A temporary folder with `examples/` (optional) and the generated estate in `estate.yaml`. */
export async function estateDir(
  tenants: number,
  options: { examples?: boolean; prefix?: string; rich?: boolean } = {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-reliability-'));
  const manifests = join(dir, 'manifests');
  await mkdir(manifests, { recursive: true });
  if (options.examples !== false) await cp(EXAMPLES, manifests, { recursive: true, filter: isManifestSource });
  if (tenants > 0) {
    await writeFile(
      join(manifests, 'estate.yaml'),
      estateDocuments(tenants, 100, options.prefix, options.rich ?? true),
    );
  }
  return dir;
}

/** examples/ may also hold other YAML (CI workflow samples): only switchboard documents and their CSV files are copied. */
function isManifestSource(path: string): boolean {
  if (statSync(path).isDirectory() || !/\.ya?ml$/.test(path)) return true;
  return readFileSync(path, 'utf8').includes('apiVersion: switchboard/');
}
