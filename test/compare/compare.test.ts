import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compareTrees,
  loadTree,
  renderCompareCsv,
  renderCompareHtml,
  renderCompareJson,
  renderCompareMarkdown,
  renderCompareText,
  type Comparison,
  type LoadedTree,
} from '../../src/compare/index.js';
import { DiagnosticsError } from '../../src/core/errors.js';
import { examplesCopy, plantedTrees } from './planted.js';

let a: LoadedTree;
let b: LoadedTree;
let planted: Comparison;

beforeAll(async () => {
  const trees = await plantedTrees();
  a = await loadTree([trees.a], 'A', trees.a);
  b = await loadTree([trees.b], 'B', trees.b);
  planted = compareTrees(a, b);
});

const at = (c: Comparison, address: string) => c.differences.find((d) => d.address === address);
const RENDERERS = {
  text: renderCompareText,
  markdown: renderCompareMarkdown,
  json: renderCompareJson,
  csv: renderCompareCsv,
  html: renderCompareHtml,
};

describe('compare: two manifest trees by address', () => {
  it('finds a planted difference in every kind examples/ declares', () => {
    const kindsInA = new Set(a.set.objects.map((o) => o.kind));
    for (const table of a.set.routingTables) if (table.rows.length > 0) kindsInA.add('RoutingRow');
    const differing = new Set(planted.differences.map((d) => d.kind));
    expect([...kindsInA].filter((k) => !differing.has(k))).toEqual([]);
    expect(kindsInA.size).toBeGreaterThanOrEqual(18);
  });

  it('reports field-level before → after for changed objects, and every field of added and removed ones', () => {
    expect(at(planted, 'tenant/acme-corp/subscription/main/entitlement/BE geo')).toMatchObject({
      type: 'changed',
      kind: 'Entitlement',
      fields: [{ field: 'entitlement', before: 20, after: 25 }],
    });
    expect(at(planted, 'routing/draas/standby/carriers')?.fields).toEqual([{ field: 'metadata.prune', before: true }]);
    const removed = at(planted, 'routing/draas/standby/carriers/prefix=+3226');
    expect(removed?.type).toBe('removed');
    expect(removed?.fields.map((f) => [f.field, f.before, 'after' in f])).toEqual([
      ['prefix', '+3226', false],
      ['carrier', 'uc-beta', false],
      ['weight', 30, false],
    ]);
    const added = at(planted, 'tenant/wayne-logistics/subscription/depot/location/Meir 24 2000');
    expect(added).toMatchObject({
      type: 'added',
      kind: 'Location',
      sourceB: expect.stringMatching(/north-tenants\.yaml:\d+:\d+$/),
    });
    expect(planted.summary).toEqual({ added: 3, removed: 1, renamed: 3, changed: 17, same: 1067 });
  });

  it('recognises renames: metadata.renamedFrom (a tenant, a calling plan), the same metadata.uuid (a reseller); children move with their parent', () => {
    expect(at(planted, 'tenant/globex-2')).toMatchObject({
      type: 'renamed',
      previousAddress: 'tenant/globex',
      renamedBy: 'renamedFrom',
      fields: [
        { field: 'name', before: 'globex', after: 'globex-2' },
        { field: 'metadata.parent', before: 'reseller/south', after: 'reseller/south-2' },
      ],
    });
    expect(at(planted, 'group/demo-group/block_list/satellite-phones')).toMatchObject({
      type: 'renamed',
      previousAddress: 'group/demo-group/block_list/satellite',
      renamedBy: 'renamedFrom',
    });
    expect(at(planted, 'reseller/south-2')).toMatchObject({
      type: 'renamed',
      previousAddress: 'reseller/south',
      renamedBy: 'uuid',
    });
    // The renamed tenant's subscription, and the renamed plan's prefix, are the same objects: not listed.
    const moved = planted.differences.filter((d) => /globex|satellite/.test(d.address) && d.type !== 'renamed');
    expect(moved).toEqual([]);
  });

  it('a rename is only recognised between an address in A alone and one in B alone', async () => {
    // A pins acme-corp to a uuid, B pins globex to it: both tenants are in both trees, so neither is a rename.
    const uuid = 'metadata: { name: globex, reseller: south, uuid: 0c1e3d2a-0000-4000-8000-00000000beef }';
    const x = await examplesCopy([
      [
        'tenants/acme-corp.yaml',
        '  name: acme-corp\n',
        '  name: acme-corp\n  uuid: 0c1e3d2a-0000-4000-8000-00000000beef\n',
      ],
    ]);
    const y = await examplesCopy([['tenants/globex.yaml', 'metadata: { name: globex, reseller: south }', uuid]]);
    const c = compareTrees(await loadTree([x], 'A', x), await loadTree([y], 'B', y));
    expect(c.differences.map((d) => [d.type, d.address, d.fields.map((f) => f.field)])).toEqual([
      ['changed', 'tenant/acme-corp', ['metadata.uuid']],
      ['changed', 'tenant/globex', ['metadata.uuid']],
    ]);
  });

  it('never shows a sensitive value: a ${VAR} field is compared and shown as (sensitive) on both sides', () => {
    expect(at(planted, 'tenant/hooli-be')?.fields).toContainEqual({
      field: 'billingId',
      before: '(sensitive)',
      after: '(sensitive)',
      sensitive: true,
    });
    for (const [format, render] of Object.entries(RENDERERS)) {
      const out = render(planted);
      expect(out, format).not.toContain('T-HOOLI"');
      expect(out, format).not.toContain('HOOLI_BILLING_ID');
    }
  });

  it('two trees reading the same ${VAR} at the same place are the same there: compare reads no environment', async () => {
    const edit = ['tenants/south-tenants.yaml', 'billingId: T-HOOLI\n', 'billingId: ${HOOLI_BILLING_ID}\n'] as const;
    const [x, y] = await Promise.all([examplesCopy([edit]), examplesCopy([edit])]);
    const c = compareTrees(await loadTree([x], 'A', x), await loadTree([y], 'B', y));
    expect(c.differences).toEqual([]);
  });

  it('a ${VAR} read and the literal text ${VAR} ($${VAR}) differ', async () => {
    const [x, y] = await Promise.all([examplesCopy([]), examplesCopy([])]);
    const file = 'tenants/south-tenants.yaml';
    const original = await readFile(join(x, file), 'utf8');
    // Written with split/join: a replacement string would read `$$` as one `$`.
    const spelled = (billing: string) => original.split('billingId: T-HOOLI\n').join(`billingId: ${billing}\n`);
    await writeFile(join(x, file), spelled('${HOOLI_BILLING_ID}'));
    await writeFile(join(y, file), spelled('"$${HOOLI_BILLING_ID}"'));
    const c = compareTrees(await loadTree([x], 'A', x), await loadTree([y], 'B', y));
    expect(c.differences.map((d) => d.address)).toEqual(['tenant/hooli-be']);
    // Nor the literal spelled with NULs around it, as a double-quoted YAML string can.
    await writeFile(join(y, file), spelled('"\\0$${HOOLI_BILLING_ID}\\0"'));
    const nul = compareTrees(await loadTree([x], 'A', x), await loadTree([y], 'B', y));
    expect(nul.differences.map((d) => d.address)).toEqual(['tenant/hooli-be']);
  });

  it('the same tree twice: no differences, every object the same', () => {
    const c = compareTrees(a, a);
    expect(c.differences).toEqual([]);
    expect(c.summary.same).toBe(1088);
    expect(renderCompareText(c)).toContain('No differences.');
    expect(renderCompareMarkdown(c)).toContain('No differences.');
    expect(renderCompareCsv(c)).toBe('type,address,previous_address,renamed_by,kind,field,a,b,source_a,source_b\r\n');
  });

  it('a tree that does not load cannot be compared: its diagnostics, with file:line:col', async () => {
    const dir = await examplesCopy([['tenants/globex.yaml', 'markup: 2\n', 'markup: [2\n']]);
    const error = await loadTree([dir], 'B', dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiagnosticsError);
    expect((error as DiagnosticsError).diagnostics[0]?.source?.file).toMatch(/globex\.yaml$/);
  });
});

