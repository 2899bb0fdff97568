import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jsYaml from 'js-yaml';
import { fieldPath } from '../../src/manifest/desired-set.js';
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

/**
 * Every yaml-origin object of the set: its position, and the position of each of its fields'
 * keys, through js-yaml and the text (the fast paths) and through the yaml package.
 */
async function compare(paths: string[], cwd: string): Promise<{ objects: number; fast: number; keys: number }> {
  const { set, diagnostics } = await loadManifests(paths, { cwd, env: {} });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const texts = new Map<string, string>();
  let objects = 0;
  let fast = 0;
  let keys = 0;
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
    for (const field of Object.keys(o.fields)) {
      // The document path of the field, as plans ask for it (placeOf).
      const at = fieldPath(o.origin, field);
      const viaText = quick.locate(o.origin.doc, at, { key: true });
      const viaYamlKey = exact.locate(o.origin.doc, at, { key: true, viaYamlPackage: true });
      expect(`${o.address} ${field} ${JSON.stringify(viaText)}`).toBe(
        `${o.address} ${field} ${JSON.stringify(viaYamlKey)}`,
      );
      const key = (quick as unknown as { keyStart(d: number, p: unknown): number | undefined }).keyStart(
        o.origin.doc,
        at,
      );
      if (key !== undefined) keys++;
    }
  }
  return { objects, fast, keys };
}

describe('object positions', () => {
  it('are the same through js-yaml as through the yaml package, in the examples', async () => {
    const { objects, fast, keys } = await compare(['examples'], root);
    expect(objects).toBeGreaterThan(50);
    expect(fast).toBe(objects);
    expect(keys).toBeGreaterThan(200);
  });

  it('are the same through js-yaml as through the yaml package, in a generated estate', async () => {
    const estate = path.join(dir, 'estate');
    await generateEstate(estate, 40, 20);
    const { objects, fast, keys } = await compare([estate], dir);
    expect(objects).toBeGreaterThan(400);
    expect(fast).toBe(objects);
    expect(keys).toBeGreaterThan(1000);
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

/** Keys written every way YAML allows, and texts where a line at a mapping's column is not its key. */
const TRICKY_KEYS = `a: 1
"quoted": 2
b : 3
c: "a multi-line
  d: value"
e: |
  f: inside a block scalar
g:
  h: 1
  # i: a comment
  j:
  - k: 1
    l: 2
  - {m: 1, n: 2}
  'o': 3
base: &base
  p: 1
merged:
  <<: *base
  q: 2
flow: {s: 1,
  t: 2}
on: 5
u.v: 6
flows:
  one: { a: 1, "b": 2 }
  two: {c: 'it''s, here', d: "x, \\" y", e: plain words}
  three: { f: [1, 2], g: 3 }
  four: { h: 1 # not a comment: the line ends the map
    , i: 2 }
  five: { j: a:b, k: 2, }
  six: { l: 1, l2: 2 }
? w
: 7
x: &anchored
  y: 1
---
- z: 1
  zz: 2
- - deep: 1
    deeper: 2
---
dup:
  r: 1
  r: 2
`;

/** Every path to a key of a mapping in `value`. */
function keyPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value as Record<string, unknown>);
  return entries.flatMap(([k, v]) => [...(Array.isArray(value) ? [] : [[...at, k]]), ...keyPaths(v, [...at, k])]);
}

describe('key positions', () => {
  it('are the same through the text as through the yaml package, for every key written any way, LF and CRLF, and for missing keys', async () => {
    for (const text of [TRICKY_KEYS, TRICKY_KEYS.replace(/\n/g, '\r\n')]) {
      // js-yaml refuses the duplicate key (and the fast path with it): its document's paths are listed by hand.
      const docs: unknown[] = [...jsYaml.loadAll(text.replace(/---\r?\ndup:[^]*$/, '')), { dup: { r: 2 } }];
      let fromText = 0;
      let checked = 0;
      const exact = new PositionIndex('k.yaml', text);
      docs.forEach((value, doc) => {
        // Each key, and a key its mapping does not have (answered with the nearest ancestor's position).
        const paths = keyPaths(value).flatMap((at) => [at, [...at.slice(0, -1), 'missing']]);
        for (const at of paths) {
          // A fresh index per key: no answer comes from another key's reading of the mapping.
          const quick = new PositionIndex('k.yaml', text);
          const viaText = quick.locate(doc, at, { key: true });
          const viaYaml = exact.locate(doc, at, { key: true, viaYamlPackage: true });
          expect(`${JSON.stringify(at)} ${JSON.stringify(viaText)}`).toBe(
            `${JSON.stringify(at)} ${JSON.stringify(viaYaml)}`,
          );
          checked++;
          const start = (quick as unknown as { keyStart(d: number, p: unknown): number | undefined }).keyStart(doc, at);
          if (start !== undefined) fromText++;
        }
      });
      expect(checked).toBeGreaterThan(50);
      // The plain keys of plain block mappings come from the text; the rest from the yaml package.
      expect(fromText).toBeGreaterThan(28);
      expect(fromText).toBeLessThan(checked);
    }
  });
});

/** Scalar values written every way YAML allows after a key, and keys whose value is not on their line. */
const TRICKY_VALUES = `plain: words here
quoted: "double \\" quoted"
single: 'it''s'
empty_string: ""
number: -5
spaced :   7
tabbed:\tx
anchored: &a value
aliased: *a
tagged: !!str 5
literal: |
  text
folded: >-
  text
nothing:
tilde: ~
commented: # a comment
  value
next_line:
  value
multi: first
  second
flow: { a: 1, b: "two", c: 'three', d: plain words }
list:
  - item
  - key: in an item
    other: 2
percent: 50%
colon_inside: a:b
`;

describe('value positions', () => {
  it('are the same through the text as through the yaml package, values written every way, LF and CRLF', () => {
    for (const text of [TRICKY_VALUES, TRICKY_VALUES.replace(/\n/g, '\r\n'), TRICKY_KEYS]) {
      const docs: unknown[] = jsYaml.loadAll(text.replace(/---\r?\ndup:[^]*$/, ''));
      let fromText = 0;
      let checked = 0;
      const exact = new PositionIndex('v.yaml', text);
      docs.forEach((value, doc) => {
        for (const at of keyPaths(value)) {
          const quick = new PositionIndex('v.yaml', text);
          const viaText = quick.locate(doc, at);
          const viaYaml = exact.locate(doc, at, { viaYamlPackage: true });
          expect(`${JSON.stringify(at)} ${JSON.stringify(viaText)}`).toBe(
            `${JSON.stringify(at)} ${JSON.stringify(viaYaml)}`,
          );
          checked++;
          const start = (quick as unknown as { scalarStart(d: number, p: unknown): number | undefined }).scalarStart(
            doc,
            at,
          );
          if (start !== undefined) fromText++;
        }
      });
      expect(checked).toBeGreaterThan(25);
      // Plain and quoted scalars on their key's line come from the text; the rest from the yaml package.
      expect(fromText).toBeGreaterThan(12);
      expect(fromText).toBeLessThan(checked);
    }
  });
});
