import { describe, expect, it } from 'vitest';
import { checkSavedPlan } from '../../src/apply/saved-plan.js';
import { parsePlan } from '../../src/plan/plan-file.js';
import { planProblems } from '../../src/plan/plan-validate.js';
import { renderJson } from '../../src/plan/render-json.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import { expectGolden } from '../fixtures/plans/golden.js';
import { identityPlan } from '../fixtures/plans/identity-plan.js';

/** Renames and identity refusals, in every format and in the plan file. */
describe('renames and identity refusals in plans', () => {
  it('the text plan shows each rename on its change line and every refusal', () => {
    const text = renderText(identityPlan(), { color: false });
    expectGolden('identity.txt', text);
    expect(text).toContain(
      '  ~ tenant/acme-group (renamed from acme-corp) (Tenant, id t-1)\n      name: "acme-corp" → "acme-group"\n',
    );
    expect(text).toContain('  ~ tenant/acme-group/subscription/headquarters (renamed from main) (Subscription, id 3)');
    for (const code of ['SB_OWNER_CHANGE', 'SB_RENAME_CONFLICT', 'SB_PINNED_MISSING'])
      expect(text).toContain(`✗ ${code}`);
  });

  it('a former address under another parent is shown whole', () => {
    const plan = identityPlan();
    const moved = { ...plan.changes[1]!, previousAddress: 'tenant/acme-corp/subscription/main' };
    const text = renderText({ ...plan, changes: [moved] }, { color: false });
    expect(text).toContain('(renamed from tenant/acme-corp/subscription/main)');
  });

  it('the markdown plan shows renames in the change summaries and the refusals', () => {
    const md = renderMarkdown(identityPlan());
    expectGolden('identity.md', md);
    expect(md).toContain(
      '🟡 update <code>tenant/acme-group</code> renamed from <code>acme-corp</code> (Tenant, id t-1)',
    );
    expect(md).toContain('<code>SB_OWNER_CHANGE</code> <code>tenant/globex</code>');
  });

  it('the plan file carries previousAddress right after the address, and reads back', () => {
    const json = renderJson(identityPlan());
    expectGolden('identity.json', json);
    const parsed = parsePlan(json, 'identity.json');
    expect(Object.keys(parsed.changes[0]!).slice(0, 3)).toEqual(['address', 'previousAddress', 'kind']);
    expect(parsed.changes.map((c) => c.previousAddress)).toEqual([
      'tenant/acme-corp',
      'tenant/acme-group/subscription/main',
      'group/demo-group/block_list/no-premium',
    ]);
  });

  it('the plan-file check refuses a previousAddress on a create or a delete, of another type, or equal to the address', () => {
    type Json = Record<string, unknown>;
    const broken = JSON.parse(renderJson(identityPlan())) as { changes: Json[]; summary: Json };
    broken.changes[0] = { ...broken.changes[0], previousAddress: 'tenant/acme-group' };
    broken.changes[1] = { ...broken.changes[1], previousAddress: 7 };
    broken.changes[2] = { ...broken.changes[2], action: 'create', before: null, liveDigest: undefined };
    broken.summary = { ...broken.summary, create: 1, update: 2 };
    expect(planProblems(JSON.parse(JSON.stringify(broken)))).toEqual([
      'changes[0].previousAddress must differ from its address',
      'changes[1].previousAddress must be a string',
      'changes[2].previousAddress is only for an update or a replace (a rename), not a create',
    ]);
  });

  it('a saved rename is stale when the fresh plan renames from elsewhere, or no longer renames', () => {
    const saved = identityPlan();
    const fresh = identityPlan();
    fresh.changes[1] = { ...fresh.changes[1]!, previousAddress: 'tenant/acme-group/subscription/office' };
    const { previousAddress: _dropped, ...plain } = fresh.changes[2]!;
    fresh.changes[2] = plain;
    let error: unknown;
    try {
      checkSavedPlan(saved, fresh, 'p.json');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'SB_PLAN_STALE', exitCode: 3 });
    expect((error as Error).message).toContain(
      'tenant/acme-group/subscription/headquarters: the plan would now make a rename from tenant/acme-group/subscription/office (saved: a rename from tenant/acme-group/subscription/main)',
    );
    expect((error as Error).message).toContain(
      'group/demo-group/block_list/no-premium-calls: the plan would now make no rename (saved: a rename from group/demo-group/block_list/no-premium)',
    );
    expect(checkSavedPlan(saved, identityPlan(), 'p.json')).toHaveLength(3);
  });
});
