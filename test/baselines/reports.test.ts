/**
 * What the plan's renderers say of baselines, from plan data made the way `plan` makes it
 * (withBaselines over loaded manifests), without a process: the terminal plan and the
 * comment summarise by baseline before the per-object changes, the HTML report has its
 * Baseline report, each change names its baseline or the override that keeps a value, and a
 * stale override is a warning of the plan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadResult } from '../../src/manifest/index.js';
import { renderHtml } from '../../src/plan/render-html.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { withBaselines } from '../../src/run/plan-baselines.js';
import { emptyPlan } from '../fixtures/plans/sample-plan.js';
import { baseline, loadCase, said, scratch, tenant } from './helpers.js';

let root: string;
let done: () => Promise<void>;
beforeAll(async () => ({ dir: root, done } = await scratch('baseline-reports')));
afterAll(() => done());

const OFFICE = baseline(
  'be-office',
  '{ resellers: [north] }',
  `subscriptions:
  - select: { uc: uc_alpha }
    entitlements:
      - { type: BE tollfree, entitlement: 4 }`,
);
const sub = (extra = '', id = 'T') => `billingId: ${id}
subscriptions:
  - name: main
    billingId: ${id}-MAIN
    uc: uc_alpha${extra}`;
const OWN = `
    entitlements:
      - { type: BE tollfree, entitlement: 9 }`;

/** An update of each entitlement `BE tollfree` the manifests declare, from `from` live to what they declare. */
function tollfreeUpdates(loaded: LoadResult, names: string[], from: number): Change[] {
  return names.map((name) => {
    const address = `tenant/${name}/subscription/main/entitlement/BE tollfree`;
    const after = loaded.set.get(address)?.fields;
    expect(after, address).toBeDefined();
    return {
      address,
      kind: 'Entitlement',
      provider: 'platform',
      action: 'update',
      id: `${name}-1`,
      before: { ...after, entitlement: from },
      after: after ?? {},
      patch: [{ op: 'replace', path: '/entitlement', value: after?.['entitlement'] }],
      reason: 'declared entitlement differs from live',
      liveDigest: `sha256:${'0'.repeat(64)}`,
      dependsOn: [],
      requests: [{ method: 'PUT', path: `/x/${name}` }],
    };
  });
}

function planOf(changes: Change[]): Plan {
  const plan = emptyPlan();
  return { ...plan, changes, summary: { ...plan.summary, update: changes.length } };
}

describe('a plan with baselines, in every format', () => {
  let plan: Plan;
  let loaded: LoadResult;
  beforeAll(async () => {
    loaded = await loadCase(root, {
      'baselines/office.yaml': OFFICE,
      'a.yaml': tenant('alpha', sub()),
      'b.yaml': tenant('beta', sub('', 'T-B')),
      'c.yaml': tenant(
        'gamma',
        sub(OWN, 'T-G'),
        'overrides:\n  - { path: "spec.subscriptions[main].entitlements[BE tollfree].entitlement", reason: contract 7 }',
      ),
    });
    expect(said(loaded.diagnostics)).toEqual([]);
    plan = withBaselines(planOf(tollfreeUpdates(loaded, ['alpha', 'beta', 'gamma'], 2)), loaded, [
      'baseline/be-office',
    ]);
  });

  it('the text plan summarises by baseline before the changes', () => {
    const text = renderText(plan, { color: false });
    const path = 'spec.subscriptions[main].entitlements[BE tollfree].entitlement';
    expect(text).toContain(
      [
        'Baselines:',
        '  baseline be-office (edited in this change): selects 3 tenants (resellers: north), 1 override; 2 changes come from it',
        `    2 tenants change ${path} 2 → 4; 1 tenant keeps its override (gamma: contract 7)`,
      ].join('\n'),
    );
    expect(text.indexOf('Baselines:')).toBeLessThan(text.indexOf('switchboard will perform'));
  });

  it('the comment says it too, and each change block names its baseline or the override', () => {
    const markdown = renderMarkdown(plan);
    expect(markdown).toContain('**Baseline <code>be-office</code>** (edited in this change) selects 3 tenants');
    expect(markdown).toContain('- 2 tenants change <code>spec.subscriptions&#91;main&#93;');
    expect(markdown).toContain('1 tenant keeps its override (gamma: contract 7)');
    expect(markdown.indexOf('#### Baselines')).toBeLessThan(markdown.indexOf('#### Changes'));
    const blocks = markdown.split('<details>').slice(1);
    expect(blocks.find((b) => b.includes('tenant/alpha/'))).toContain('<i>From baseline:</i> <code>be-office</code>');
    expect(blocks.find((b) => b.includes('tenant/gamma/'))).toContain(
      '<i>Override of a baseline:</i> be-office: contract 7',
    );
  });

  it('the HTML report has a Baseline report with the overrides and their reasons', () => {
    const html = renderHtml(plan);
    expect(html).toContain('<h2 id="baselines-heading">Baseline report');
    expect(html).toMatch(
      /<td><code>tenant\/gamma<\/code><\/td><td><code>spec\.subscriptions\[main\][^<]*<\/code><\/td><td>contract 7<\/td>/,
    );
    expect(html).toContain('2 changes come from baseline values; 1 from the documents');
    expect(html).toContain(
      '<li>2 tenants change <code>spec.subscriptions[main].entitlements[BE tollfree].entitlement</code> <code>2</code> → <code>4</code>; 1 tenant keeps its override (gamma: contract 7)</li>',
    );
  });

  it('a plan no baseline has a part in has no Baselines section in text, but still lists them in JSON', () => {
    const quiet = withBaselines(planOf([]), loaded);
    expect(renderText(quiet, { color: false })).not.toContain('Baselines:');
    expect(quiet.baselines?.map((b) => b.name)).toEqual(['be-office']);
  });
});

describe('stale overrides are warnings of the plan', () => {
  it('with and without baselines, at the override', async () => {
    const stale = 'overrides:\n  - { path: spec.markup, reason: launch discount }';
    const cases: Record<string, string>[] = [
      { 'baselines/office.yaml': OFFICE, 't.yaml': tenant('alpha', sub(), stale) },
      { 't.yaml': tenant('alpha', sub(), stale) },
    ];
    for (const files of cases) {
      const loaded = await loadCase(root, files);
      expect(loaded.ok).toBe(true);
      const planned = withBaselines(planOf([]), loaded);
      expect(planned.warnings).toEqual([
        {
          code: 'SB_BASELINE_STALE_OVERRIDE',
          message: expect.stringMatching(/^stale override: .*spec\.markup.*; remove the override$/),
          source: expect.stringMatching(/t\.yaml:7:7$/),
        },
      ]);
      expect(renderText(planned, { color: false })).toContain('SB_BASELINE_STALE_OVERRIDE');
    }
  });
});