describe('--ignore', () => {
  it('hides the matching field differences and says what each pattern hid, a pattern matching nothing included', () => {
    const c = compareTrees(a, b, { ignore: ['markup', 'Tenant.metadata.*', 'nothing*'] });
    expect(c.ignored).toEqual([
      { pattern: 'markup', differences: 2, objects: 2, objectsNowSame: 2 },
      { pattern: 'Tenant.metadata.*', differences: 2, objects: 2, objectsNowSame: 0 },
      { pattern: 'nothing*', differences: 0, objects: 0, objectsNowSame: 0 },
    ]);
    expect(at(c, 'reseller/north')).toBeUndefined();
    expect(at(c, 'tenant/hooli-be')?.fields.map((f) => f.field)).toEqual(['billingId']);
    // A rename stays a difference even when every field of it is ignored.
    expect(
      compareTrees(a, b, { ignore: ['*'] })
        .differences.map((d) => d.type)
        .sort(),
    ).toEqual(['added', 'added', 'added', 'removed', 'renamed', 'renamed', 'renamed']);
    const text = renderCompareText(c);
    expect(text).toContain(
      'Ignored: --ignore markup hid 2 field differences in 2 objects (2 objects otherwise the same).',
    );
    expect(text).toContain('Ignored: --ignore nothing* matched no difference.');
    expect(renderCompareMarkdown(c)).toContain('--ignore nothing&#42; matched no difference');
    expect(renderCompareHtml(c)).toContain('--ignore nothing* matched no difference');
    expect(JSON.parse(renderCompareJson(c)).ignored).toEqual(c.ignored);
  });

  it('refuses a pattern that cannot name a field', () => {
    expect(() => compareTrees(a, b, { ignore: [' '] })).toThrow(/expected a field name or KIND\.FIELD/);
  });
});

