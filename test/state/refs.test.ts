import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { ApiError } from '../../src/api/errors.js';
import { ENTITLEMENT_TYPES } from '../../src/kinds/entitlement.js';
import { POSTAL_CODES } from '../../src/kinds/location.js';
import { defaultSeed, startSimulator } from '../../src/sim/index.js';
import { suspensionProfileName } from '../../src/kinds/suspension.js';
import { createReferenceData, type RefsClient } from '../../src/state/refs.js';

const P = '/api/v01/draas/demo';

/** A client answering each list path with the given items, counting the reads. */
function client(lists: Record<string, unknown[]>): RefsClient & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    listPages: async <T>(options: { path: string }) => {
      reads.push(options.path);
      return (lists[options.path] ?? []) as T[];
    },
  };
}

const profiles = [
  { id: 1, name: 'full-barring', barringProfileId: 'BP-ALL' },
  { id: 2, name: 'outgoing-barring', barringProfileId: 'BP-OUT', description: 'calls out barred' },
];

describe('reference data (Doc 1 §2.7, §4.5; Doc 2 §2.4)', () => {
  it('reads each list once and maps barring-profile ids to profile names', async () => {
    const fake = client({ [`${P}/public/suspension_profiles`]: profiles });
    const refs = createReferenceData(fake, P);
    expect(await suspensionProfileName('BP-OUT', { P, refs })).toBe('outgoing-barring');
    expect(await suspensionProfileName('BP-ALL', { P, refs })).toBe('full-barring');
    expect(fake.reads).toEqual([`${P}/public/suspension_profiles`]);
  });

  it('fails the read, naming the GET, when an item has a value of the wrong type: never a silent wrong mapping', async () => {
    const spoiled = [profiles[0], { ...profiles[1], barringProfileId: { value: 'BP-OUT' } }];
    const refs = createReferenceData(client({ [`${P}/public/suspension_profiles`]: spoiled }), P);
    const error = await suspensionProfileName('BP-OUT', { P, refs }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'SB_API_BAD_RESPONSE',
      method: 'GET',
      path: `${P}/public/suspension_profiles`,
    });
    expect((error as ApiError).message).toContain(
      'suspensionProfiles[1].barringProfileId is an object, expected string',
    );
  });

  it('checks entitlement types and postal codes too, accepting the spellings the API uses', async () => {
    const refs = createReferenceData(
      client({
        [`${P}/public/entitlement_types`]: [
          { id: 4, name: 'BE geo' },
          { id: '5', name: 'BE tollfree' },
        ],
        [`${P}/public/postal_codes`]: [
          { id: 9, code: 1000, city: 'Brussels', country: { isoCode: 'BE' } },
          { id: 10, code: '9000' },
        ],
      }),
      P,
    );
    expect(await refs.read(ENTITLEMENT_TYPES)).toHaveLength(2);
    expect(await refs.read(POSTAL_CODES)).toEqual([
      { id: 9, code: '1000', isoCode: 'BE', city: 'Brussels' },
      { id: 10, code: '9000' },
    ]);

    const broken = createReferenceData(
      client({
        [`${P}/public/entitlement_types`]: [{ id: 4, name: ['BE geo'] }],
        [`${P}/public/postal_codes`]: [{ id: 9, code: { code: 1000 } }],
      }),
      P,
    );
    await expect(broken.read(ENTITLEMENT_TYPES)).rejects.toThrow(
      /entitlementTypes\[0\]\.name is a list, expected string/,
    );
    await expect(broken.read(POSTAL_CODES)).rejects.toThrow(/postalCodes\[0\]\.code is an object, expected scalar/);
  });
});

describe('reference data against the simulator', () => {
  it('Doc2 §4.1: entitlement types are read on every page the platform pages them in (pagination), subscription and public list alike', async () => {
    const seed = defaultSeed();
    const more = Array.from({ length: 229 }, (_, i) => ({
      id: i + 7,
      name: `type-${i + 7}`,
      countryCode: '32',
      isoCode: 'BE',
      numberType: 'geo',
    }));
    seed.entitlementTypes = [...(seed.entitlementTypes ?? []), ...more];
    const sim = await startSimulator({ port: 0, seed, variants: 5 });
    const api = await ApiClient.connect({ baseUrl: sim.url, auth: { username: 'admin', password: 'admin' } });
    try {
      const acme = sim.core.store.tenants.rows().find((t) => t.name === 'acme-corp')!;
      const sub = sim.core.store.subscriptions.children(acme.uuid)[0]!;
      const refs = createReferenceData(api, api.paths.P);
      const types = await refs.read(ENTITLEMENT_TYPES, { Tenant: acme.uuid, Subscription: String(sub.id) });
      expect(types.map((t) => t.name)).toEqual(seed.entitlementTypes.map((t) => t.name));
      expect(types).toHaveLength(235); // three pages at the simulator's cap of 100
      expect(await refs.read(ENTITLEMENT_TYPES)).toHaveLength(235); // the deprecated public list (a subscription not created yet)
    } finally {
      await api.close();
      await sim.close();
    }
  });
});
