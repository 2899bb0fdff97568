import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const EXAMPLES = resolve(import.meta.dirname, '../../examples');

/** `[file, from, to]`: one planted difference, a text replacement in one file of examples/. */
type Edit = readonly [file: string, from: string, to: string];

const SOUTH_UUID = '7b0c35f6-0000-4000-8000-00000000f00d';
/** Both trees pin reseller south to one live object: B renames it without renamedFrom (recognised by uuid). */
const PIN_SOUTH: Edit = ['resellers.yaml', '  name: south\n', `  name: south\n  uuid: ${SOUTH_UUID}\n`];

/**
 * The differences planted in B: at least one of every kind examples/ declares (changed,
 * added or removed), a rename by `renamedFrom` (a tenant, with its subscriptions moving
 * along, and a group calling plan), a rename by `metadata.uuid` (reseller south), and
 * sensitive fields (`${VAR}` references).
 */
const EDITS: readonly Edit[] = [
  ['group.yaml', 'draasDomain: demo.example.net', 'draasDomain: demo2.example.net'],
  ['group.yaml', 'firstName: Grace, lastName: Hopper', 'firstName: Grace, lastName: Hopper-Smith'],
  ['group.yaml', 'name: premium 0902 }', 'name: premium 0902b }'],
  ['group.yaml', '    - name: satellite\n', '    - name: satellite-phones\n      renamedFrom: [satellite]\n'],
  ['group.yaml', '      status: enabled\n', '      status: disabled\n'],
  ['group.yaml', 'font: { allowed: [Inter, Roboto], name: Inter }', 'font: { allowed: [Inter, Roboto], name: Roboto }'],
  ['resellers.yaml', 'markup: 3\n', 'markup: 3.5\n'],
  ['resellers.yaml', '  name: south\n', '  name: south-2\n'],
  ['tenants/south-tenants.yaml', 'reseller: south }', 'reseller: south-2 }'],
  [
    'tenants/globex.yaml',
    'metadata: { name: globex, reseller: south }',
    'metadata: { name: globex-2, reseller: south-2, renamedFrom: [globex] }',
  ],
  ['tenants/acme-corp.yaml', 'markup: 5\n', 'markup: 6\n'],
  ['tenants/acme-corp.yaml', 'billingId: T-ACME-MAIN', 'billingId: T-ACME-MAIN-2'],
  ['tenants/acme-corp.yaml', '{ type: BE geo, entitlement: 20 }', '{ type: BE geo, entitlement: 25 }'],
  [
    'tenants/acme-corp.yaml',
    '      addressesFrom:',
    '        - { street: Grote Markt, number: "1", city: Brussels, postalCode: 1000, country: Belgium, isoCode: BE }\n      addressesFrom:',
  ],
  [
    'tenants/acme-corp.yaml',
    'description: International calling and a second line',
    'description: International calling',
  ],
  ['tenants/acme-corp.yaml', '{ prefix: "+00", isExact: false }', '{ prefix: "+00", isExact: true }'],
  [
    'tenants/acme-corp.yaml',
    'name: helpdesk-exception\n              country: Belgium',
    'name: helpdesk-exception\n              country: België',
  ],
  ['tenants/acme-corp.yaml', '          allowList: []\n', '          allowList: []\n        - id: 9\n'],
  [
    'tenants/acme-corp.yaml',
    'name: no-international\n              country: Belgium',
    'name: no-international\n              country: België',
  ],
  [
    'tenants/acme-corp.yaml',
    '"+3221234565": { address: "Meir 22, 2000 Antwerpen, Belgium" }',
    '"+3221234565": { address: "Rue Haute 10, 1000 Brussels, Belgium" }',
  ],
  [
    'tenants/north-tenants.yaml',
    '        - { street: Meir, number: "22", postalCode: "2000" }\n',
    '        - { street: Meir, number: "22", postalCode: "2000" }\n        - { street: Meir, number: "24", postalCode: "2000" }\n',
  ],
  ['tenants/south-tenants.yaml', 'billingId: T-HOOLI\n', 'billingId: ${HOOLI_BILLING_ID}\n'],
  [
    'routing/routes.yaml',
    '{ number: "+3221234562", route: trunk-8, priority: 20 }',
    '{ number: "+3221234562", route: trunk-8, priority: 30 }',
  ],
  ['routing/routes.yaml', '    - { prefix: "+3226", carrier: uc-beta, weight: 30 }\n', ''],
  [
    'routing/routes.yaml',
    'metadata: { name: carriers, service: draas, version: standby, prune: true }',
    'metadata: { name: carriers, service: draas, version: standby }',
  ],
];

/** A copy of examples/ with `edits` made (each must find its text). */
export async function examplesCopy(edits: readonly Edit[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-compare-'));
  await cp(EXAMPLES, dir, { recursive: true, filter: (source) => !source.includes('.github') });
  for (const [file, from, to] of edits) {
    const path = join(dir, file);
    const text = await readFile(path, 'utf8');
    if (!text.includes(from)) throw new Error(`planted edit: ${file} does not hold ${JSON.stringify(from)}`);
    await writeFile(
      path,
      text.replace(from, () => to),
    ); // a function: `$$` in `to` stays `$$`
  }
  return dir;
}

/** A: examples/ with south pinned; B: the same with every planted difference. */
export async function plantedTrees(): Promise<{ a: string; b: string }> {
  return { a: await examplesCopy([PIN_SOUTH]), b: await examplesCopy([PIN_SOUTH, ...EDITS]) };
}
