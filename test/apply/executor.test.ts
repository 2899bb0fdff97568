import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/apply/journal.js';
import { IdRegistry } from '../../src/apply/ids.js';
import type { DesiredNode } from '../../src/state/types.js';
import { apiError, applyWith, FakePlatform, groups, north, outcomeOf, P, planWith } from './helpers.js';

const tenant = (name: string, fields: Record<string, unknown> = {}, extra: Partial<DesiredNode> = {}): DesiredNode => ({
  kind: 'Tenant',
  address: `tenant/${name}`,
  parentRef: { kind: 'Reseller', name: 'north' },
  fields: { name, billingId: `T-${name}`, ...fields },
  ...extra,
});
const subscription = (
  t: string,
  fields: Record<string, unknown> = {},
  extra: Partial<DesiredNode> = {},
): DesiredNode => ({
  kind: 'Subscription',
  address: `tenant/${t}/subscription/main`,
  parentAddress: `tenant/${t}`,
  fields: { name: 'main', billingId: `S-${t}`, ...fields },
  ...extra,
});

describe('placeholders', () => {
  it('resolves {id:ADDRESS} in paths (encoded) and bodies (deeply; a whole placeholder keeps the id type)', () => {
    const ids = new IdRegistry([], { byAddress: new Map(), collections: [], problems: [] });
    ids.setCreated('tenant/a b', 'u/1');
    ids.setCreated('tenant/a b/subscription/main', 7);
    const resolved = ids.resolve({
      method: 'PUT',
      path: `${P}/tenants/{id:tenant/a b}/subscriptions/{id:tenant/a b/subscription/main}`,
      body: {
        owner: { uuid: '{id:tenant/a b}' },
        list: ['{id:tenant/a b/subscription/main}'],
        text: 'sub {id:tenant/a b/subscription/main}!',
      },
    });
    expect(resolved.path).toBe(`${P}/tenants/u%2F1/subscriptions/7`);
    expect(resolved.body).toEqual({ owner: { uuid: 'u/1' }, list: [7], text: 'sub 7!' });
    expect(() => ids.resolvePath('{id:tenant/never}')).toThrow(/tenant\/never is not known/);
  });
});

describe('executor: dependency order and created ids', () => {
  it('creates a tenant, its subscription (with the suspension PUT on the new id) and an entitlement, ids flowing down', async () => {
    const platform = new FakePlatform({ ...groups, ...north }, (r) => {
      if (r.method === 'POST' && r.path === `${P}/tenants`) return { status: 200, body: { uuid: 't-new' } };
      if (r.method === 'POST' && r.path === `${P}/tenants/t-new/subscriptions`) return { status: 200, body: { id: 7 } };
      return undefined;
    });
    const planned = await planWith(platform, [
      tenant('new'),
      subscription('new', { suspensionProfile: 'outgoing-barring' }),
      {
        kind: 'Entitlement',
        address: 'tenant/new/subscription/main/entitlement/BE geo',
        parentAddress: 'tenant/new/subscription/main',
        fields: { type: 'BE geo', entitlement: 5 },
      },
    ]);
    const result = await applyWith(platform, planned);
    expect(result).toMatchObject({ applied: 3, failed: 0, skipped: 0 });
    expect(platform.writes()).toEqual([
      `POST ${P}/tenants`,
      `POST ${P}/tenants/t-new/subscriptions`,
      `PUT ${P}/tenants/t-new/subscriptions/7`,
      `POST ${P}/tenants/t-new/subscriptions/7/entitlements`,
    ]);
    expect(platform.sent.find((s) => s.path === `${P}/tenants`)?.body).toMatchObject({
      name: 'new',
      owner: { type: 'reseller', uuid: 'r-1' },
    });
    // Doc2 §4.1: the subscription PUT carries the suspension profile's integer id
    expect(platform.sent.find((s) => s.method === 'PUT')?.body).toMatchObject({ suspensionProfileId: 2 });
  });

  it('a tenant under a reseller created in the same run names the new reseller as owner', async () => {
    const platform = new FakePlatform({ ...groups, [`${P}/resellers?parent=g-1`]: [] }, (r) =>
      r.method === 'POST' && r.path === `${P}/resellers` ? { status: 200, body: { uuid: 'r-new' } } : undefined,
    );
    const planned = await planWith(platform, [
      {
        kind: 'Reseller',
        address: 'reseller/east',
        parentRef: { kind: 'Group', name: 'demo-group' },
        fields: { name: 'east' },
      },
      { ...tenant('t1'), parentRef: undefined, parentAddress: 'reseller/east' },
    ]);
    await applyWith(platform, planned);
    expect(platform.sent.find((s) => s.path === `${P}/tenants`)?.body).toMatchObject({
      owner: { type: 'reseller', uuid: 'r-new' },
    });
  });
});

