import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/plan/plan-file.js';
import { renderJson } from '../../src/plan/render-json.js';
import { SENSITIVE, type Plan } from '../../src/plan/types.js';
import { expectGolden } from '../fixtures/plans/golden.js';
import { SECRETS, agreedFieldsPlan, samplePlan } from '../fixtures/plans/sample-plan.js';

/** The same plan with every object's keys in reverse order. */
function shuffled(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shuffled);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, shuffled(v)]),
  );
}

describe('renderJson', () => {
  it('docs/plans.md: matches the golden plan file of the sample plan', () => {
    expectGolden('sample.json', renderJson(samplePlan()));
  });

  it('docs/plans.md: top-level and change keys come in the contract order', () => {
    const parsed = JSON.parse(renderJson(shuffled(samplePlan()) as Plan)) as Plan;
    expect(Object.keys(parsed)).toEqual([
      'formatVersion',
      'createdAt',
      'digest',
      'changeSet',
      'tool',
      'target',
      'manifests',
      'options',
      'policy',
      'summary',
      'changes',
      'unmanaged',
      'capacity',
      'warnings',
      'errors',
    ]);
    expect(Object.keys(parsed.summary)).toEqual(['create', 'update', 'replace', 'delete', 'noop', 'unmanaged']);
    const update = parsed.changes.find((c) => c.address === 'tenant/acme-corp');
    expect(Object.keys(update ?? {})).toEqual([
      'address',
      'kind',
      'provider',
      'action',
      'id',
      'before',
      'after',
      'patch',
      'reason',
      'liveDigest',
      'dependsOn',
      'requests',
      'source',
    ]);
    expect(Object.keys(update?.patch[0] ?? {})).toEqual(['op', 'path', 'value']);
  });

  it('docs/plans.md: is stable: key order in the input does not change a byte', () => {
    expect(renderJson(shuffled(samplePlan()) as Plan)).toBe(renderJson(samplePlan()));
  });

  it('docs/plans.md: is pretty-printed and reads back as the same plan', () => {
    const text = renderJson(samplePlan());
    expect(text.startsWith('{\n  "formatVersion": 2,\n  "createdAt": "2026-11-22T10:00:00Z",\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(parsePlan(text, 'plan.json')).toEqual(JSON.parse(text));
  });

  it('docs/plans.md: sensitive values stay "(sensitive)" plus a digest, even when a planner leaked one', () => {
    const plan = samplePlan();
    const admin = plan.changes.find((c) => c.sensitiveDigests && c.action === 'update');
    if (!admin?.after) throw new Error('fixture lost its write-only change');
    admin.after = { ...admin.after, password: SECRETS[0] };
    admin.patch = [{ op: 'replace', path: '/password', value: SECRETS[0] }];
    const text = renderJson(plan);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    const back = parsePlan(text, 'plan.json').changes.find((c) => c.address === admin.address);
    expect(back?.after?.['password']).toBe(SENSITIVE);
    expect(back?.patch[0]?.value).toBe(SENSITIVE);
    // Salted and slow (no SWITCHBOARD_DIGEST_KEY in the fixture): never a plain sha256 a dictionary reverses.
    expect(back?.sensitiveDigests?.['password']).toMatch(/^scrypt:\d+:\d+:\d+:[0-9a-f]{32}:[0-9a-f]{64}$/);
  });
});

describe('renderJson: fields added to the plan data by other features', () => {
  it('keeps them in their places (policy after options, capacity after unmanaged) so the file and every render carry them', () => {
    const parsed = JSON.parse(renderJson(agreedFieldsPlan())) as Record<string, any>;
    const keys = Object.keys(parsed);
    expect(keys.indexOf('policy')).toBe(keys.indexOf('options') + 1);
    expect(keys.indexOf('capacity')).toBe(keys.indexOf('unmanaged') + 1);
    expect(parsed['policy']).toEqual({ overrides: ['pricing/markup'] });
    expect(parsed['capacity'].rows[1]).toEqual({
      address: 'tenant/acme-corp/subscription/main',
      assigned: 3,
      declared: null,
      headroom: null,
      reserved: 0,
      subject: 'licence webex',
      warning: 'no licence count declared',
    });
    expect(Object.keys(parsed['options'])).toEqual([
      'target',
      'exclude',
      'prune',
      'allowReplace',
      'maxDeletePercent',
      'maxUpdatePercent',
      'allowPolicy',
    ]);
    const renamed = parsed['changes'].find((c: any) => c.address === 'tenant/acme-corp');
    expect(Object.keys(renamed)[1]).toBe('previousAddress');
    expect(renamed.previousAddress).toBe('tenant/acme-old');
    expect(parsed['errors'].at(-1)).toEqual({
      code: 'SB_POLICY',
      message: 'markup 5 is above the limit 4 of policy pricing/markup',
      address: 'tenant/new-co',
      rule: 'pricing/markup',
      source: 'policies/pricing.yaml:7:5',
    });
    expect(parsePlan(renderJson(agreedFieldsPlan()), 'plan.json')).toEqual(parsed);
  });

  it('writes only the members the plan file knows: one no reader accepts never reaches the file', () => {
    const plan = samplePlan() as Plan & Record<string, unknown>;
    plan['comment'] = 'not a member';
    (plan.changes[0] as unknown as Record<string, unknown>)['supersededBy'] = 'tenant/x';
    const parsed = JSON.parse(renderJson(plan)) as Record<string, any>;
    expect(parsed['comment']).toBeUndefined();
    expect(parsed['changes'][0].supersededBy).toBeUndefined();
    expect(renderJson(plan)).toBe(renderJson(samplePlan()));
  });
});
