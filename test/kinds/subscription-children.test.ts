import { describe, expect, it } from 'vitest';
import { addressKind } from '../../src/kinds/address.js';
import { callingPlanKinds, prefixKind, trunkGroupKind } from '../../src/kinds/calling-plan.js';
import { locationKind } from '../../src/kinds/location.js';
import { numberLinkKind } from '../../src/kinds/number-link.js';
import { templateKind } from '../../src/kinds/template.js';
import { normalizeField } from '../../src/kinds/fields.js';
import type { KindContext } from '../../src/kinds/types.js';
import { liveObject } from '../../src/state/collection-read.js';
import { T, child, ctx, subscription } from './context.js';

const parent = { kind: 'Subscription', ids: subscription.ids };

describe('Address (Doc2 §2.7, §4.5)', () => {
  it('is identified by its full address, with the data parts normalised (postalCode is an integer)', async () => {
    const parts = await addressKind.fromApi(
      {
        id: 5,
        full_address: 'Rue Haute 10, 1000 Brussels, Belgium',
        data: { street: 'Rue Haute', number: '10', postalCode: '1000', city: 'Brussels' },
      },
      ctx,
      subscription,
    );
    expect(parts.fields).toEqual({
      street: 'Rue Haute',
      number: '10',
      postalCode: 1000,
      city: 'Brussels',
      fullAddress: 'Rue Haute 10, 1000 Brussels, Belgium',
    });
    expect(addressKind.address(subscription.address, addressKind.identity(parts.fields))).toBe(
      'tenant/acme/subscription/main/address/Rue Haute 10, 1000 Brussels, Belgium',
    );
  });

  it('creates {data, full_address}, and declares the bulk endpoint for large sets', async () => {
    const [create] = await addressKind.create!(
      {
        kind: 'Address',
        address: 'a',
        fields: { street: 'S', number: '1', postalCode: 1000, fullAddress: 'S 1, 1000 B, Belgium' },
      },
      parent,
      ctx,
    );
    expect(create).toMatchObject({
      method: 'POST',
      path: `${T}/addresses`,
      body: { data: { street: 'S', number: '1', postalCode: 1000 }, full_address: 'S 1, 1000 B, Belgium' },
    });
    expect(addressKind.bulk?.matches(create!)).toBe(true);
    expect(addressKind.bulk?.bulkPath(`${T}/addresses`)).toBe(`${T}/addresses/bulk`);
  });
});

