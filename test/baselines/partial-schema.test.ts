/**
 * `schemas/tenant.partial.schema.json`, what an editor checks a tenant that baselines select
 * with: valid in ajv's strict mode, it takes an item that holds only its identity and the
 * field it overrides, which the full schema (what validate uses) refuses; it still refuses
 * what no tenant may hold, and an entitlement still needs its type or typeId.
 */
import { describe, expect, it } from 'vitest';
import { readSchema, schemaSet } from '../../src/manifest/schemas.js';

const tenant = (entitlement: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'switchboard/v1',
  kind: 'Tenant',
  metadata: {
    name: 'acme',
    reseller: 'north',
    overrides: [{ path: 'spec.subscriptions[main].templates[TPL-STD].vrp', reason: 'contract 2026-114' }],
  },
  spec: {
    subscriptions: [{ name: 'main', templates: [{ sku: 'TPL-STD', vrp: 'vrp-std2' }], entitlements: [entitlement] }],
    ...extra,
  },
});

describe('the partial tenant schema', () => {
  it('takes what the full one refuses for want of fields a baseline gives, and nothing else', () => {
    const { ajv, validators } = schemaSet({ validateSchema: true });
    const partial = ajv.compile(readSchema('tenant.partial.schema.json'));
    const full = validators.Tenant as NonNullable<typeof validators.Tenant>;
    const partialItems = tenant({ type: 'BE geo', entitlement: 12 });
    expect(partial(partialItems), JSON.stringify(partial.errors)).toBe(true);
    expect(full(partialItems)).toBe(false);
    expect(full.errors?.map((e) => e.params)).toContainEqual({ missingProperty: 'name' });
    expect(partial(tenant({ entitlement: 12 }))).toBe(false);
    expect(partial(tenant({ type: 'BE geo' }, { markupp: 1 }))).toBe(false);
  });
});
