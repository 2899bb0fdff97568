import { adminApi } from '../e2e/cli-helpers.js';

const P = '/api/v01/draas/demo';

/** What {@link createEveryKind} made, for the assertions of the tests that use it. */
export interface CreatedObjects {
  postalCodeId: number;
}

/**
 * Creates, through the API, an object of every kind export writes that the default data set
 * lacks (Document 2 §4.3–§4.9): a tenant under reseller `north` with a subscription that is
 * suspended, an entitlement, an address, a location, a template, a group block list with a
 * prefix, and a number of acme-corp's subscription linked to a new address.
 */
export async function createEveryKind(url: string): Promise<CreatedObjects> {
  const api = await adminApi(url);
  const ok = async (method: string, path: string, body?: unknown) => {
    const response = await api(method, path, body);
    if (response.status >= 300)
      throw new Error(`${method} ${path} → ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const group = (await ok('GET', `${P}/groups`)).groups[0].uuid as string;
  const north = (await ok('GET', `${P}/resellers?parent=${group}&search=north`)).resellers[0].uuid as string;
  const tenant = (
    await ok('POST', `${P}/tenants`, {
      name: 'hooli',
      billingId: 'T-HOOLI',
      markup: 2.5,
      owner: { type: 'reseller', uuid: north },
    })
  ).uuid as string;
  const sub = (
    await ok('POST', `${P}/tenants/${tenant}/subscriptions`, { name: 'hq', billingId: 'T-HOOLI-HQ', uc: 'uc_alpha' })
  ).id as number;
  const T = `${P}/tenants/${tenant}/subscriptions/${sub}`;
  await ok('PUT', T, { suspensionProfileId: 2 });
  await ok('POST', `${T}/entitlements`, { licenseModelId: 2, entitlement: 3 });
  await ok('POST', `${T}/addresses`, {
    data: { street: 'Rue Haute', number: '10', city: 'Brussels', postalCode: 1000, country: 'Belgium', isoCode: 'BE' },
  });
  const postalCodeId = (await ok('GET', `${P}/public/postal_codes?code=1050`)).postalCodes[0].id as number;
  await ok('POST', `${T}/locations`, { street: 'Avenue Louise', number: '54', postalCodeId });
  await ok('POST', `${T}/uc_alpha/templates`, {
    sku: 'TPL-1',
    name: 'Std',
    description: 'yes',
    location: 'BE',
    vrp: 'vrp-std',
    licenses: ['L2', 'L1'],
  });
  const plan = (
    await ok('POST', `${P}/groups/${group}/block_list`, {
      name: 'premium',
      country: 'Belgium',
      countryCode: '32',
      isoCode: 'BE',
      type: 'block_list',
    })
  ).id as number;
  await ok('POST', `${P}/groups/${group}/block_list/${plan}/prefixes`, {
    prefix: '+32900',
    isExact: false,
    name: 'premium 0900',
  });
  // A number of acme-corp's subscription linked to an address (the others have none: not exported).
  const acme = (await ok('GET', `${P}/tenants?parent=${north}&search=acme`)).tenants[0].uuid as string;
  const main = (await ok('GET', `${P}/tenants/${acme}/subscriptions`)).subscriptions[0].id as number;
  const A = `${P}/tenants/${acme}/subscriptions/${main}`;
  await ok('POST', `${A}/addresses`, {
    data: { street: 'Meir', number: '22', city: 'Antwerpen', postalCode: 2000, country: 'Belgium', isoCode: 'BE' },
  });
  await ok('PUT', `${A}/address_numbers/bulk`, {
    name: 'link',
    data: [{ full_address: 'Meir 22, 2000 Antwerpen, Belgium', number: '+3221234563' }],
  });
  return { postalCodeId };
}