describe('Location (Doc2 §2.8, §4.7)', () => {
  it('reads the postal code object as its code and writes postalCodeId', async () => {
    const parts = await locationKind.fromApi(
      { id: 4, street: 'Rue Haute', number: '10', postalCode: { id: 11, code: '1000', city: 'Brussels' } },
      ctx,
      subscription,
    );
    expect(parts.fields).toEqual({ street: 'Rue Haute', number: '10', postalCode: '1000', postalCodeId: 11 });
    expect(locationKind.identity(parts.fields)).toBe('Rue Haute 10 1000');
    const [create] = await locationKind.create!(
      { kind: 'Location', address: 'l', fields: { street: 'Rue Haute', number: '10', postalCode: '1050' } },
      parent,
      ctx,
    );
    expect(create?.body).toEqual({ street: 'Rue Haute', number: '10', postalCodeId: 12 });
    await expect(
      locationKind.create!(
        { kind: 'Location', address: 'l', fields: { street: 'x', number: '1', postalCode: '9999' } },
        parent,
        ctx,
      ),
    ).rejects.toThrow(/unknown postal code "9999"/);
  });

  it('Doc2 §4.7: a declared postalCodeId is sent as is, without the postal-code lookup (a list the documents do not show)', async () => {
    let lookups = 0;
    const counting: KindContext = { ...ctx, refs: { read: (list, ids) => (lookups++, ctx.refs.read(list, ids)) } };
    const [create] = await locationKind.create!(
      {
        kind: 'Location',
        address: 'l',
        fields: { street: 'Meir', number: '22', postalCode: '2000', postalCodeId: 31 },
      },
      parent,
      counting,
    );
    expect(create?.body).toEqual({ street: 'Meir', number: '22', postalCodeId: 31 });
    const live = child(subscription, 'Location', '4', 'l', {
      street: 'Meir',
      number: '22',
      postalCode: '2000',
      postalCodeId: 30,
    });
    const [update] = await locationKind.update!(
      { kind: 'Location', address: 'l', fields: { postalCodeId: 31 } },
      live,
      counting,
      ['postalCodeId'],
    );
    expect(update?.body).toEqual({ postalCodeId: 31 });
    expect(lookups).toBe(0);
  });

  it('a platform without the postal-code list (404): a location named by code only cannot be created, and the message says to declare postalCodeId', async () => {
    const missing = Object.assign(new Error('GET …/public/postal_codes → 404'), { status: 404 });
    const without: KindContext = { ...ctx, refs: { read: () => Promise.reject(missing) } };
    await expect(
      locationKind.create!(
        { kind: 'Location', address: 'l', fields: { street: 'x', number: '1', postalCode: '1000' } },
        parent,
        without,
      ),
    ).rejects.toThrow(/has no postal-code list .*answered 404.*declare postalCodeId next to postalCode "1000"/);
    const other = Object.assign(new Error('boom'), { status: 500 });
    await expect(
      locationKind.create!(
        { kind: 'Location', address: 'l', fields: { street: 'x', number: '1', postalCode: '1000' } },
        parent,
        { ...ctx, refs: { read: () => Promise.reject(other) } },
      ),
    ).rejects.toThrow('boom');
  });
});

describe('Template (Doc2 §2.10, §4.8)', () => {
  it('is identified by sku, found by lookup after its 204 create, and template 0 is never deleted', () => {
    expect(templateKind.createdId).toEqual({ from: 'lookup' });
    expect(templateKind.isUndeletable!(child(subscription, 'Template', '0', 't', {}))).toBe(true);
    expect(templateKind.isUndeletable!(child(subscription, 'Template', '4', 't', {}))).toBe(false);
    // The list view has sku, name and description only: other declared fields need the detail GET.
    expect(templateKind.detail?.listed).toEqual(['sku', 'name', 'description']);
    expect(templateKind.detail?.request(child(subscription, 'Template', '4', 't', {}), ctx).path).toBe(
      `${T}/uc_alpha/templates/4`,
    );
  });

  it('compares groups and licenses as sets (the API keeps no order)', () => {
    const spec = templateKind.fields.find((f) => f.name === 'licenses')!;
    expect(normalizeField(spec, ['b', 'a'])).toEqual(normalizeField(spec, ['a', 'b']));
  });
});

