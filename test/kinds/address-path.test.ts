import { describe, expect, it } from 'vitest';
import { addressPairs, parentAddressOf } from '../../src/kinds/address-path.js';
import { orderChanges } from '../../src/plan/order.js';
import type { Change } from '../../src/plan/types.js';

const S = 'tenant/acme/subscription/main';

describe('addresses read back into their parts (docs/plans.md)', () => {
  it('gives the parent of every address shape of the contract', () => {
    expect(parentAddressOf('group/demo')).toBeUndefined();
    expect(parentAddressOf('tenant/acme')).toBeUndefined();
    expect(parentAddressOf(S)).toBe('tenant/acme');
    expect(parentAddressOf(`${S}/entitlement/BE geo`)).toBe(S);
    expect(parentAddressOf(`${S}/location/Rue Haute 10 1000`)).toBe(S);
    expect(parentAddressOf(`${S}/template/SKU-1`)).toBe(S);
    expect(parentAddressOf(`${S}/trunkgroup/7/block_list/premium`)).toBe(`${S}/trunkgroup/7`);
    expect(parentAddressOf(`${S}/trunkgroup/7/allow_list/intl/prefix/+32`)).toBe(`${S}/trunkgroup/7/allow_list/intl`);
    expect(parentAddressOf('group/demo/product/SKU-9')).toBe('group/demo');
    expect(parentAddressOf('reseller/north/admin/it@north.example')).toBe('reseller/north');
    expect(parentAddressOf(`${S}/number/+3221234567`)).toBe(S);
    expect(parentAddressOf('routing/draas/v1/routes/number=+3223000000')).toBe('routing/draas/v1/routes');
    expect(parentAddressOf('routing/draas/v1/routes')).toBeUndefined();
  });

  it('keeps a "/" inside an identity: a house number with a box, a sku, a routing value', () => {
    const box = `${S}/address/Rue Haute 16/2, 1000 Brussels, Belgium`;
    expect(addressPairs(box)).toEqual([
      ['tenant', 'acme'],
      ['subscription', 'main'],
      ['address', 'Rue Haute 16/2, 1000 Brussels, Belgium'],
    ]);
    expect(parentAddressOf(box)).toBe(S);
    expect(parentAddressOf(`${S}/template/PACK/2024`)).toBe(S);
    expect(parentAddressOf('tenant/a/b/subscription/x/y')).toBe('tenant/a/b');
    expect(parentAddressOf('routing/draas/v1/routes/route=sip:a/b')).toBe('routing/draas/v1/routes');
  });

  it('reads an identity that is itself an address word as an identity', () => {
    expect(addressPairs('tenant/subscription/subscription/address')).toEqual([
      ['tenant', 'subscription'],
      ['subscription', 'address'],
    ]);
    expect(parentAddressOf('tenant/number/subscription/main/number/+32')).toBe('tenant/number/subscription/main');
  });

  it('orders the delete of an address with a "/" before the delete of its subscription', () => {
    const del = (address: string, kind: string): Change => ({
      address,
      kind,
      provider: 'platform',
      action: 'delete',
      before: {},
      after: null,
      patch: [],
      reason: '',
      dependsOn: [],
      requests: [],
    });
    const address = `${S}/address/Rue Haute 16/2, 1000 Brussels, Belgium`;
    const ordered = orderChanges([del(S, 'Subscription'), del(address, 'Address')]);
    expect(ordered.map((c) => c.address)).toEqual([address, S]);
    expect(ordered.find((c) => c.address === S)?.dependsOn).toEqual([address]);
  });
});
