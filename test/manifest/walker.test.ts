import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKind, kindOf } from '../../src/kinds/index.js';
import { loadManifests, type LoadResult } from '../../src/manifest/index.js';
import { copyNode, toDesiredNodes } from '../../src/plan/desired.js';

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sb-walker-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadText(files: Record<string, string>): Promise<LoadResult> {
  const sub = await mkdtemp(path.join(dir, 'case-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(sub, name), text);
  return loadManifests([sub], { cwd: sub, env: {} });
}

const GROUP = `apiVersion: switchboard/v1
kind: Group
metadata: { name: g }
spec:
  branding:
    theme: { themes: { z: /z.css, a: /a.css }, selected: a }
    font: { name: Inter }
  products:
    - { sku: P1, name: One, items: [ { quantity: 3, type: license, subType: ucAlphaUsers } ] }
---
apiVersion: switchboard/v1
kind: Tenant
metadata: { name: t, group: g }
spec:
  subscriptions:
    - name: s
      billingId: S
      numbers:
        "+3221234567": { address: "Meir 1, 2000 Antwerpen, Belgium" }
      locations:
        - { street: Meir, number: 5, postalCode: 2000 }
      trunkGroups:
        - id: 3
          allowList: [ { name: al, countryCode: 44 } ]
          blockList: [ { name: bl } ]
`;

describe('the walker (one builder driven by the kind table)', () => {
  it('puts every platform object at the address its kind builds from its fields, as the live side does', async () => {
    const examples = await loadManifests(['examples'], { cwd: root, env: {} });
    const objects = [...examples.set.platformObjects(), ...(await loadText({ 'g.yaml': GROUP })).set.platformObjects()];
    expect(objects.length).toBeGreaterThan(60);
    for (const o of objects) {
      const kind = kindOf(o.kind);
      expect(kind.address(o.parentAddress, kind.identity(o.fields)), o.address).toBe(o.address);
      // The identity column names every field the identity is formed from.
      expect(kind.identity(o.identity), o.address).toBe(kind.identity(o.fields));
    }
  });

  it("emits the kind table's own kinds: a trunk group's lists are block and allow lists, with no list-type field", async () => {
    const { set, diagnostics } = await loadText({ 'g.yaml': GROUP });
    expect(diagnostics).toEqual([]);
    const lists = set.children('tenant/t/subscription/s/trunkgroup/3');
    expect(lists.map((o) => [o.kind, o.address, o.fields])).toEqual([
      ['TrunkGroupAllowList', 'tenant/t/subscription/s/trunkgroup/3/allow_list/al', { name: 'al', countryCode: '44' }],
      ['TrunkGroupBlockList', 'tenant/t/subscription/s/trunkgroup/3/block_list/bl', { name: 'bl' }],
    ]);
    // The planner's nodes carry the same kinds: nothing renames them on the way.
    const nodes = toDesiredNodes(set);
    expect(nodes.every((n) => hasKind(n.kind))).toBe(true);
    expect(nodes.find((n) => n.address.endsWith('/allow_list/al'))).toMatchObject({
      kind: 'TrunkGroupAllowList',
      fields: { name: 'al', countryCode: '44' },
    });
  });

  it("gives the planner's nodes their manifest position on demand, kept by a copy with other fields", async () => {
    const { set } = await loadText({ 'g.yaml': GROUP });
    const nodes = toDesiredNodes(set);
    const theme = nodes.find((n) => n.address === 'group/g/branding/theme');
    expect(theme?.source).toMatch(/g\.yaml:6:\d+$/);
    // The position is read from the shared prototype, not stored per node (memory at scale).
    expect(Object.getOwnPropertyNames(theme)).not.toContain('source');
    const copy = copyNode(theme as NonNullable<typeof theme>, {
      address: 'group/g/branding/other',
      declaredCollections: [],
    });
    expect(copy).toMatchObject({ address: 'group/g/branding/other', kind: theme?.kind, declaredCollections: [] });
    expect(copy.source).toBe(theme?.source);
    expect(theme?.address).toBe('group/g/branding/theme');
  });

  it('reads map-shaped collections by identity, turns unquoted numbers of text fields into text and sorts nested keys', async () => {
    const { set } = await loadText({ 'g.yaml': GROUP });
    expect(set.get('group/g/branding/theme')?.fields).toEqual({
      type: 'theme',
      selected: 'a',
      themes: { a: '/a.css', z: '/z.css' },
    });
    expect(Object.keys(set.get('group/g/branding/theme')?.fields['themes'] as object)).toEqual(['a', 'z']);
    expect(set.get('group/g/branding/font')?.origin).toMatchObject({ path: ['spec', 'branding', 'font'] });
    expect(set.get('tenant/t/subscription/s/number/+3221234567')).toMatchObject({
      identity: { number: '+3221234567' },
      fields: { number: '+3221234567', address: 'Meir 1, 2000 Antwerpen, Belgium' },
      origin: { path: ['spec', 'subscriptions', 0, 'numbers', '+3221234567'] },
    });
    expect(set.get('tenant/t/subscription/s/location/Meir 5 2000')?.fields).toEqual({
      street: 'Meir',
      number: '5',
      postalCode: '2000',
    });
    expect(set.get('tenant/t/subscription/s/trunkgroup/3')?.fields).toEqual({ id: 3 });
    const product = set.get('group/g/product/P1')?.fields['items'] as object[];
    expect(Object.keys(product[0] as object)).toEqual(['quantity', 'subType', 'type']);
  });

  it('declares the collections an item writes, including one a CSV source fills', async () => {
    const { set } = await loadText({
      't.yaml': `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: t, group: { uuid: g-1 } }
spec:
  admins: []
  subscriptions:
    - { name: s, billingId: S, addressesFrom: a.csv, templates: [] }
`,
      'a.csv': 'premises,city,country,isoCode,number,postalCode,state,street\n,Gent,Belgium,BE,3,9000,,Veldstraat\n',
    });
    expect(set.get('tenant/t')?.declaredCollections).toEqual(['admins', 'subscriptions']);
    expect(set.get('tenant/t/subscription/s')?.declaredCollections).toEqual(['addresses', 'templates']);
    expect(set.get('tenant/t/subscription/s/address/Veldstraat 3, 9000 Gent, Belgium')).toMatchObject({
      kind: 'Address',
      fields: {
        city: 'Gent',
        country: 'Belgium',
        isoCode: 'BE',
        number: '3',
        postalCode: 9000,
        street: 'Veldstraat',
        fullAddress: 'Veldstraat 3, 9000 Gent, Belgium',
      },
      origin: { type: 'csv', line: 2 },
    });
  });

  it("refuses an address's format: the platform sets it, switchboard never sends it", async () => {
    const { diagnostics } = await loadText({
      't.yaml': `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: t, group: g }
spec:
  subscriptions: [ { name: s, billingId: S, addresses: [
    { street: Meir, city: Antwerpen, postalCode: 2000, country: Belgium, format: mapservice } ] } ]
`,
    });
    expect(diagnostics.map((d) => [d.code, d.source?.line])).toEqual([['SB_IGNORED_FIELD', 6]]);
    expect(diagnostics[0]?.message).toMatch(/format.*not managed/);
  });
});