describe('formats', () => {
  it('text: one block per object, then the counts', () => {
    const text = renderCompareText(planted);
    expect(text).toContain('  ~ tenant/acme-corp (Tenant)\n      markup: 5 → 6\n');
    expect(text).toContain('  ~ tenant/globex-2 (Tenant, renamed from tenant/globex (metadata.renamedFrom))');
    expect(text).toContain('      billingId: (sensitive) → (sensitive) (values differ)');
    expect(text).toContain('  + tenant/acme-corp/subscription/main/trunkgroup/9 (TrunkGroup)\n      + id = 9\n');
    expect(text).toContain('  - routing/draas/standby/carriers/prefix=+3226 (RoutingRow)\n      - prefix = "+3226"');
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      'Compare: 3 added, 1 removed, 3 renamed, 17 changed, 1067 the same.',
    );
  });

  it('markdown: a table row per field, values escaped', () => {
    const md = renderCompareMarkdown(planted);
    expect(md).toContain(
      '| changed | <code>tenant/acme-corp</code> | Tenant | markup | <code>5</code> | <code>6</code> |',
    );
    expect(md).toContain(
      '| removed | <code>routing/draas/standby/carriers/prefix&#61;+3226</code>'.replace('&#61;', '='),
    );
    expect(md).not.toMatch(/<(?!code>|\/code>|br>)/);
  });

  it('JSON: the comparison itself', () => {
    expect(JSON.parse(renderCompareJson(planted))).toEqual(JSON.parse(JSON.stringify(planted)));
  });

  it('CSV: a row per field difference (one for a difference without fields), RFC 4180', () => {
    const rows = parse(renderCompareCsv(planted), { columns: true }) as Record<string, string>[];
    const expected = planted.differences.reduce((n, d) => n + Math.max(1, d.fields.length), 0);
    expect(rows).toHaveLength(expected);
    expect(rows).toContainEqual(
      expect.objectContaining({ type: 'changed', address: 'tenant/acme-corp', field: 'markup', a: '5', b: '6' }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({
        type: 'renamed',
        address: 'reseller/south-2',
        previous_address: 'reseller/south',
        renamed_by: 'uuid',
      }),
    );
    expect(rows.find((r) => r['field'] === 'metadata.prune')).toMatchObject({ a: 'true', b: '' });
  });

  it('HTML: one self-contained page, its data inert inside the page', () => {
    const html = renderCompareHtml(planted);
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-/,
    );
    const data = /<script type="application\/json" id="compare-data">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    expect(data).not.toMatch(/[<>&]/);
    const entries = JSON.parse(data) as { address: string }[];
    expect(entries.map((e) => e.address)).toEqual(planted.differences.map((d) => d.address));
    expect(html).toContain(
      '<label><input type="checkbox" name="type" value="renamed" checked> renamed <span class="count">(3)</span></label>',
    );
    expect(renderCompareHtml(planted)).toBe(html);
  });
});
