import { describe, expect, it } from 'vitest';
import { brandingKind } from '../../src/kinds/branding.js';
import { enabledUcKind } from '../../src/kinds/enabled-uc.js';
import type { ListSpec, LiveParts } from '../../src/kinds/types.js';
import { liveShapeProblem } from '../../src/state/item-shape.js';
import { fetchListItems } from '../../src/state/list-items.js';
import { productKind } from '../../src/kinds/product.js';
import { normalizeField } from '../../src/kinds/fields.js';
import { kinds } from '../../src/kinds/index.js';
import { P, child, ctx } from './context.js';

const group = { kind: 'Group', address: 'group/g', id: 'g-1', ids: { Group: 'g-1' }, fields: {} };

describe('Product (Doc2 §2.12, §4.11)', () => {
  it('has no delete endpoint (said plainly) and compares items as a set, whatever the spelling', () => {
    expect(productKind.delete).toBeUndefined();
    expect(productKind.cannotDelete).toMatch(/cannot delete products/);
    const items = productKind.fields.find((f) => f.name === 'items')!;
    const declared = [
      { type: 'entitlement', id: 1, quantity: 5 },
      { type: 'license', subType: 'ucAlphaUsers', quantity: 1 },
    ];
    const live = [
      { type: 'license', subType: 'ucAlphaUsers', quantity: '1' },
      { type: 'entitlement', id: '1', quantity: 5 },
    ];
    expect(normalizeField(items, declared)).toEqual(normalizeField(items, live));
  });

  it('reads items through the product detail (the list view lacks them)', () => {
    const live = child(group, 'Product', '7', 'group/g/product/PRD', {});
    expect(productKind.detail?.request(live, ctx)).toEqual({
      method: 'GET',
      path: `${P}/public/products/7`,
      query: { parent: 'g-1' },
    });
  });
});

describe('Branding (Doc1 §2.10, §4.2)', () => {
  it('reads each type with one GET (404 = never written) and writes with PUT pages', async () => {
    const lists = brandingKind.list?.(group, ctx);
    expect(Array.isArray(lists) && lists.map((l) => l.query?.['type'])).toEqual(['font', 'image', 'theme']);
    const [put] = await brandingKind.create!(
      {
        kind: 'Branding',
        address: 'group/g/branding/font',
        fields: { type: 'font', name: 'Inter', allowed: ['Inter'] },
      },
      { kind: 'Group', ids: group.ids },
      ctx,
    );
    expect(put).toEqual({
      method: 'PUT',
      path: `${P}/groups/g-1/configurations/pages`,
      role: 'groups.instance.configurations.branding.pages.update',
      body: { type: 'font', name: 'Inter', allowed: ['Inter'] },
    });
  });
});

describe('EnabledUc (Doc1 §4.2)', () => {
  it("lists the group's enabled UC platforms, an array of strings, one object per platform; nothing writes them", async () => {
    const spec = enabledUcKind.list?.(group, ctx);
    expect(spec).toEqual({
      path: `${P}/groups/g-1/enabled_ucs`,
      itemsKey: 'enabled_ucs',
      style: 'none',
      role: 'groups.instance.enabled_ucs.list',
      scalarItems: 'uc',
    });
    const client = {
      listPages: async <T>() => ['uc_alpha', 'uc_beta', { bad: true }] as T[],
      request: async <T>() => ({ status: 200, body: undefined as T }),
    };
    const items = await fetchListItems(client, spec as ListSpec);
    expect(items).toEqual([{ uc: 'uc_alpha' }, { uc: 'uc_beta' }, { bad: true }]);
    const [alpha] = items.map((item) => enabledUcKind.fromApi(item, ctx, group) as LiveParts);
    expect(alpha).toEqual({ id: 'uc_alpha', fields: { uc: 'uc_alpha' } });
    // What is not a string cannot be a platform: the read fails as a misread answer.
    const misread = enabledUcKind.fromApi(items[2] as Record<string, unknown>, ctx, group) as LiveParts;
    expect(liveShapeProblem(enabledUcKind, items[2], misread)).toMatch(/identity cannot be formed/);
    expect(enabledUcKind.address('group/g', 'uc_alpha')).toBe('group/g/enabled_uc/uc_alpha');
    expect([enabledUcKind.create, enabledUcKind.update, enabledUcKind.delete]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(enabledUcKind.cannotDelete).toMatch(/cannot disable/);
  });
});

describe('the kind table', () => {
  it('names every parent kind it refers to, and parents come before their children', () => {
    const order = kinds.map((k) => k.kind);
    for (const kind of kinds) {
      for (const parent of kind.parentKinds) {
        if (parent === 'Distributor') continue; // reachable by uuid only
        expect(order, `${kind.kind} → ${parent}`).toContain(parent);
        expect(order.indexOf(parent), `${parent} before ${kind.kind}`).toBeLessThan(order.indexOf(kind.kind));
      }
    }
  });

  it('every writable kind declares where a created id comes from', () => {
    for (const kind of kinds) if (kind.create) expect(kind.createdId, kind.kind).toBeDefined();
  });
});
