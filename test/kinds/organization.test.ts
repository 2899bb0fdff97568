import { describe, expect, it } from 'vitest';
import { groupKind } from '../../src/kinds/group.js';
import { resellerKind } from '../../src/kinds/reseller.js';
import { tenantKind } from '../../src/kinds/tenant.js';
import { administratorKind } from '../../src/kinds/administrator.js';
import { P, ctx } from './context.js';

describe('Group (Doc1 §2.3, §4.2)', () => {
  it('lists token-style, is identified by name, and creates with the group body only', async () => {
    expect(groupKind.list?.(undefined, ctx)).toEqual({
      path: `${P}/groups`,
      itemsKey: 'groups',
      style: 'token',
      role: 'groups.list',
    });
    const parts = await groupKind.fromApi(
      { uuid: 'g-1', name: 'demo-group', draasDomain: 'demo.example.net', nbOfDistributors: 1 },
      ctx,
      undefined,
    );
    expect(parts).toEqual({ id: 'g-1', fields: { name: 'demo-group', draasDomain: 'demo.example.net' } });
    expect(groupKind.address(undefined, groupKind.identity(parts.fields))).toBe('group/demo-group');
    const [create] = await groupKind.create!(
      { kind: 'Group', address: 'group/x', fields: { name: 'x', draasDomain: 'x.net' } },
      undefined,
      ctx,
    );
    expect(create).toEqual({
      method: 'POST',
      path: `${P}/groups`,
      role: 'groups.create',
      body: { name: 'x', draasDomain: 'x.net' },
    });
  });
});

describe('Reseller (Doc1 §2.4, §4.3)', () => {
  it('normalises a markup served as a string, and lists under its parent (parent is required for system admins)', async () => {
    const parent = { kind: 'Group', address: 'group/g', id: 'g-1', ids: { Group: 'g-1' }, fields: {} };
    expect(resellerKind.list?.(parent, ctx)).toMatchObject({
      path: `${P}/resellers`,
      query: { parent: 'g-1' },
      role: 'resellers.list',
    });
    const parts = await resellerKind.fromApi(
      { uuid: 'r-1', name: 'north', billingId: 'R-N', markup: '3.50', status: 'suspended' },
      ctx,
      parent,
    );
    expect(parts.fields).toEqual({ name: 'north', billingId: 'R-N', markup: 3.5 });
  });

  it('creates with the owner, then suspends through its own endpoint with the integer profile id', async () => {
    const requests = await resellerKind.create!(
      {
        kind: 'Reseller',
        address: 'reseller/east',
        fields: { name: 'east', billingId: 'R-E', suspensionProfile: 'outgoing-barring' },
      },
      { kind: 'Distributor', ids: { Distributor: 'd-1' } },
      ctx,
    );
    expect(requests).toEqual([
      {
        method: 'POST',
        path: `${P}/resellers`,
        role: 'resellers.create',
        body: { name: 'east', billingId: 'R-E', owner: { type: 'distributor', uuid: 'd-1' } },
      },
      {
        method: 'PUT',
        path: `${P}/resellers/{id:reseller/east}/suspension_profile`,
        role: 'resellers.instance.suspension_profile.update',
        body: { suspensionProfileId: 2 },
      },
    ]);
  });

  it('a suspension profile is named, not given by id: a subscription reads the name back', async () => {
    const suspend = (suspensionProfile: string) =>
      resellerKind.update!(
        { kind: 'Reseller', address: 'reseller/north', fields: { name: 'north', suspensionProfile } },
        { kind: 'Reseller', address: 'reseller/north', id: 'r-1', ids: { Reseller: 'r-1' }, fields: { name: 'north' } },
        ctx,
        ['suspensionProfile'],
      );
    expect(await suspend('outgoing-barring')).toEqual([expect.objectContaining({ body: { suspensionProfileId: 2 } })]);
    await expect(suspend('2')).rejects.toThrow(
      /unknown suspension profile "2": name one of the profiles \(full-barring, outgoing-barring\)/,
    );
  });

  it('an update that only lifts the suspension sends only the suspension request (null removes it)', async () => {
    const live = {
      kind: 'Reseller',
      address: 'reseller/north',
      id: 'r-1',
      ids: { Reseller: 'r-1' },
      fields: { name: 'north' },
    };
    const requests = await resellerKind.update!(
      { kind: 'Reseller', address: 'reseller/north', fields: { name: 'north', suspensionProfile: null } },
      live,
      ctx,
      ['suspensionProfile'],
    );
    expect(requests).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: `${P}/resellers/r-1/suspension_profile`,
        body: { suspensionProfileId: null },
      }),
    ]);
  });
});

describe('Tenant (Doc1 §2.5, §4.4)', () => {
  it('creates under a reseller created in the same plan (pending uuid as owner) and holds data', async () => {
    const [create] = await tenantKind.create!(
      { kind: 'Tenant', address: 'tenant/t', fields: { name: 't', markup: 2 } },
      { kind: 'Reseller', ids: { Reseller: '{id:reseller/east}' } },
      ctx,
    );
    expect(create?.body).toEqual({ name: 't', markup: 2, owner: { type: 'reseller', uuid: '{id:reseller/east}' } });
    expect(tenantKind.holdsData).toBe(true);
  });
});

describe('Administrator (Doc1 §2.7)', () => {
  it('is never read; updates by e-mail with force_reset false; lives under groups, resellers and tenants', async () => {
    expect(administratorKind.unreadable).toBe(true);
    expect(administratorKind.list).toBeUndefined();
    const live = {
      kind: 'Administrator',
      address: 'tenant/t/admin/a@x.io',
      id: 'a@x.io',
      ids: { Reseller: 'r-1', Tenant: 't-1', Administrator: 'a@x.io' },
      fields: { email: 'a@x.io' },
    };
    const [update] = await administratorKind.update!(
      { kind: 'Administrator', address: live.address, fields: { email: 'a@x.io', firstName: 'Ada' } },
      live,
      ctx,
      ['firstName'],
    );
    expect(update).toEqual({
      method: 'PUT',
      path: `${P}/tenants/t-1/admins/a%40x.io`,
      role: 'tenants.instance.admins.update',
      body: { adminEmail: 'a@x.io', firstName: 'Ada', force_reset: false },
    });
    const [create] = await administratorKind.create!(
      { kind: 'Administrator', address: 'group/g/admin/b@x.io', fields: { email: 'b@x.io' } },
      { kind: 'Group', ids: { Group: 'g-1' } },
      ctx,
    );
    expect(create).toMatchObject({
      method: 'POST',
      path: `${P}/groups/g-1/admins`,
      role: 'groups.instance.admins.create',
      body: { adminEmail: 'b@x.io' },
    });
  });
});
