import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSecrets, registerSecret } from '../../src/core/secrets.js';
import { groupChanges } from '../../src/plan/html/groups.js';
import { sourceLinksFrom } from '../../src/plan/html/source-links.js';
import { renderHtml } from '../../src/plan/render-html.js';
import type { Change, Plan } from '../../src/plan/types.js';
import {
  HOSTILE,
  SECRETS,
  agreedFieldsPlan,
  emptyPlan,
  hostilePlan,
  samplePlan,
} from '../fixtures/plans/sample-plan.js';

/** The JSON data block of a report, parsed. */
function dataOf(html: string): { plan: Plan; groups: ReturnType<typeof groupChanges>; links: unknown } {
  const match = /<script type="application\/json" id="plan-data">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no data block');
  return JSON.parse(match[1] as string);
}

afterEach(() => clearSecrets());

describe('renderHtml', () => {
  it('is one self-contained page: inline style and script, allowed by hash, and no connection of any kind', () => {
    const html = renderHtml(samplePlan());
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#39;/g, "'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const sha = (text: string) => createHash('sha256').update(text).digest('base64');
    expect(csp).toContain(`script-src 'sha256-${sha(script)}'`);
    expect(csp).toContain(`style-src 'sha256-${sha(style)}'`);
    // Nothing to fetch: no src attribute, no stylesheet link, no http(s) URL but the plan's target.
    expect(html).not.toMatch(/\ssrc=/);
    expect(html).not.toMatch(/<link rel="stylesheet"/);
    const urls = [...html.matchAll(/https?:\/\/[^\s"'<\\]+/g)].map((m) => m[0]);
    expect(new Set(urls)).toEqual(new Set(['https://provisioning.example.net']));
  });

  it('escapes hostile values: no markup, no script and no attribute can be injected', () => {
    const html = renderHtml(hostilePlan());
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script/g)).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('alert(1)</script>');
    // The kind filter's checkbox carries the hostile kind as an escaped attribute value.
    expect(html).toContain('value="Tenant&#34;&#62;&#60;img src=x onerror=alert(2)&#62;"');
    // The data reads back exactly: the script shows the values as text.
    const data = dataOf(html);
    expect(data.plan.changes[0]?.address).toBe(HOSTILE.address);
    expect(data.plan.changes[0]?.kind).toBe(HOSTILE.kind);
    expect(data.plan.warnings.at(-1)?.message).toBe(HOSTILE.message);
  });

  it('masks sensitive values and registered secrets, as every format does', () => {
    const plan = samplePlan();
    const admin = plan.changes.find((c) => c.sensitiveDigests && c.action === 'update');
    if (!admin?.after) throw new Error('fixture lost its write-only change');
    admin.after = { ...admin.after, password: SECRETS[0] };
    admin.patch = [{ op: 'replace', path: '/password', value: SECRETS[0] }];
    registerSecret('platform-token-123456');
    plan.warnings.push({ code: 'SB_ECHO', message: 'the platform said: bad token platform-token-123456' });
    const html = renderHtml(plan);
    for (const secret of [...SECRETS, 'platform-token-123456']) expect(html).not.toContain(secret);
    expect(html).toContain('[redacted]');
  });

  it('shows the digest, the target, the options, the safety-rail outcome and every message', () => {
    const plan = samplePlan();
    const html = renderHtml(plan);
    expect(html).toContain(`Plan digest: <code>${plan.digest}</code>`);
    expect(html).toContain('<code>https://provisioning.example.net</code>, instance <code>main</code>');
    expect(html).toContain('Refused: this plan will not be applied (3 refusals');
    expect(html).toContain('<dt>--exclude</dt><dd><code>tenant/legacy-*</code></dd>');
    expect(html).toContain('<dt>--max-delete-percent</dt><dd><code>10</code></dd>');
    expect(dataOf(html).plan.errors.map((e) => e.code)).toEqual(['SB_PERMISSION', 'SB_POLICY', 'SB_DELETE_THRESHOLD']);
    expect(renderHtml(emptyPlan())).toContain('Passed: no safety rail refused this plan.');
  });

  it("renders every optional field of the plan data's agreed shapes: renames, policy rules, capacity, overrides", () => {
    const html = renderHtml(agreedFieldsPlan());
    expect(html).toContain('<dt>Policy rules overridden (--allow-policy)</dt><dd><code>pricing/markup</code></dd>');
    expect(html).toContain('<dt>--allow-policy</dt><dd><code>pricing/markup</code></dd>');
    expect(html).toContain('<dt>--max-update-percent</dt><dd><code>25</code></dd>');
    expect(html).toContain('<h2 id="capacity-heading">Capacity <span class="count">(2)</span></h2>');
    expect(html).toContain('<td>licence webex</td><td>—</td><td class="num">3</td>');
    expect(html).toContain('<td>no licence count declared</td>');
    const data = dataOf(html);
    expect(data.plan.changes.find((c) => c.address === 'tenant/acme-corp')).toMatchObject({
      previousAddress: 'tenant/acme-old',
    });
    expect(data.plan.errors.at(-1)).toMatchObject({ rule: 'pricing/markup', source: 'policies/pricing.yaml:7:5' });
  });

  it('gives the same bytes for the same plan, and for the plan read back from its file', () => {
    expect(renderHtml(samplePlan())).toBe(renderHtml(samplePlan()));
    const reread = JSON.parse(JSON.stringify(samplePlan())) as Plan;
    expect(renderHtml(reread)).toBe(renderHtml(samplePlan()));
  });
});

describe('the report groups changes by top-level object, subscription and collection', () => {
  it('puts deletes and replaces first at every level, each group whole', () => {
    const groups = groupChanges(samplePlan().changes);
    const changes = samplePlan().changes;
    const label = (g: (typeof groups)[number]) =>
      `${g.top} | ${g.sub ?? '-'} | ${g.self ? 'self' : `${g.kind} in ${g.parent}`} | ${g.items.map((i) => changes[i]?.action).join(',')}`;
    expect(groups.map(label)).toEqual([
      'tenant/acme-corp | - | self | update',
      'tenant/acme-corp | - | Subscription in tenant/acme-corp | replace',
      'tenant/acme-corp | - | Administrator in tenant/acme-corp | update',
      'tenant/old-co | - | self | delete',
      'routing/draas/standby/routes | - | RoutingRow in routing/draas/standby/routes | ' +
        `${'delete,'.repeat(2)}${'create,'.repeat(45)}${'update,'.repeat(3)}`.slice(0, -1),
      'tenant/new-co | - | self | create',
      'tenant/new-co | - | Administrator in tenant/new-co | create',
    ]);
    expect(groups.flatMap((g) => g.items).sort((a, b) => a - b)).toEqual(changes.map((_, i) => i));
  });

  it('makes a subscription with changes below it a level of its own, its own change first', () => {
    const change = (address: string, kind: string, action: Change['action']): Change => ({
      address,
      kind,
      provider: 'platform',
      action,
      before: action === 'create' ? null : {},
      after: action === 'delete' ? null : {},
      patch: [],
      reason: '',
      dependsOn: [],
      requests: [],
    });
    const changes = [
      change('tenant/t', 'Tenant', 'update'),
      change('tenant/t/admin/a@t.example', 'Administrator', 'create'),
      change('tenant/t/subscription/s', 'Subscription', 'create'),
      change('tenant/t/subscription/s/number/+3221', 'Number', 'create'),
      change('tenant/t/subscription/s/number/+3222', 'Number', 'delete'),
      change('tenant/t/subscription/s/address/Rue Haute 16/2, 1000 Brussels', 'Address', 'create'),
    ];
    const groups = groupChanges(changes).map((g) => ({ ...g, items: g.items.map((i) => changes[i]?.address) }));
    expect(groups).toEqual([
      { top: 'tenant/t', sub: null, parent: '', kind: 'Tenant', self: true, items: ['tenant/t'] },
      {
        top: 'tenant/t',
        sub: null,
        parent: 'tenant/t',
        kind: 'Administrator',
        self: false,
        items: ['tenant/t/admin/a@t.example'],
      },
      {
        top: 'tenant/t',
        sub: 'tenant/t/subscription/s',
        parent: 'tenant/t',
        kind: 'Subscription',
        self: true,
        items: ['tenant/t/subscription/s'],
      },
      {
        top: 'tenant/t',
        sub: 'tenant/t/subscription/s',
        parent: 'tenant/t/subscription/s',
        kind: 'Number',
        self: false,
        items: ['tenant/t/subscription/s/number/+3222', 'tenant/t/subscription/s/number/+3221'],
      },
      {
        top: 'tenant/t',
        sub: 'tenant/t/subscription/s',
        parent: 'tenant/t/subscription/s',
        kind: 'Address',
        self: false,
        items: ['tenant/t/subscription/s/address/Rue Haute 16/2, 1000 Brussels'],
      },
    ]);
  });
});

describe('links to manifest positions', () => {
  const env = {
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'acme/platform',
    GITHUB_SHA: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    GITHUB_WORKSPACE: '/home/runner/work/platform/platform',
  };

  it('point at the file at the planned commit in GitHub Actions, relative to the checkout', () => {
    expect(sourceLinksFrom(env, '/home/runner/work/platform/platform')).toEqual({
      base: 'https://github.com/acme/platform/blob/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678/',
      prefix: '',
      workspace: '/home/runner/work/platform/platform/',
    });
    expect(sourceLinksFrom(env, '/home/runner/work/platform/platform/ops')?.prefix).toBe('ops/');
  });

  it('are left out outside GitHub Actions or with a value that does not fit', () => {
    expect(sourceLinksFrom({}, '/x')).toBeUndefined();
    expect(sourceLinksFrom({ ...env, GITHUB_SERVER_URL: 'javascript:alert(1)' }, env.GITHUB_WORKSPACE)).toBeUndefined();
    expect(sourceLinksFrom({ ...env, GITHUB_REPOSITORY: 'acme/platform/../x' }, env.GITHUB_WORKSPACE)).toBeUndefined();
    expect(sourceLinksFrom({ ...env, GITHUB_SHA: 'main' }, env.GITHUB_WORKSPACE)).toBeUndefined();
    expect(sourceLinksFrom(env, '/tmp/elsewhere')).toBeUndefined();
  });

  it('reach the report as data for its script', () => {
    const links = sourceLinksFrom(env, env.GITHUB_WORKSPACE);
    expect(dataOf(renderHtml(samplePlan(), links ? { sourceLinks: links } : {})).links).toEqual(links);
  });
});
