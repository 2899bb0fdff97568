/**
 * The plan file carries where changed values come from (`changes[].fieldSources`) and the
 * baselines with their overrides (`baselines`): `plan --out` writes them in the file's order,
 * `apply --plan` and `show` read them back, and a malformed or unknown member in them is
 * refused like anywhere else in the file.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digestOf } from '../../src/core/canonical-json.js';
import { SwitchboardError } from '../../src/core/errors.js';
import { changeSetSeal } from '../../src/plan/change-set.js';
import { readPlanFile, writePlanFile } from '../../src/plan/plan-file.js';
import { renderJson } from '../../src/plan/render-json.js';
import type { Plan, PlanBaseline } from '../../src/plan/types.js';
import { samplePlan } from '../fixtures/plans/sample-plan.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-baseline-plan-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const BASELINE: PlanBaseline = {
  // Members in another order than the file's: the file's order is written whatever the plan held.
  overrides: [
    {
      baselineSource: 'baselines/office.yaml:9:9',
      source: 'tenants/acme.yaml:6:7',
      path: 'spec.limits',
      reason: 'contract 2026-114',
      document: 'tenant/acme-corp',
    },
  ],
  documents: 2,
  edited: true,
  name: 'office',
  source: 'baselines/office.yaml:1:1',
  selector: 'resellers: north',
  documentKind: 'Tenant',
};

function planWithBaselines(): Plan {
  const plan = samplePlan();
  const changes = plan.changes.map((change) =>
    change.address === 'tenant/acme-corp'
      ? {
          ...change,
          fieldSources: {
            markup: { baseline: 'office', source: 'baselines/office.yaml:8:5', path: 'spec.markup', from: 'baseline' },
            limits: {
              from: 'override',
              path: 'spec.limits',
              source: 'tenants/acme.yaml:9:3',
              baseline: 'office',
              reason: 'contract 2026-114',
            },
          } as const,
        }
      : change,
  );
  return { ...plan, changes, baselines: [BASELINE] };
}

async function refused(edit: (plan: Record<string, unknown> & Plan) => void): Promise<SwitchboardError> {
  const plan = JSON.parse(renderJson(planWithBaselines())) as Record<string, unknown> & Plan;
  edit(plan);
  const { digest: _digest, ...content } = plan;
  content['changeSet'] = changeSetSeal(content.changes);
  const path = join(dir, 'edited.json');
  await writeFile(path, JSON.stringify({ ...content, digest: digestOf(content) }));
  const error = await readPlanFile(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SwitchboardError);
  return error as SwitchboardError;
}

describe('the plan file with baselines', () => {
  it('writes fieldSources and baselines in the file order and reads them back unchanged', async () => {
    const path = join(dir, 'plan.json');
    await writePlanFile(path, planWithBaselines());
    const text = await readFile(path, 'utf8');
    const read = await readPlanFile(path);
    expect(read).toEqual(JSON.parse(text));
    expect(read.baselines).toEqual([BASELINE]);
    expect(Object.keys(read.baselines?.[0] ?? {})).toEqual([
      'name',
      'source',
      'selector',
      'documentKind',
      'documents',
      'edited',
      'overrides',
    ]);
    expect(Object.keys(read.baselines?.[0]?.overrides[0] ?? {})).toEqual([
      'document',
      'path',
      'reason',
      'source',
      'baselineSource',
    ]);
    const acme = read.changes.find((c) => c.address === 'tenant/acme-corp');
    expect(Object.keys(acme?.fieldSources ?? {})).toEqual(['limits', 'markup']);
    expect(Object.keys(acme?.fieldSources?.['markup'] ?? {})).toEqual(['from', 'path', 'source', 'baseline']);
    // After the capacity, before the messages.
    const keys = Object.keys(JSON.parse(text) as object);
    expect(keys.indexOf('baselines')).toBe(keys.indexOf('capacity') + 1);
    // Where values come from is not what apply does: the change set is the same without it.
    expect(read.changeSet).toEqual(JSON.parse(renderJson(samplePlan())).changeSet);
  });

  it('refuses malformed baselines and field sources, naming their JSON paths', async () => {
    const e = await refused((plan) => {
      const acme = plan.changes.find((c) => c.address === 'tenant/acme-corp');
      const sources = acme?.fieldSources as unknown as Record<string, Record<string, unknown>>;
      sources['markup'] = { from: 'template', path: 'spec.markup' };
      sources['limits'] = { from: 'override', path: 'spec.limits', baseline: 'office' };
      const baseline = plan.baselines?.[0] as unknown as Record<string, unknown>;
      baseline['documents'] = -2;
      baseline['edited'] = false;
      (baseline['overrides'] as Record<string, unknown>[])[0] = { document: 'tenant/acme-corp', path: 'spec.limits' };
    });
    expect(e.code).toBe('SB_PLAN_FILE');
    const at = `changes[${JSON.parse(renderJson(samplePlan())).changes.findIndex((c: { address: string }) => c.address === 'tenant/acme-corp')}]`;
    expect(e.message).toContain(`${at}.fieldSources.markup.from must be one of document, baseline, override`);
    expect(e.message).toContain(`${at}.fieldSources.limits.reason is missing`);
    expect(e.message).toContain('baselines[0].documents must be a non-negative integer');
    expect(e.message).toContain('baselines[0].edited must be true');
    expect(e.message).toContain('baselines[0].overrides[0].reason is missing');
  });

  it('refuses a member it does not know inside them', async () => {
    const e = await refused((plan) => {
      const override = plan.baselines?.[0]?.overrides[0] as unknown as Record<string, unknown>;
      override['approvedBy'] = 'someone';
      const acme = plan.changes.find((c) => c.address === 'tenant/acme-corp');
      (acme?.fieldSources?.['markup'] as unknown as Record<string, unknown>)['weight'] = 1;
    });
    expect(e.code).toBe('SB_PLAN_UNKNOWN');
    expect(e.message).toContain('baselines[0].overrides[0].approvedBy');
    expect(e.message).toMatch(/changes\[\d+\]\.fieldSources\.markup\.weight/);
  });
});