describe('executor: failures', () => {
  it('a failed tenant create skips its subtree only; the summary counts say so', async () => {
    const platform = new FakePlatform({ ...groups, ...north }, (r) => {
      const body = r.body as Record<string, unknown> | undefined;
      if (r.path === `${P}/tenants` && body?.['name'] === 'bad')
        return apiError('POST', r.path, 400, 'billingId T-bad is already used in this group');
      return undefined;
    });
    const planned = await planWith(platform, [
      tenant('bad', {}, { source: 'tenants.yaml:3:1' }),
      subscription('bad'),
      tenant('good'),
      subscription('good'),
    ]);
    const result = await applyWith(platform, planned);
    expect(result).toMatchObject({ applied: 2, failed: 1, skipped: 1 });
    expect(outcomeOf(result, 'tenant/bad')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('already used'),
    });
    expect(result.results.find((r) => r.change.address === 'tenant/bad')?.change.source).toBe('tenants.yaml:3:1');
    expect(outcomeOf(result, 'tenant/bad/subscription/main')).toEqual({
      status: 'skipped',
      reason: 'tenant/bad failed',
    });
    expect(outcomeOf(result, 'tenant/good/subscription/main')?.status).toBe('applied');
  });

  it('--fail-fast starts nothing after the first failure', async () => {
    const platform = new FakePlatform({ ...groups, ...north }, (r) =>
      r.method === 'POST' ? apiError('POST', r.path, 400) : undefined,
    );
    const planned = await planWith(platform, [tenant('a'), tenant('b'), tenant('c')]);
    const result = await applyWith(platform, planned, { failFast: true, concurrency: 1 });
    expect(result).toMatchObject({ failed: 1, skipped: 2 });
    expect(platform.writes()).toHaveLength(1);
  });
});

