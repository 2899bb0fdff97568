import { NAME } from './common-fields.js';
import { bodyFromFields, fieldsFromApi, pathId, updatableBody } from './fields.js';
import type { FieldSpec, KindDefinition, LiveObject, KindContext } from './types.js';
import { compareKeys } from '../core/canonical-json.js';

const groupProducts = (ctx: KindContext, ids: Readonly<Record<string, string>>): string =>
  `${ctx.P}/groups/${pathId(ids, 'Group')}/products`;

/** Items are compared as a set: the API keeps no order we rely on. */
function normalizeItems(items: unknown): unknown {
  if (!Array.isArray(items)) return items;
  return items
    .map((item: Record<string, unknown>) => {
      const out: Record<string, unknown> = { type: item['type'], quantity: Number(item['quantity'] ?? 0) };
      if (item['subType'] != null) out['subType'] = item['subType'];
      if (item['id'] != null) out['id'] = Number(item['id']);
      return out;
    })
    .sort((a, b) => compareKeys(JSON.stringify(a), JSON.stringify(b)));
}

const fields: readonly FieldSpec[] = [
  {
    name: 'sku',
    change: 'replace',
    type: 'string',
    doc: 'Unique product identifier; identity of the product.',
    manifest: NAME,
  },
  { name: 'name', change: 'update', type: 'string', doc: 'Product name.', manifest: { required: true, minLength: 1 } },
  {
    name: 'description',
    change: 'update',
    type: 'string',
    doc: 'Product description; null removes it.',
    manifest: { nullable: true },
  },
  {
    name: 'status',
    change: 'update',
    type: 'string',
    doc: 'enabled (default) or disabled.',
    manifest: { enum: ['enabled', 'disabled'] },
  },
  {
    name: 'items',
    change: 'update',
    type: 'set',
    normalize: normalizeItems,
    elements: { type: 'string', subType: 'string?', id: 'integer?', quantity: 'integer' },
    doc: 'Items of the product (the complete list).',
    manifest: {
      shape: {
        def: 'productItem',
        doc: 'A product item (Doc 2 §2.12, detail view).',
        fields: {
          type: { doc: 'license or entitlement.', enum: ['license', 'entitlement'] },
          subType: {
            doc: 'Licenses only: ucAlphaUsers or sipTrunkChannels.',
            enum: ['ucAlphaUsers', 'sipTrunkChannels'],
          },
          id: { doc: 'Entitlements only: the entitlement type id (reference into the numbers system).', minimum: 0 },
          quantity: { doc: 'Quantity of the item.', minimum: 0 },
        },
      },
    },
  },
];

/**
 * Doc 2 §2.12, §4.11: a group's products, identified by sku. PUT replaces the whole item
 * list. The API has no delete (and no way to tell which products are in use).
 */
export const productKind: KindDefinition = {
  kind: 'Product',
  parentKinds: ['Group'],
  collection: 'products',
  manifest: {
    noun: 'product',
    collectionDoc: 'Products of the group (Doc 2 §2.12).',
    doc: 'A product of the group, identified by its sku. The complete item list is sent on update: new items are added, existing modified, missing removed.',
    identity: ['sku'],
    refused: {
      id: { why: '`id` is assigned by the platform; a product is identified by its `sku`', readOnly: true },
      resources: { why: '`resources` is a read view; declare `items`', readOnly: true },
    },
  },
  contract: {
    sample: {
      sku: 'KIND-PRD',
      name: 'Contract product',
      status: 'enabled',
      items: [{ type: 'license', subType: 'ucAlphaUsers', quantity: 1 }],
    },
    update: { name: 'Contract product 2', items: [{ type: 'license', subType: 'ucAlphaUsers', quantity: 2 }] },
  },
  fields,
  cannotDelete: 'the platform API cannot delete products (Doc 2 §4.11); disable it with status: disabled',
  identity: (f) => String(f['sku']),
  address: (parent, identity) => `${parent}/product/${identity}`,
  list: (parent, ctx) => parent && { path: groupProducts(ctx, parent.ids), itemsKey: 'products', style: 'token' },
  detail: {
    listed: ['sku', 'name', 'description', 'status'],
    request: (live, ctx) => ({
      method: 'GET',
      path: `${ctx.P}/public/products/${pathId(live.ids, 'Product')}`,
      query: { parent: live.ids['Group'] ?? '' },
    }),
  },
  fromApi: (item) => ({ id: String(item['id']), fields: fieldsFromApi(fields, item) }),
  createdId: { from: 'body', field: 'id' },
  create: (desired, parent, ctx) => [
    {
      method: 'POST',
      path: groupProducts(ctx, parent?.ids ?? {}),
      role: 'groups.instance.product.create',
      body: bodyFromFields(fields, desired.fields),
    },
  ],
  update: (desired, live: LiveObject, ctx) => [
    {
      method: 'PUT',
      path: `${groupProducts(ctx, live.ids)}/${pathId(live.ids, 'Product')}`,
      role: 'groups.instance.product.instance.update',
      body: updatableBody(fields, desired.fields),
    },
  ],
};
