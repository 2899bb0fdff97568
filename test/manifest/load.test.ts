import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests, type LoadResult } from '../../src/manifest/index.js';

const root = path.resolve(import.meta.dirname, '../..');
let examples: LoadResult;
let dir: string;

beforeAll(async () => {
  examples = await loadManifests(['examples'], { cwd: root, env: {} });
  dir = await mkdtemp(path.join(tmpdir(), 'sb-load-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadText(files: Record<string, string>, env: Record<string, string> = {}): Promise<LoadResult> {
  const sub = await mkdtemp(path.join(dir, 'case-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(sub, name), text);
  return loadManifests([sub], { cwd: sub, env });
}

describe('addresses (docs/plans.md)', () => {
  it('gives every example object its contract address', () => {
    const has = (a: string): boolean => examples.set.get(a) !== undefined;
    for (const address of [
      'group/demo-group',
      'group/demo-group/admin/platform-ops@demo.example.net',
      'group/demo-group/block_list/premium-numbers',
      'group/demo-group/block_list/premium-numbers/prefix/+32900',
      'group/demo-group/product/PRD-BASIC',
      'group/demo-group/branding/theme',
      'reseller/north',
      'tenant/acme-corp',
      'tenant/acme-corp/subscription/main',
      'tenant/acme-corp/subscription/main/entitlement/BE geo',
      'tenant/acme-corp/subscription/main/address/Rue Haute 10, 1000 Brussels, Belgium',
      'tenant/acme-corp/subscription/main/address/Meir 22, 2000 Antwerpen, Belgium',
      'tenant/acme-corp/subscription/main/location/Rue Haute 10 1000',
      'tenant/acme-corp/subscription/main/template/TPL-STD',
      'tenant/acme-corp/subscription/main/trunkgroup/7/block_list/no-premium',
      'tenant/acme-corp/subscription/main/trunkgroup/7/allow_list/helpdesk-exception/prefix/+3290012345',
      'tenant/acme-corp/subscription/main/number/+3221234562',
      'tenant/acme-corp/admin/it@acme.example',
      'routing/draas/standby/routes',
      'routing/draas/standby/routes/number=+3221234560',
      'routing/draas/standby/routes/number=+3223000999',
    ]) {
      expect(has(address), address).toBe(true);
    }
  });

  it('links parents: declared by address, distributor by uuid', () => {
    expect(examples.set.get('tenant/acme-corp')?.parentAddress).toBe('reseller/north');
    expect(examples.set.get('reseller/north')?.parentAddress).toBe('group/demo-group');
    expect(examples.set.get('reseller/south')?.parentRef).toEqual({
      kind: 'Distributor',
      uuid: '5d1a7b10-0000-4000-8000-000000000001',
    });
    expect(examples.set.children('tenant/acme-corp/subscription/main').map((o) => o.kind)).toContain('Entitlement');
    expect(examples.set.externalParents).toEqual([]);
  });

  it('docs/manifests.md: a parent named but not declared is an external reference, not an error', async () => {
    const r = await loadText({
      't.yaml': 'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: a, reseller: elsewhere }\nspec: {}\n',
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.set.get('tenant/a')?.parentRef).toEqual({ kind: 'Reseller', name: 'elsewhere' });
    expect(r.set.externalParents).toEqual([{ kind: 'Reseller', name: 'elsewhere', referencedBy: ['tenant/a'] }]);
  });
});

describe('desired fields', () => {
  it('docs/manifests.md: keeps only declared fields; omitted = unmanaged, explicit null kept', () => {
    const main = examples.set.get('tenant/acme-corp/subscription/main');
    expect(main?.fields).toEqual({ name: 'main', billingId: 'T-ACME-MAIN', uc: 'uc_alpha', suspensionProfile: null });
    expect(examples.set.get('tenant/globex/subscription/voice')?.fields).not.toHaveProperty('suspensionProfile');
    expect(main?.identity).toEqual({ name: 'main' });
  });

  it('Doc2 §4.7: a location may declare postalCodeId next to its postal code; the identity stays the code', async () => {
    const r = await loadText({
      't.yaml': `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: t, reseller: north }
spec:
  subscriptions:
    - name: main
      billingId: T-MAIN
      locations:
        - { street: Meir, number: "22", postalCode: "2000", postalCodeId: 3 }
        - { street: Meir, number: "23", postalCode: 2000 }
`,
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.set.get('tenant/t/subscription/main/location/Meir 22 2000')?.fields).toEqual({
      street: 'Meir',
      number: '22',
      postalCode: '2000',
      postalCodeId: 3,
    });
    expect(r.set.get('tenant/t/subscription/main/location/Meir 23 2000')?.fields).not.toHaveProperty('postalCodeId');
    const bad = await loadText({
      't.yaml':
        'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t, reseller: north }\nspec:\n  subscriptions:\n' +
        '    - { name: main, billingId: M, locations: [{ street: Meir, number: "1", postalCode: "2000", postalCodeId: "three" }] }\n',
    });
    expect(bad.diagnostics.map((d) => d.message).join('\n')).toMatch(/postalCodeId/);
  });

  it('docs/plans.md: records the collections a document declares, for prune scope', () => {
    expect(examples.set.get('tenant/acme-corp')?.declaredCollections).toEqual(['admins', 'subscriptions']);
    expect(examples.set.get('tenant/globex/subscription/voice')?.declaredCollections).toEqual(['trunkGroups']);
    expect(examples.set.get('tenant/acme-corp/subscription/main/trunkgroup/8')?.declaredCollections).toEqual([
      'blockList',
      'allowList',
    ]);
    expect(examples.set.get('tenant/acme-corp/subscription/main/entitlement/BE geo')?.prune).toBe(true);
    expect(examples.set.get('group/demo-group/product/PRD-BASIC')?.protect).toBe(true);
  });

  it('reads addressesFrom relative to the manifest and keeps the CSV line as source', () => {
    const address = examples.set.get('tenant/acme-corp/subscription/main/address/Korenmarkt 1, 9000 Gent, Belgium');
    expect(address?.fields).toMatchObject({
      street: 'Korenmarkt',
      number: '1',
      postalCode: 9000,
      city: 'Gent',
      country: 'Belgium',
      isoCode: 'BE',
    });
    expect(examples.set.sourceOf(address!)).toEqual({
      file: 'examples/tenants/acme-corp-addresses.csv',
      line: 3,
      column: 1,
    });
  });

  it('resolves positions of objects and fields on demand', () => {
    expect(examples.set.sourceOf('tenant/acme-corp')).toEqual({
      file: 'examples/tenants/acme-corp.yaml',
      line: 4,
      column: 1,
    });
    expect(examples.set.sourceOf('tenant/acme-corp', 'billingId')).toEqual({
      file: 'examples/tenants/acme-corp.yaml',
      line: 14,
      column: 3,
    });
    expect(examples.set.sourceOf('tenant/acme-corp/subscription/main/template/TPL-EXEC', 'vrp')).toEqual({
      file: 'examples/tenants/acme-corp.yaml',
      line: 38,
      column: 11,
    });
  });

  it('keeps routing rows compact and materialises one row by address, typed by the hints', () => {
    const table = examples.set.routingTables[0]!;
    expect(table.columns).toEqual(['number', 'route', 'priority']);
    expect(examples.set.objects.some((o) => o.kind === 'RoutingRow')).toBe(false);
    const row = examples.set.get('routing/draas/standby/routes/number=+3223000000');
    expect(row).toMatchObject({
      kind: 'RoutingRow',
      identity: { number: '+3223000000' },
      parentAddress: 'routing/draas/standby/routes',
      origin: { type: 'csv', line: 2 },
    });
    expect(typeof row?.fields['priority'] === 'number' || row?.fields['priority'] === null).toBe(true);
  });
});

describe('routing rows', () => {
  it('docs/plans.md: addresses a row of a multi-field key as field=value,field=value in key order', async () => {
    const r = await loadText({
      'c.yaml':
        'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: carriers, service: draas, version: active }\nspec:\n  key: [prefix, carrier]\n  fields: { weight: integer }\n  recordsFrom: c.csv\n',
      'c.csv': 'carrier,prefix,weight\ncarrier-a,+32,10\n\ncarrier-b,+32,20\ncarrier-a,+32,30\n',
    });
    expect(r.diagnostics.map((d) => `${d.source?.file}:${d.source?.line} ${d.code} ${d.message}`)).toEqual([
      'c.csv:5 SB_DUPLICATE_ROW row prefix=+32,carrier=carrier-a is declared twice; first at c.csv:2',
    ]);
    const row = r.set.get('routing/draas/active/carriers/prefix=+32,carrier=carrier-b');
    expect(row).toMatchObject({
      identity: { prefix: '+32', carrier: 'carrier-b' },
      fields: { carrier: 'carrier-b', prefix: '+32', weight: 20 },
      origin: { line: 4 },
    });
    expect(r.set.get('routing/draas/active/carriers/carrier=carrier-b,prefix=+32')).toBeUndefined();
  });

  it('parses a CSV cell of a declared type as the diff parses one the live values type (docs/routing.md)', async () => {
    const r = await loadText({
      'c.yaml':
        'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: routes, service: draas, version: active }\nspec:\n' +
        '  key: [number]\n  fields: { label: string, on: boolean, weight: number }\n  recordsFrom: c.csv\n',
      'c.csv': 'number,label,on,weight,note\n+321,,TRUE,2.5,\n+322,x,1,,y\n+323,y,no,0x10,z\n',
    });
    const row = (n: string) => r.set.get(`routing/draas/active/routes/number=${n}`)?.fields;
    // An empty string cell stays "" (as it would written inline); an empty cell of another type is null.
    expect(row('+321')).toMatchObject({ label: '', on: true, weight: 2.5 });
    expect(row('+322')).toMatchObject({ label: 'x', on: true, weight: null, note: 'y' });
    // `0x10` is no decimal number: Number() would read 16, an engine keeps the text.
    expect(r.diagnostics.map((d) => `${d.source?.line} ${d.code}`)).toEqual(['4 SB_ROW_TYPE']);
  });

  it('refuses a CSV header that names a column twice: one of its cells would be dropped unsaid', async () => {
    const r = await loadText({
      'c.yaml':
        'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: routes, service: draas, version: active }\nspec:\n  key: [number]\n  recordsFrom: c.csv\n',
      'c.csv': 'number,route,route\n+321,a,b\n',
    });
    expect(
      r.diagnostics.map((d) => `${d.source?.file}:${d.source?.line}:${d.source?.column} ${d.code} ${d.message}`),
    ).toEqual(['c.csv:1:14 SB_CSV header "route" is given twice (columns 2 and 3)']);
    expect(r.set.get('routing/draas/active/routes/number=+321')).toBeUndefined();
  });

  it('keeps the first of rows declared twice, names it for each later one, and keeps every other row in order', async () => {
    const r = await loadText({
      'c.yaml':
        'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: routes, service: draas, version: active }\nspec:\n  key: [number]\n  fields: { priority: integer }\n  recordsFrom: c.csv\n',
      'c.csv': 'number,priority\n+321,1\n+322,2\n+321,3\n+323,4\n+322,5\n+321,6\n+324,7\n',
    });
    expect(r.diagnostics.map((d) => `${d.source?.line} ${d.message}`)).toEqual([
      '4 row number=+321 is declared twice; first at c.csv:2',
      '6 row number=+322 is declared twice; first at c.csv:3',
      '7 row number=+321 is declared twice; first at c.csv:2',
    ]);
    const table = r.set.routingTables[0]!;
    expect(table.rows.map((row) => row[table.columns.indexOf('priority')])).toEqual([1, 2, 4, 7]);
    for (const [number, priority, line] of [
      ['+321', 1, 2],
      ['+322', 2, 3],
      ['+323', 4, 5],
      ['+324', 7, 8],
    ] as const)
      expect(r.set.get(`routing/draas/active/routes/number=${number}`)).toMatchObject({
        fields: { priority },
        origin: { line },
      });
  });
});

describe('${VAR} and the digest', () => {
  const reseller = (mobile: string): string =>
    `apiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: r, group: g }\nspec:\n  admins:\n    - { email: a@r.example, mobile: "${mobile}" }\n`;

  it('docs/manifests.md: replaces ${VAR} from the environment and flags the field as sensitive', async () => {
    const r = await loadText({ 'r.yaml': reseller('${SB_MOBILE}') }, { SB_MOBILE: '+32470999999' });
    expect(r.diagnostics).toEqual([]);
    const admin = r.set.get('reseller/r/admin/a@r.example');
    expect(admin?.fields['mobile']).toBe('+32470999999');
    expect(admin?.sensitiveFields).toEqual(['mobile']);
  });

  it('docs/manifests.md: an unset variable is an error at its position; $${ is a literal', async () => {
    const r = await loadText({ 'r.yaml': reseller('$${X} ${SB_NOPE}') });
    expect(r.diagnostics.map((d) => `${d.source?.line}:${d.source?.column} ${d.code}`)).toEqual(['6:44 SB_ENV_UNSET']);
    const ok = await loadText({ 'r.yaml': reseller('$${X}') });
    expect(ok.set.get('reseller/r/admin/a@r.example')?.fields['mobile']).toBe('${X}');
  });

  it("docs/manifests.md: switchboard's own credential variables are refused at their position, never read", async () => {
    const env = { SWITCHBOARD_PASSWORD: 'platform-pass-1', SWITCHBOARD_RE_TOKEN: 'engine-token-1' };
    for (const name of [
      'SWITCHBOARD_TOKEN',
      'SWITCHBOARD_PASSWORD',
      'SWITCHBOARD_TOTP_SECRET',
      'SWITCHBOARD_RE_TOKEN',
      'SWITCHBOARD_RE_PASSWORD',
      'SWITCHBOARD_NOTIFY_URL',
    ]) {
      const r = await loadText({ 'r.yaml': reseller(`x \${${name}}`) }, env);
      expect(r.diagnostics.map((d) => `${d.source?.line}:${d.source?.column} ${d.code}`)).toEqual([
        '6:40 SB_ENV_CREDENTIAL',
      ]);
      expect(r.diagnostics[0]?.message).toMatch(/is switchboard's own credential \((auth|routingEngine|notify)\./);
      expect(JSON.stringify(r.diagnostics)).not.toMatch(/platform-pass-1|engine-token-1/);
    }
    // A username is no credential; a variable of the user's own is read.
    const ok = await loadText({ 'r.yaml': reseller('${SWITCHBOARD_USERNAME}') }, { SWITCHBOARD_USERNAME: 'ops' });
    expect(ok.diagnostics).toEqual([]);
  });

  it('digests content, not layout: comments and flow style do not count, values and secrets do', async () => {
    const a = await loadText({ 'r.yaml': reseller('${M}') }, { M: '1' });
    const b = await loadText(
      {
        'x.yaml': `# same reseller\napiVersion: switchboard/v1\nkind: Reseller\nmetadata:\n  name: r\n  group: g\nspec:\n  admins:\n    - email: a@r.example\n      mobile: "\${M}"\n`,
      },
      { M: '1' },
    );
    const c = await loadText({ 'r.yaml': reseller('${M}') }, { M: '2' });
    expect(a.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(b.digest).toBe(a.digest);
    expect(c.digest).not.toBe(a.digest);
  });
});

describe('billingId, unique per group (Doc 1 §2.4)', () => {
  const tenant = (name: string, parent: string, billingId: string) =>
    `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: ${name}, ${parent} }\nspec: { billingId: ${billingId} }\n`;
  const codes = (loaded: LoadResult) => loaded.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

  it('compares the tenants of one undeclared reseller, not those of two: their groups are not known', async () => {
    const apart = await loadText({
      'm.yaml': [tenant('alpha', 'reseller: north', 'T-SAME'), tenant('beta', 'reseller: south', 'T-SAME')].join(
        '---\n',
      ),
    });
    expect(codes(apart)).toEqual([]);
    const together = await loadText({
      'm.yaml': [
        tenant('alpha', 'reseller: north', 'T-SAME'),
        tenant('beta', 'reseller: south', 'T-OTHER'),
        tenant('gamma', 'reseller: north', 'T-SAME'),
      ].join('---\n'),
    });
    expect(codes(together)).toEqual(['SB_DUPLICATE_BILLING_ID']);
    expect(together.diagnostics[0]?.message).toContain('also used by tenant/alpha');
  });

  it('compares the tenants under one declared group, whichever reseller they hang under', async () => {
    const reseller = (name: string) =>
      `apiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: ${name}, group: demo-group }\nspec: {}\n`;
    const loaded = await loadText({
      'm.yaml': [
        reseller('north'),
        reseller('south'),
        tenant('alpha', 'reseller: north', 'T-SAME'),
        tenant('beta', 'reseller: south', 'T-SAME'),
        tenant('gamma', 'reseller: east', 'T-SAME'),
      ].join('---\n'),
    });
    expect(codes(loaded)).toEqual(['SB_DUPLICATE_BILLING_ID']);
  });
});
