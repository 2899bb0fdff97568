import { describe, expect, it } from 'vitest';
import { subscriptionKind } from '../../src/kinds/subscription.js';
import { entitlementKind } from '../../src/kinds/entitlement.js';
import { P, T, child, ctx, subscription } from './context.js';

const tenant = { kind: 'Tenant', address: 'tenant/acme', id: 't-1', ids: { Tenant: 't-1' }, fields: {} };

describe('Subscription (Doc2 §2.1, §4.1)', () => {
  it('reads the suspension as a barring-profile id (string) and names the profile', async () => {
    const parts = await subscriptionKind.fromApi(
      { id: 3, name: 'main', billingId: 'B', uc: 'uc_alpha', suspensionProfileId: 'BP-OUT' },
      ctx,
      tenant,
    );
    expect(parts.fields).toEqual({
      name: 'main',
      billingId: 'B',
      uc: 'uc_alpha',
      suspensionProfile: 'outgoing-barring',
    });
    const unsuspended = await subscriptionKind.fromApi({ id: 4, name: 'x', billingId: 'B2' }, ctx, tenant);
    expect(unsuspended.fields['suspensionProfile']).toBeNull();
  });

  it('PUT always carries suspensionProfileId: the declared one, or the current one mapped back to its integer id', async () => {
    const live = child(tenant, 'Subscription', '3', 'tenant/acme/subscription/main', {
      name: 'main',
      suspensionProfile: 'outgoing-barring',
    });
    const [keep] = await subscriptionKind.update!(
      { kind: 'Subscription', address: live.address, fields: { name: 'main', billingId: 'NEW' } },
      live,
      ctx,
      ['billingId'],
    );
    expect(keep).toEqual({
      method: 'PUT',
      path: T,
      role: 'tenants.instance.subscriptions.instance.update',
      body: { suspensionProfileId: 2, name: 'main', billingId: 'NEW' },
    });
    const [lift] = await subscriptionKind.update!(
      { kind: 'Subscription', address: live.address, fields: { name: 'main', suspensionProfile: null } },
      live,
      ctx,
      ['suspensionProfile'],
    );
    expect(lift?.body).toEqual({ suspensionProfileId: null, name: 'main' });
  });

  it('creates with POST then suspends with a PUT on the pending id; uc cannot change (replace)', async () => {
    const requests = await subscriptionKind.create!(
      {
        kind: 'Subscription',
        address: 'tenant/acme/subscription/new',
        fields: { name: 'new', billingId: 'B', uc: 'uc_beta', suspensionProfile: 'full-barring' },
      },
      { kind: 'Tenant', ids: { Tenant: 't-1' } },
      ctx,
    );
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST ${P}/tenants/t-1/subscriptions`,
      `PUT ${P}/tenants/t-1/subscriptions/{id:tenant/acme/subscription/new}`,
    ]);
    expect(requests[1]?.body).toMatchObject({ suspensionProfileId: 1 });
    expect(subscriptionKind.fields.find((f) => f.name === 'uc')?.change).toBe('replace');
    // Doc2 §4.1 names the update role for the delete endpoint.
    expect(subscriptionKind.delete!(child(tenant, 'Subscription', '3', 'x', {}), ctx)[0]?.role).toBe(
      'tenants.instance.subscriptions.instance.update',
    );
  });
});

describe('Entitlement (Doc2 §2.3, §4.3)', () => {
  it('is identified by its type name (the live entitlement has no licenseModelId) and creates with the type id', async () => {
    const parts = await entitlementKind.fromApi(
      { id: 9, name: 'BE geo', countryCode: '32', entitlement: '10', assigned: 2 },
      ctx,
      subscription,
    );
    // `reserved` is served only when at least 1 (Doc 2 §2.3): absent reads as 0.
    expect(parts).toEqual({
      id: '9',
      fields: { type: 'BE geo', entitlement: 10 },
      facts: { assigned: 2, reserved: 0 },
    });
    const reserved = await entitlementKind.fromApi(
      { id: 9, name: 'BE geo', entitlement: 10, reserved: 3 },
      ctx,
      subscription,
    );
    expect(reserved.facts).toEqual({ assigned: 0, reserved: 3 });
    const [create] = await entitlementKind.create!(
      {
        kind: 'Entitlement',
        address: 'x',
        fields: { type: 'BE tollfree', entitlement: 5, externalReference: 'ext-1' },
      },
      { kind: 'Subscription', ids: subscription.ids },
      ctx,
    );
    expect(create).toEqual({
      method: 'POST',
      path: `${T}/entitlements`,
      role: 'tenants.instance.subscriptions.entitlements.create',
      body: { licenseModelId: 2, entitlement: 5, externalReference: 'ext-1' },
    });
  });

  it('a type declared by id is canonicalised to its name, so it matches the live entitlement', async () => {
    const out = await entitlementKind.canonicalize!(
      {
        kind: 'Entitlement',
        address: 'tenant/acme/subscription/main/entitlement/1',
        fields: { typeId: 1, entitlement: 3 },
      },
      ctx,
    );
    expect(out).toEqual({
      address: 'tenant/acme/subscription/main/entitlement/BE geo',
      fields: { type: 'BE geo', entitlement: 3 },
    });
    await expect(
      entitlementKind.canonicalize!({ kind: 'Entitlement', address: 'a/entitlement/77', fields: { typeId: 77 } }, ctx),
    ).rejects.toThrow(/unknown entitlement type id 77/);
  });

  it('a type of digits that names no type is its id, as the create takes it: planned by the name, never re-created', async () => {
    const byDigits = (type: string) =>
      entitlementKind.canonicalize!(
        { kind: 'Entitlement', address: `tenant/acme/subscription/main/entitlement/${type}`, fields: { type } },
        ctx,
      );
    expect(await byDigits('1')).toEqual({
      address: 'tenant/acme/subscription/main/entitlement/BE geo',
      fields: { type: 'BE geo' },
    });
    await expect(byDigits('77')).rejects.toThrow(/unknown entitlement type "77"/);
    const named = { kind: 'Entitlement', address: 'a/entitlement/BE geo', fields: { type: 'BE geo' } };
    expect(await entitlementKind.canonicalize!(named, ctx)).toBe(named);
  });

  it('refuses going below the assigned count and deleting with assigned numbers; reserved do not count', () => {
    const live = child(subscription, 'Entitlement', '9', 'e', { type: 'BE geo', entitlement: 10 }, { assigned: 2 });
    expect(
      entitlementKind.checkUpdate!({ kind: 'Entitlement', address: 'e', fields: { entitlement: 1 } }, live),
    ).toMatch(/below the 2 numbers already assigned/);
    expect(
      entitlementKind.checkUpdate!({ kind: 'Entitlement', address: 'e', fields: { entitlement: 2 } }, live),
    ).toBeUndefined();
    expect(entitlementKind.checkDelete!(live)).toMatch(/2 numbers are assigned/);
    expect(entitlementKind.checkDelete!({ ...live, facts: { assigned: 0 } })).toBeUndefined();
  });
});
