import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';
import { loadManifests, type LoadResult } from '../../src/manifest/index.js';
import { toDesiredNodes } from '../../src/plan/desired.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sb-identity-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(text: string): Promise<LoadResult> {
  const sub = await mkdtemp(path.join(dir, 'case-'));
  await writeFile(path.join(sub, 'm.yaml'), text);
  return loadManifests([sub], { cwd: sub, env: {} });
}

const RENAMES = `apiVersion: switchboard/v1
kind: Group
metadata: { name: g, renamedFrom: [g-old] }
spec:
  callingPlans:
    - { name: premium, renamedFrom: [premium-old, premium-older] }
---
apiVersion: switchboard/v1
kind: Reseller
metadata: { name: r, group: g, uuid: 5d1a7b10-0000-4000-8000-0000000000aa }
---
apiVersion: switchboard/v1
kind: Tenant
metadata: { name: t-new, reseller: r, renamedFrom: [t-old] }
spec:
  subscriptions:
    - name: office
      billingId: T-1
      renamedFrom: [main]
      trunkGroups:
        - id: 3
          blockList: [ { name: bl, renamedFrom: [bl-old] } ]
`;

describe('renamedFrom and metadata.uuid in manifests', () => {
  it('gives each renamable object the addresses of its former names, under its (new) parent', async () => {
    const loaded = await load(RENAMES);
    expect(loaded.diagnostics).toEqual([]);
    const previous = Object.fromEntries(
      toDesiredNodes(loaded.set)
        .filter((n) => n.previousAddresses)
        .map((n) => [n.address, n.previousAddresses]),
    );
    expect(previous).toEqual({
      'group/g': ['group/g-old'],
      'group/g/block_list/premium': ['group/g/block_list/premium-old', 'group/g/block_list/premium-older'],
      'tenant/t-new': ['tenant/t-old'],
      'tenant/t-new/subscription/office': ['tenant/t-new/subscription/main'],
      'tenant/t-new/subscription/office/trunkgroup/3/block_list/bl': [
        'tenant/t-new/subscription/office/trunkgroup/3/block_list/bl-old',
      ],
    });
    // Former names are no field: nothing of them is compared or sent.
    for (const node of toDesiredNodes(loaded.set)) expect(node.fields).not.toHaveProperty('renamedFrom');
    const reseller = toDesiredNodes(loaded.set).find((n) => n.address === 'reseller/r');
    expect(reseller?.pinnedId).toBe('5d1a7b10-0000-4000-8000-0000000000aa');
  });

  it('renamedFrom is accepted only where the kind table says the name can change', async () => {
    const renamable = kinds.filter((k) => k.manifest.renamable).map((k) => k.kind);
    expect(renamable).toEqual([
      'Group',
      'Reseller',
      'Tenant',
      'Subscription',
      'GroupCallingPlan',
      'TrunkGroupBlockList',
      'TrunkGroupAllowList',
    ]);
    const template = await load(`apiVersion: switchboard/v1
kind: Tenant
metadata: { name: t, group: g }
spec:
  subscriptions:
    - name: s
      billingId: S
      templates:
        - { sku: TPL-NEW, renamedFrom: [TPL-OLD], name: n, description: d, location: BE, vrp: v }
`);
    expect(template.diagnostics.map((d) => [d.code, d.source?.line])).toEqual([['SB_UNKNOWN_FIELD', 9]]);
  });

  it('refuses a former name that is current, declared, taken twice or used to name a parent; one pin per object', async () => {
    const loaded = await load(`apiVersion: switchboard/v1
kind: Reseller
metadata: { name: r, group: g, renamedFrom: [r], uuid: u-1 }
---
apiVersion: switchboard/v1
kind: Reseller
metadata: { name: s, group: g, renamedFrom: [old], uuid: u-1 }
---
apiVersion: switchboard/v1
kind: Reseller
metadata: { name: x, group: g, renamedFrom: [s, old] }
---
apiVersion: switchboard/v1
kind: Tenant
metadata: { name: t, reseller: old }
`);
    expect(loaded.diagnostics.map((d) => [d.code, d.source?.line, d.message])).toEqual([
      ['SB_RENAME', 3, 'renamedFrom lists the current name'],
      ['SB_DUPLICATE_UUID', 7, expect.stringContaining('metadata.uuid u-1 also pins reseller/r (m.yaml:1:1)')],
      ['SB_RENAME', 11, expect.stringContaining('renamedFrom names reseller/s, which is declared too (m.yaml:5:1)')],
      ['SB_RENAME', 11, expect.stringContaining('reseller/old is also a former name of reseller/s (m.yaml:5:1)')],
      [
        'SB_RENAME',
        15,
        expect.stringContaining('old is a former name of reseller/s (m.yaml:5:1): name the reseller s'),
      ],
    ]);
  });

  it('the schemas refuse an empty renamedFrom, a repeated name and a uuid with spaces', async () => {
    const loaded = await load(`apiVersion: switchboard/v1
kind: Tenant
metadata: { name: t, group: g, renamedFrom: [], uuid: "a b" }
---
apiVersion: switchboard/v1
kind: Group
metadata: { name: g, renamedFrom: [a, a] }
`);
    expect(loaded.diagnostics.map((d) => d.source?.line)).toEqual([3, 3, 7]);
    expect(loaded.ok).toBe(false);
  });
});
