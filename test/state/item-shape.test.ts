import { describe, expect, it } from 'vitest';
import { addressKind } from '../../src/kinds/address.js';
import { brandingKind } from '../../src/kinds/branding.js';
import { locationKind } from '../../src/kinds/location.js';
import { productKind } from '../../src/kinds/product.js';
import { subscriptionKind } from '../../src/kinds/subscription.js';
import { templateKind } from '../../src/kinds/template.js';
import type { KindDefinition } from '../../src/kinds/types.js';
import { assertReadable, liveShapeProblem } from '../../src/state/item-shape.js';
import { ctx, subscription } from '../kinds/context.js';

/** The problem the reader finds in `item`, or undefined when it reads it. */
async function problemOf(kind: KindDefinition, item: Record<string, unknown>): Promise<string | undefined> {
  return liveShapeProblem(kind, item, await kind.fromApi(item, ctx, subscription));
}

const address = {
  id: 5,
  full_address: 'Rue Haute 16/2, 1000 Brussels, Belgium',
  data: { street: 'Rue Haute', number: '16/2', postalCode: 1000, city: 'Brussels', country: 'Belgium', isoCode: 'BE' },
};
const location = { id: 4, street: 'Rue Haute', number: '10', postalCode: { id: 11, code: '1000', city: 'Brussels' } };
const template = {
  id: 2,
  sku: 'TPL-STD',
  name: 'Standard',
  description: 'd',
  location: 'BE',
  vrp: 'vrp-std',
  groups: ['g1'],
  licenses: ['LIC-A', 'LIC-B'],
  customerLicenses: [],
};
const product = {
  id: 7,
  sku: 'PRD-1',
  name: 'Trunk',
  status: 'enabled',
  items: [
    { type: 'license', subType: 'sipTrunkChannels', quantity: 4 },
    { type: 'entitlement', id: '1', quantity: '5' },
  ],
};
const theme = {
  type: 'theme',
  allowed: ['light', 'dark'],
  selected: 'light',
  themes: { light: '/themes/light.css', dark: '/themes/dark.css' },
};
const image = {
  type: 'image',
  favicon: '/f.ico',
  login: { bg: '/bg.png', logo: '/logo.png' },
  main: { logo: '/logo.png' },
};

describe('reading items: a value of an impossible type is a misread answer, never a change', () => {
  it('reads well-formed items, in the spellings the API uses (numbers as strings, a postal code object)', async () => {
    expect(await problemOf(addressKind, address)).toBeUndefined();
    expect(await problemOf(locationKind, location)).toBeUndefined();
    expect(await problemOf(locationKind, { ...location, postalCode: '1000' })).toBeUndefined();
    expect(await problemOf(templateKind, template)).toBeUndefined();
    expect(await problemOf(productKind, product)).toBeUndefined();
    expect(await problemOf(brandingKind, theme)).toBeUndefined();
    expect(await problemOf(brandingKind, image)).toBeUndefined();
  });

  it('Doc 2 §2.7, §2.8: an address whose data is not an object, a location whose postal code is a list', async () => {
    expect(await problemOf(addressKind, { ...address, data: [address.data] })).toBe('Address "data" is not an object');
    expect(await problemOf(addressKind, { id: 5, full_address: address.full_address })).toBe(
      'Address "data" is missing',
    );
    expect(await problemOf(locationKind, { ...location, postalCode: [location.postalCode] })).toBe(
      'Location "postalCode" holds a list, not a code',
    );
    expect(await problemOf(locationKind, { ...location, postalCode: { id: 11, code: { text: '1000' } } })).toBe(
      'Location "postalCode" holds an object, not a code',
    );
  });

  it('Doc 2 §2.10, §2.12: list elements and object values of the wrong type', async () => {
    expect(await problemOf(templateKind, { ...template, licenses: [{ text: 'LIC-A' }] })).toBe(
      'Template "licenses"[0] is an object, expected string',
    );
    expect(
      await problemOf(productKind, {
        ...product,
        items: [product.items[0], { type: 'entitlement', id: [1], quantity: 5 }],
      }),
    ).toBe('Product "items"[1].id is a list, expected integer');
    expect(await problemOf(productKind, { ...product, items: [{ type: 'license', quantity: { value: 4 } }] })).toBe(
      'Product "items"[0].quantity is an object, expected integer',
    );
  });

  it('a list read as something else is a misread, also where a normalize would pass it through (Product items)', async () => {
    for (const [kind, item, field] of [
      [productKind, product, 'items'],
      [templateKind, template, 'licenses'],
    ] as const) {
      for (const misread of [{ items: 2 }, 'LIC-A', 3, true]) {
        expect(await problemOf(kind, { ...item, [field]: misread })).toMatch(
          new RegExp(`^${kind.kind} "${field}" is .*, expected set$`),
        );
      }
      expect(await problemOf(kind, { ...item, [field]: null })).toBeUndefined();
    }
  });

  it('Doc 1 §2.10: branding maps and objects of the wrong type', async () => {
    expect(await problemOf(brandingKind, { ...theme, themes: { light: { text: '/themes/light.css' } } })).toBe(
      'Branding "themes".light is an object, expected string',
    );
    expect(await problemOf(brandingKind, { ...image, login: [image.login] })).toBe(
      'Branding "login" is a list, expected an object',
    );
    expect(await problemOf(brandingKind, { ...image, main: { logo: ['/logo.png'] } })).toBe(
      'Branding "main".logo is a list, expected string',
    );
  });

  it('Doc 2 §2.1: a suspension read as an object is a misread, not a profile named "barring:[object Object]"', async () => {
    const item = { id: 3, name: 'main', billingId: 'B-1', uc: 'uc1', suspensionProfileId: { id: '7' } };
    expect(await problemOf(subscriptionKind, item)).toBe(
      'Subscription "suspensionProfileId" is an object, expected string',
    );
    expect(await problemOf(subscriptionKind, { ...item, suspensionProfileId: null })).toBeUndefined();
    // Served as a string, the text is whatever a user named it.
    expect(
      await problemOf(subscriptionKind, { ...item, suspensionProfileId: null, billingId: '[object Object] ltd' }),
    ).toBeUndefined();
  });

  it('assertReadable names the GET it read', async () => {
    const item = { ...address, data: 'Rue Haute' };
    const parts = await addressKind.fromApi(item, ctx, subscription);
    expect(() => assertReadable(addressKind, item, parts, { path: '/api/v01/x/addresses', role: 'r.list' })).toThrow(
      expect.objectContaining({
        code: 'SB_API_BAD_RESPONSE',
        method: 'GET',
        path: '/api/v01/x/addresses',
        role: 'r.list',
        message: expect.stringContaining(
          'GET /api/v01/x/addresses → 200: the answer cannot be read: Address "data" is not an object',
        ),
      }),
    );
  });
});
