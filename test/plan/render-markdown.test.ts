import { describe, expect, it } from 'vitest';
import { MARKDOWN_LIMIT, renderMarkdown } from '../../src/plan/render-markdown.js';
import { summarize } from '../../src/plan/summary.js';
import type { Change, Plan, PlanMessage } from '../../src/plan/types.js';
import { expectGolden } from '../fixtures/plans/golden.js';
import { SECRETS, emptyPlan, samplePlan } from '../fixtures/plans/sample-plan.js';

function withChanges(changes: Change[], errors: PlanMessage[] = []): Plan {
  const base = emptyPlan();
  return { ...base, changes, errors, summary: summarize(changes, 0, 0) };
}

function update(address: string, after: Record<string, unknown>): Change {
  return {
    address,
    kind: 'Tenant',
    provider: 'platform',
    action: 'update',
    before: { note: 'old' },
    after,
    patch: [],
    reason: 'declared note differs',
    liveDigest: `sha256:${'a'.repeat(64)}`,
    dependsOn: [],
    requests: [],
  };
}

/** Text outside fenced code blocks (where markdown and HTML are live). */
function outsideFences(md: string): string {
  return md.replace(/^(`{3,})diff\n[\s\S]*?\n\1$/gm, '');
}

describe('renderMarkdown', () => {
  it('matches the golden pull-request comment of the sample plan', () => {
    expectGolden(
      'sample.md',
      renderMarkdown(samplePlan(), { maxChanges: 20, artifactHint: 'see the `plan` artifact of this run' }),
    );
  });

  it('starts with the heading, the summary line and table, then refusals and warnings', () => {
    const md = renderMarkdown(samplePlan());
    expect(md.startsWith('### switchboard plan\n')).toBe(true);
    expect(md).toContain('**Plan: 47 to create, 5 to update, 1 to replace, 3 to delete.**');
    expect(md).toContain(
      '| create | update | replace | delete | noop | unmanaged |\n|---:|---:|---:|---:|---:|---:|\n| 47 | 5 | 1 | 3 | 40 | 12 |',
    );
    const caution = md.indexOf('> [!CAUTION]');
    const warning = md.indexOf('> [!WARNING]');
    expect(caution).toBeGreaterThan(0);
    expect(warning).toBeGreaterThan(caution);
    expect(md.indexOf('<details>')).toBeGreaterThan(warning);
    expect(md).toContain('(role <code>tenants.instance.delete</code>)');
  });

  it('lists replaces and deletes first, highlighted, each in a collapsible block', () => {
    const md = renderMarkdown(samplePlan());
    const blocks = md.split('<details><summary>').slice(1);
    expect(blocks).toHaveLength(56);
    expect(blocks[0]).toMatch(/^🔴 <b>delete<\/b> <code>tenant\/old-co<\/code>/);
    expect(blocks[1]).toMatch(/^⚠️ <b>replace<\/b> <code>tenant\/acme-corp\/subscription\/main<\/code>/);
    expect(blocks.slice(2, 4).every((b) => b.startsWith('🔴 <b>delete</b>'))).toBe(true);
    expect(blocks.slice(4).every((b) => /^🟢 create|^🟡 update/.test(b))).toBe(true);
    expect(blocks[1]).toContain('```diff\n- uc: "uc_alpha"\n+ uc: "uc_beta"  # forces replacement\n```');
  });

  it('says "No changes." for an empty plan', () => {
    const md = renderMarkdown(emptyPlan());
    expect(md).toContain('**No changes.**');
    expect(md).not.toContain('<details>');
  });

  it('escapes values so they cannot inject HTML, break the table, mention anyone or close a fence', () => {
    const hostile = '<script>alert(1)</script> | @octo-org/admins #12 $x$ [a](http://evil) **b**';
    const change = update(`tenant/${hostile}`, { note: hostile, fence: '```\n<img src=x onerror=alert(1)>' });
    change.kind = '<b>Tenant</b>';
    const md = renderMarkdown(
      withChanges([change], [{ code: 'SB_X', message: hostile, address: hostile, role: '|r|' }]),
    );
    const live = outsideFences(md);
    const prose = live
      .split('\n')
      .filter((l) => !l.startsWith('|'))
      .join('\n');
    // (entities such as `&#124;` contain `#12`: the raw forms are what must be absent)
    for (const bad of ['<script>', '<img', ' | ', '|r|', '@octo', ' #12', '$x$', '](', '**b**', '<b>Tenant']) {
      expect(prose).not.toContain(bad);
    }
    expect(prose).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#124; &#64;octo-org/admins &#35;12');
    // the only table is the summary table, and it still has three rows
    expect(md.split('\n').filter((l) => l.startsWith('|'))).toHaveLength(3);
    // in the diff block values are shown as they are, and the fence cannot be closed by them
    expect(md).toContain('+ note: "<script>alert(1)</script> | @octo-org/admins #12 $x$ [a](http://evil) **b**"');
    expect(md).toContain('+ fence: "```\\n<img src=x onerror=alert(1)>"');
  });

  it('never shows a sensitive value', () => {
    const plan = samplePlan();
    const admin = plan.changes.find((c) => c.sensitiveDigests && c.action === 'update');
    if (!admin?.after) throw new Error('fixture lost its write-only change');
    admin.after = { ...admin.after, password: SECRETS[0] };
    const md = renderMarkdown(plan);
    for (const secret of SECRETS) expect(md).not.toContain(secret);
    expect(md).toContain('- password: (write-only)\n+ password: (sensitive)');
  });

  it('stops after maxChanges blocks and points at the artifact', () => {
    const md = renderMarkdown(samplePlan(), { maxChanges: 5, artifactHint: '[plan.json](https://ci.example/run/1)' });
    expect(md.split('<details>')).toHaveLength(6);
    expect(
      md.endsWith(
        '**51 more changes in the JSON artifact**: [plan.json](https://ci.example/run/1)\n\n' +
          `<sub>Plan digest: <code>${samplePlan().digest}</code><br>` +
          `Change set: <code>${samplePlan().changeSet?.digest}</code> (56 changes)</sub>\n`,
      ),
    ).toBe(true);
    expect(renderMarkdown(samplePlan(), { maxChanges: 0 })).toContain('**56 more changes in the JSON artifact**.');
  });

  it('stays under 60,000 characters for a huge plan and keeps the summary and the refusals', () => {
    const big = 'x'.repeat(5_000);
    const changes = Array.from({ length: 20_000 }, (_, i) => update(`tenant/t-${i}`, { note: big, other: i }));
    const errors = Array.from({ length: 3 }, (_, i) => ({
      code: 'SB_PERMISSION',
      message: `refusal ${i}`,
      role: 'tenants.instance.update',
    }));
    const md = renderMarkdown(withChanges(changes, errors), { maxChanges: 100_000 });
    expect(md.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(md).toContain('**Plan: 0 to create, 20000 to update, 0 to replace, 0 to delete.**');
    for (let i = 0; i < 3; i++) expect(md).toContain(`refusal ${i}`);
    expect(md).toMatch(
      /\*\*\d+ more changes in the JSON artifact\*\*\.\n\n<sub>Plan digest: <code>sha256:[0-9a-f]{64}<\/code><br>Change set: <code>sha256:[0-9a-f]{64}<\/code> \(\d+ changes\)<\/sub>\n$/,
    );
  });

  it('cuts refusals too when there are thousands, and says how many are left', () => {
    const errors = Array.from({ length: 5_000 }, (_, i) => ({
      code: 'SB_PERMISSION',
      address: `tenant/t-${i}`,
      message: 'PUT /api/v01/draas/main/tenants/… is not allowed',
      role: 'tenants.instance.update',
    }));
    const md = renderMarkdown(withChanges([], errors));
    expect(md.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(md).toMatch(/> - … and \d+ more refusals in the JSON artifact/);
  });
});
