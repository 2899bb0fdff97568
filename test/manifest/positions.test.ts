import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { PositionIndex } from '../../src/manifest/positions.js';
import { generateEstate } from './generate.mjs';

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sb-positions-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Manifests written the ways people write YAML: comments, blank lines, flow items, CRLF, anchors. */
const TRICKY = `# leading comment
---   # a comment on the marker line
apiVersion: switchboard/v1
kind: Tenant
metadata: { name: t1, reseller: north }
spec:
  billingId: T-1

  subscriptions:
    -   # a comment after the dash
      name: s1
      billingId: S-1
      entitlements:
        - { type: uc_alpha, entitlement: 2 }
        -
          type: uc_beta
          entitlement: 3
    - name: s2
      billingId: S-2
      addresses: &shared
        - { street: Main, number: '1', postalCode: 1000, city: Brussels, country: Belgium, isoCode: BE }
    - "name": s3
      billingId: S-3
---

# a comment before the content
apiVersion: switchboard/v1
kind: Tenant
metadata:
  name: t2
  reseller: north
spec:
  billingId: T-2
  subscriptions: [ { name: f1, billingId: F-1 }, {name: f2, billingId: F-2} ]
`;

/** Every yaml-origin object of the set: its position through js-yaml and through the yaml package. */
async function compare(paths: string[], cwd: string): Promise<{ objects: number; fast: number }> {
  const { set, diagnostics } = await loadManifests(paths, { cwd, env: {} });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const texts = new Map<string, string>();
  let objects = 0;
  let fast = 0;
  for (const o of set.objects) {
    if (o.origin.type !== 'yaml') continue;
    const file = o.origin.file;
    if (!texts.has(file)) texts.set(file, await readFile(path.resolve(cwd, file), 'utf8'));
    const text = texts.get(file) as string;
    const quick = new PositionIndex(file, text);
    const exact = new PositionIndex(file, text);
    const viaJsYaml = quick.locate(o.origin.doc, o.origin.path);
    const viaYaml = exact.locate(o.origin.doc, o.origin.path, { viaYamlPackage: true });
    expect(`${o.address} ${JSON.stringify(viaJsYaml)}`).toBe(`${o.address} ${JSON.stringify(viaYaml)}`);
    objects++;
    // Whether the fast path answered (the rest fell back to the yaml package).
    const start = (quick as unknown as { collectionStart(d: number, p: unknown): number | undefined }).collectionStart(
      o.origin.doc,
      o.origin.path,
    );
    if (start !== undefined) fast++;
  }
  return { objects, fast };
}

describe('object positions', () => {
  it('are the same through js-yaml as through the yaml package, in the examples', async () => {
    const { objects, fast } = await compare(['examples'], root);
    expect(objects).toBeGreaterThan(50);
    expect(fast).toBe(objects);
  });

  it('are the same through js-yaml as through the yaml package, in a generated estate', async () => {
    const estate = path.join(dir, 'estate');
    await generateEstate(estate, 40, 20);
    const { objects, fast } = await compare([estate], dir);
    expect(objects).toBeGreaterThan(400);
    expect(fast).toBe(objects);
  });

  it('are the same with comments, blank lines, flow items, quoted keys, anchors and CRLF line ends', async () => {
    const lf = path.join(dir, 'tricky');
    const crlf = path.join(dir, 'tricky-crlf');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(lf);
    await mkdir(crlf);
    await writeFile(path.join(lf, 't.yaml'), TRICKY);
    await writeFile(path.join(crlf, 't.yaml'), TRICKY.replace(/\n/g, '\r\n'));
    for (const folder of [lf, crlf]) {
      const { objects, fast } = await compare([folder], folder);
      expect(objects).toBe(10);
      expect(fast).toBe(10);
    }
  });
});