describe('Calling plans (Doc2 §2.11, §4.9, §4.10)', () => {
  const [group, trunkBlock, trunkAllow] = callingPlanKinds;

  it('answer 404 when none, update only the name, and replace by creating first', () => {
    const trunkGroup = child(subscription, 'TrunkGroup', '7', 'tenant/acme/subscription/main/trunkgroup/7', {
      id: '7',
    });
    expect(trunkBlock?.list?.(trunkGroup, ctx)).toMatchObject({
      path: `${T}/trunkgroups/7/block_list`,
      notFoundIsEmpty: true,
      role: 'tenants.instance.subscriptions.instance.trunk_group.instance.block_list.instance.read',
    });
    expect(trunkAllow?.list?.(trunkGroup, ctx)).toMatchObject({
      path: `${T}/trunkgroups/7/allow_list`,
      role: 'tenants.instance.subscriptions.instance.trunk_group.instance.allow_list.list',
    });
    const live = child(trunkGroup, 'TrunkGroupAllowList', '2', 'x', { name: 'old' });
    const [update] = trunkAllow!.update!(
      { kind: 'TrunkGroupAllowList', address: 'x', fields: { name: 'new', country: 'Belgium' } },
      live,
      ctx,
      ['name'],
    ) as { body: unknown }[];
    expect(update?.body).toEqual({ name: 'new' });
    expect(group?.fields.find((f) => f.name === 'country')?.change).toBe('replace');
    expect(group?.createBeforeDelete).toBe(true);
  });

  it('prefixes live under any plan, their paths follow the parent plan, isExact typed either way', async () => {
    const plan = child(
      { kind: 'Group', address: 'group/g', id: 'g-1', ids: { Group: 'g-1' }, fields: {} },
      'GroupCallingPlan',
      '5',
      'group/g/block_list/p',
      {},
    );
    expect(prefixKind.list?.(plan, ctx)).toMatchObject({
      path: '/api/v01/draas/demo/groups/g-1/block_list/5/prefixes',
      role: 'groups.instance.block_list.instance.prefixes.list',
    });
    const parts = await prefixKind.fromApi({ id: 8, prefix: '+32900', isExact: 'false', name: 'premium' }, ctx, plan);
    expect(parts.fields).toEqual({ prefix: '+32900', isExact: false, name: 'premium' });
    const live = child(plan, 'Prefix', '8', 'group/g/block_list/p/prefix/+32900', parts.fields);
    expect(prefixKind.delete!(live, ctx)[0]).toEqual({
      method: 'DELETE',
      path: '/api/v01/draas/demo/groups/g-1/block_list/5/prefixes/8',
      role: 'groups.instance.block_list.instance.prefixes.instance.delete',
    });
  });

  it('trunk groups cannot be listed or created: declared means assumed to exist', () => {
    expect(trunkGroupKind.assumedToExist).toBe(true);
    expect(trunkGroupKind.create).toBeUndefined();
  });
});

describe('NumberAddressLink (Doc2 §2.5, §4.5)', () => {
  it('Doc 2 §2.5: addressId and addressVerified are conditional: an absent verification is unknown, never verified', async () => {
    const linkOf = async (item: Record<string, unknown>) => {
      // The live link as the reader builds it from the list item.
      const parts = await numberLinkKind.fromApi(item, ctx, subscription);
      return numberLinkKind.coverage!.linkOf(liveObject(numberLinkKind, parts, subscription));
    };
    const number = { id: 1, fullNumber: '+3221234562' };
    expect(await linkOf({ ...number, addressId: 5 })).toEqual({ id: '5', verified: null });
    expect(await linkOf({ ...number, addressId: 5, addressVerified: false })).toEqual({ id: '5', verified: false });
    expect(await linkOf({ ...number, addressId: 5, addressVerified: true })).toEqual({ id: '5', verified: true });
    expect(await linkOf(number)).toEqual({ id: null, verified: null });
  });

  it('updates through the address→number bulk endpoint, and cannot be created or deleted', async () => {
    const parts = await numberLinkKind.fromApi(
      { id: 1, fullNumber: '+3221234562', addressId: 5, address: 'Rue Haute 10, 1000 Brussels, Belgium' },
      ctx,
      subscription,
    );
    expect(parts.fields).toEqual({ number: '+3221234562', address: 'Rue Haute 10, 1000 Brussels, Belgium' });
    const live = child(
      subscription,
      'NumberAddressLink',
      '+3221234562',
      'tenant/acme/subscription/main/number/+3221234562',
      parts.fields,
    );
    const [update] = await numberLinkKind.update!(
      {
        kind: 'NumberAddressLink',
        address: live.address,
        fields: { number: '+3221234562', address: 'Meir 22, 2000 Antwerpen, Belgium' },
      },
      live,
      ctx,
      ['address'],
    );
    expect(update).toMatchObject({
      method: 'PUT',
      path: `${T}/address_numbers/bulk`,
      body: { data: [{ full_address: 'Meir 22, 2000 Antwerpen, Belgium', number: '+3221234562' }] },
    });
    expect(numberLinkKind.bulk?.when).toBe('always');
    expect(numberLinkKind.create).toBeUndefined();
    expect(numberLinkKind.delete).toBeUndefined();
  });
});