describe('executor: a replace that creates the new object first', () => {
  it('whose old object cannot be deleted is journalled failed (SB_APPLY_OLD_KEPT), as the summary says', async () => {
    const live = {
      ...groups,
      [`${P}/groups/g-1/block_list`]: [{ id: 5, name: 'premium', type: 'block_list', country: 'Belgium' }],
      [`${P}/groups/g-1/block_list/5/prefixes`]: [],
    };
    const platform = new FakePlatform(live, (r) => {
      if (r.method === 'DELETE') return apiError('DELETE', r.path, 409, 'in use');
      return r.method === 'POST' ? { status: 200, body: { id: 6 } } : undefined;
    });
    const address = 'group/demo-group/block_list/premium';
    const planned = await planWith(platform, [
      { kind: 'Group', address: 'group/demo-group', fields: { name: 'demo-group' } },
      {
        kind: 'GroupCallingPlan',
        address,
        parentAddress: 'group/demo-group',
        fields: { name: 'premium', country: 'Netherlands' },
      },
    ]);
    expect(planned.changes.map((c) => [c.action, c.address])).toEqual([['replace', address]]);
    const dir = await mkdtemp(join(tmpdir(), 'sb-old-kept-'));
    const journal = await Journal.open(join(dir, 'journal.jsonl'), { changes: planned.changes });
    const result = await applyWith(platform, planned, { journal });
    await journal.close();
    expect(outcomeOf(result, address)).toMatchObject({ status: 'failed', code: 'SB_APPLY_OLD_KEPT' });
    const lines = (await readFile(join(dir, 'journal.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; address?: string; outcome?: string; message?: string });
    const changes = lines.filter((l) => l.type === 'change' && l.address === address);
    expect(changes.map((l) => l.outcome)).toEqual(['failed']);
    expect(changes[0]?.message).toMatch(/the new object was created, but the old one \(id 5\) was kept/);
  });
});

describe('executor: spec quirks', () => {
  it('Doc1 §4.4: an administrator create answered 400 (e-mail exists) becomes a PUT update', async () => {
    const live = {
      ...groups,
      ...north,
      [`${P}/tenants?parent=r-1`]: [{ uuid: 't-1', name: 'acme', billingId: 'T-acme' }],
    };
    const platform = new FakePlatform(live, (r) =>
      r.method === 'POST'
        ? apiError('POST', r.path, 400, 'an account with e-mail it@acme.example already exists')
        : undefined,
    );
    const planned = await planWith(platform, [
      tenant('acme'),
      {
        kind: 'Administrator',
        address: 'tenant/acme/admin/it@acme.example',
        parentAddress: 'tenant/acme',
        fields: { email: 'it@acme.example', firstName: 'Ada' },
      },
    ]);
    const result = await applyWith(platform, planned);
    expect(result).toMatchObject({ applied: 1, failed: 0 });
    expect(platform.writes()).toEqual([
      `POST ${P}/tenants/t-1/admins`,
      `PUT ${P}/tenants/t-1/admins/it%40acme.example`,
    ]);
    expect(platform.sent.at(-1)?.body).toEqual({ adminEmail: 'it@acme.example', firstName: 'Ada', force_reset: false });
  });

  it('Doc1 §1.10: a delete answered 404 (already gone) counts as applied', async () => {
    const live = {
      ...groups,
      ...north,
      [`${P}/tenants?parent=r-1`]: [{ uuid: 't-1', name: 'acme', billingId: 'T-acme' }],
      [`${P}/tenants/t-1/subscriptions`]: [{ id: 3, name: 'old', billingId: 'S-OLD' }],
    };
    const platform = new FakePlatform(live, (r) =>
      r.method === 'DELETE' ? apiError('DELETE', r.path, 404, 'not found') : undefined,
    );
    const planned = await planWith(platform, [
      tenant('acme', {}, { declaredCollections: ['subscriptions'], prune: true }),
    ]);
    expect(planned.changes.map((c) => c.action)).toEqual(['delete']);
    const result = await applyWith(platform, planned);
    expect(result).toMatchObject({ applied: 1, failed: 0 });
  });

  it('a POST with an unknown outcome is looked up by identity and not re-sent when the object is there', async () => {
    const live: Record<string, unknown[]> = { ...groups, ...north };
    const platform = new FakePlatform(live, (r) => {
      if (r.path === `${P}/tenants`) {
        live[`${P}/tenants?parent=r-1`] = [{ uuid: 't-made', name: 'new', billingId: 'T-new' }];
        return apiError('POST', r.path, undefined, 'socket reset');
      }
      return r.path.endsWith('/subscriptions') ? { status: 200, body: { id: 1 } } : undefined;
    });
    const planned = await planWith(platform, [tenant('new'), subscription('new')]);
    const result = await applyWith(platform, planned);
    expect(result).toMatchObject({ applied: 2, failed: 0 });
    expect(platform.writes()).toEqual([`POST ${P}/tenants`, `POST ${P}/tenants/t-made/subscriptions`]);
  });

  it('a POST with an unknown outcome is re-sent when the lookup does not find the object; the lookup is journalled too', async () => {
    const platform = new FakePlatform({ ...groups, ...north }, (r, nth) =>
      r.path === `${P}/tenants` && nth === 0 ? apiError('POST', r.path, undefined, 'timeout') : undefined,
    );
    const planned = await planWith(platform, [tenant('new')]);
    const file = join(await mkdtemp(join(tmpdir(), 'sb-exec-')), 'journal.jsonl');
    const journal = await Journal.open(file);
    const result = await applyWith(platform, planned, { journal });
    await journal.close();
    expect(result).toMatchObject({ applied: 1, requests: 3 });
    expect(platform.writes()).toEqual([`POST ${P}/tenants`, `POST ${P}/tenants`]);
    expect(platform.sent.filter((s) => s.method === 'LIST').map((s) => s.path)).toEqual([`${P}/tenants?parent=r-1`]);
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      lines.map((l) => [l['type'], l['method'] ?? l['ok'] ?? l['outcome'], l['purpose'] ?? l['code'] ?? '']),
    ).toEqual([
      ['intent', 'POST', 'create'],
      ['outcome', false, 'SB_API_OUTCOME_UNKNOWN'],
      ['intent', 'GET', 'look up by identity (every page)'],
      ['outcome', true, ''],
      ['intent', 'POST', 'create (re-sent: not found after an unknown outcome)'],
      ['outcome', true, ''],
      ['change', 'applied', ''],
    ]);
  });

  it('Doc2 §4.1: a subscription update that changes only billingId still carries suspensionProfileId', async () => {
    const live = {
      ...groups,
      ...north,
      [`${P}/tenants?parent=r-1`]: [{ uuid: 't-1', name: 'acme', billingId: 'T-acme' }],
      [`${P}/tenants/t-1/subscriptions`]: [{ id: 3, name: 'main', billingId: 'S-OLD', suspensionProfileId: 'BP-OUT' }],
    };
    const platform = new FakePlatform(live);
    const planned = await planWith(platform, [tenant('acme'), subscription('acme', { billingId: 'S-NEW' })]);
    await applyWith(platform, planned);
    expect(platform.sent.filter((s) => s.method === 'PUT')).toEqual([
      {
        method: 'PUT',
        path: `${P}/tenants/t-1/subscriptions/3`,
        body: { suspensionProfileId: 2, name: 'main', billingId: 'S-NEW' },
      },
    ]);
  });
});
