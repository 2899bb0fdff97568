import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/plan/render-text.js';
import { summarize } from '../../src/plan/summary.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { expectGolden } from '../fixtures/plans/golden.js';
import { SECRETS, emptyPlan, samplePlan } from '../fixtures/plans/sample-plan.js';

const ESC = '\u001b';

function withChanges(changes: Change[], base: Plan = emptyPlan()): Plan {
  return { ...base, changes, summary: summarize(changes, 0, base.summary.unmanaged) };
}

function row(i: number, action: Change['action'], table = 'routes'): Change {
  const v = { number: `+3221${i}` };
  return {
    address: `routing/draas/active/${table}/number=+3221${i}`,
    kind: 'RoutingRow',
    provider: 'routing',
    action,
    before: action === 'create' ? null : v,
    after: action === 'delete' ? null : { ...v, route: 'x' },
    patch: [],
    reason: 'r',
    liveDigest: action === 'create' ? undefined : `sha256:${'0'.repeat(64)}`,
    dependsOn: [],
    requests: [],
  };
}

describe('renderText', () => {
  it('docs/plans.md: matches the golden plain-text rendering of the sample plan', () => {
    expectGolden('sample.txt', renderText(samplePlan(), { color: false }));
  });

  it('docs/plans.md: matches the golden coloured rendering of the sample plan', () => {
    expectGolden('sample.color.txt', renderText(samplePlan(), { color: true }));
  });

  it('docs/plans.md: colours only when asked', () => {
    expect(renderText(samplePlan(), { color: false })).not.toContain(ESC);
    const coloured = renderText(samplePlan(), { color: true });
    expect(coloured).toContain(`${ESC}[32m`); // create: green
    expect(coloured).toContain(`${ESC}[33m`); // update: yellow
    expect(coloured).toContain(`${ESC}[31m`); // delete: red
    expect(coloured).toContain(`${ESC}[35m`); // replace: magenta
  });

  it('docs/plans.md: the closing summary line has the exact wording', () => {
    const out = renderText(samplePlan(), { color: true });
    expect(out).toContain('\nPlan: 47 to create, 5 to update, 1 to replace, 3 to delete.\n');
    const lines = out.trimEnd().split('\n');
    expect(lines.at(-4)).toBe('Plan: 47 to create, 5 to update, 1 to replace, 3 to delete.');
    expect(lines.at(-3)).toBe('12 live objects in scope are not managed by these manifests.');
    expect(lines.at(-2)).toBe(`\u001b[2mPlan digest: ${samplePlan().digest}\u001b[0m`);
    expect(lines.at(-1)).toBe(`\u001b[2mChange set: ${samplePlan().changeSet?.digest} (56 changes)\u001b[0m`);
  });

  it('docs/plans.md: an empty plan says exactly "No changes."', () => {
    expect(renderText(emptyPlan(), { color: false })).toBe(
      `No changes.\nPlan digest: ${emptyPlan().digest}\nChange set: ${emptyPlan().changeSet?.digest} (0 changes)\n`,
    );
    expect(renderText({ ...emptyPlan(1), digest: undefined, changeSet: undefined }, { color: true })).toBe(
      'No changes.\n1 live object in scope is not managed by these manifests.\n',
    );
  });

  it('docs/plans.md: refusals and warnings come before the changes', () => {
    const out = renderText(samplePlan(), { color: false });
    const refused = out.indexOf('Refused: this plan will not be applied.');
    expect(refused).toBe(0);
    expect(out.indexOf('Warnings:')).toBeGreaterThan(refused);
    expect(out.indexOf('Warnings:')).toBeLessThan(out.indexOf('  + tenant/new-co'));
    expect(out).toContain(
      'SB_PERMISSION tenant/old-co: DELETE /api/v01/draas/main/tenants/9f00aa00-0000-4000-8000-000000000002 is not allowed by your profile (role: tenants.instance.delete)',
    );
  });

  it('docs/plans.md: markers, field changes, additions, removals and reasons', () => {
    const out = renderText(samplePlan(), { color: false });
    expect(out).toContain(
      '  ~ tenant/acme-corp (Tenant, id 4b7c1d2e-0000-4000-8000-000000000001)\n      markup: 4 → 5\n' +
        '      + description = "Acme <script>alert(1)</script> | a|b"\n      - legacyTag\n' +
        '      limits: {"channels":10,"users":50} → {"channels":20,"users":50}\n',
    );
    expect(out).toContain(
      '  - tenant/old-co (Tenant, id 9f00aa00-0000-4000-8000-000000000002)\n      # not declared; reseller/north has metadata.prune: true\n',
    );
    expect(out).toContain(
      '-/+ tenant/acme-corp/subscription/main (Subscription, id 77aa0000-0000-4000-8000-000000000003)\n      uc: "uc_alpha" → "uc_beta"  # forces replacement\n      # uc cannot be changed in place',
    );
    expect(out).toContain(
      '  + tenant/new-co (Tenant)\n      + billingId = "T-NEW"\n      + markup = 5\n      + admins = [{"email":"ops@new.example"}]\n',
    );
  });

  it("lists fields in the kind's field-table order, then canonical order, whatever order the plan holds them in", () => {
    const plan = samplePlan();
    const reversed = {
      ...plan,
      changes: plan.changes.map((c) => ({
        ...c,
        after: c.after && Object.fromEntries(Object.entries(c.after).reverse()),
        before: c.before && Object.fromEntries(Object.entries(c.before).reverse()),
      })),
    };
    expect(renderText(reversed, { color: false })).toBe(renderText(plan, { color: false }));
  });

  it('docs/plans.md: sensitive values print as (sensitive) and a write-only change says why', () => {
    const out = renderText(samplePlan(), { color: false });
    expect(out).toContain('      password: (write-only) → (sensitive)\n      # write-only password');
    expect(out).toContain('      + password = (sensitive)\n');
    for (const secret of SECRETS) expect(out).not.toContain(secret);
  });

  it('docs/plans.md: masks a sensitive field even when the plan carries it in clear', () => {
    const plan = samplePlan();
    const admin = plan.changes.find((c) => c.sensitiveDigests && c.action === 'update');
    if (!admin?.after) throw new Error('fixture lost its write-only change');
    admin.before = { password: SECRETS[1] };
    admin.after = { ...admin.after, password: SECRETS[0] };
    admin.patch = [{ op: 'replace', path: '/password', value: SECRETS[0] }];
    for (const color of [true, false]) {
      const out = renderText(plan, { color });
      for (const secret of SECRETS) expect(out).not.toContain(secret);
    }
    expect(renderText(plan, { color: false })).toContain('      password: (sensitive) → (sensitive)\n');
  });

  it('docs/plans.md: a secret set for the first time reads null → (sensitive)', () => {
    const plan = samplePlan();
    const admin = plan.changes.find((c) => c.sensitiveDigests && c.action === 'update');
    if (!admin) throw new Error('fixture lost its write-only change');
    admin.before = { password: null };
    expect(renderText(plan, { color: false })).toContain('      password: null → (sensitive)\n');
  });

  it('folds a collection of more than 20 changes under one parent, its deletes listed first, the rest counted', () => {
    const out = renderText(samplePlan(), { color: false });
    const listed = out.split('\n').filter((l) => l.includes('routing/draas/standby/routes/number='));
    expect(listed).toHaveLength(10);
    // The collection's 2 deletes are among the 10 listed, however late in the plan they come.
    expect(listed.filter((l) => l.startsWith('  - '))).toHaveLength(2);
    expect(out).toContain('  … and 40 more RoutingRow changes (create: 37, update: 3) — see the JSON plan\n');
  });

  it('folds per parent: two tables of 15 rows each stay listed; the threshold is configurable', () => {
    const changes = [
      ...Array.from({ length: 15 }, (_, i) => row(i, 'create', 'routes')),
      ...Array.from({ length: 15 }, (_, i) => row(i, 'delete', 'carriers')),
    ];
    const plan = withChanges(changes);
    expect(renderText(plan, { color: false })).not.toContain('more RoutingRow changes');
    const folded = renderText(plan, { color: false, maxRowsPerCollection: 12 });
    expect(folded).toContain('… and 5 more RoutingRow changes (create: 5) — see the JSON plan');
    expect(folded).toContain('… and 5 more RoutingRow changes (delete: 5) — see the JSON plan');
    const small = renderText(plan, { color: false, maxRowsPerCollection: 4 });
    expect(small).toContain('… and 11 more RoutingRow changes (create: 11)');
  });

  it('escapes control characters from live data instead of sending them to the terminal', () => {
    const change = row(1, 'update');
    change.address = 'tenant/evil\u001b[2J\u202ename';
    change.after = { note: 'bell\u0007' };
    const out = renderText(withChanges([change]), { color: false });
    expect(out).not.toContain(ESC);
    expect(out).not.toContain('\u202e');
    expect(out).toContain('tenant/evil\\u001b[2J\\u202ename');
  });
});
