import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests, schemaSet, SCHEMAS_DIR } from '../../src/manifest/index.js';
import { readSchema } from '../../src/manifest/schemas.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Every `properties` entry of a schema tree, with its path. */
function properties(
  node: unknown,
  at: string,
  out: [string, Record<string, unknown>][] = [],
): [string, Record<string, unknown>][] {
  if (node === null || typeof node !== 'object') return out;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, prop] of Object.entries(value)) {
        if (typeof prop === 'object' && prop !== null)
          out.push([`${at}/properties/${name}`, prop as Record<string, unknown>]);
      }
    }
    properties(value, `${at}/${key}`, out);
  }
  return out;
}

describe('schemas/', () => {
  it('compiles every schema in ajv strict mode, each valid against the JSON Schema 2020-12 meta-schema', () => {
    // The CLI skips the meta-schema check at start (38 ms): this test is what keeps the schemas valid.
    const { validators, ajv } = schemaSet({ validateSchema: true });
    expect(ajv.opts.strict).toBe(true);
    expect(Object.keys(validators).sort()).toEqual([
      'Baseline',
      'ChangeWindow',
      'Group',
      'Policy',
      'Reseller',
      'RoutingTable',
      'RoutingTest',
      'Tenant',
    ]);
    for (const validate of Object.values(validators)) expect(validate).toBeTypeOf('function');
    expect(ajv.getSchema('manifest.schema.json')).toBeTypeOf('function');
    const broken = { ...readSchema('group.schema.json'), $id: 'broken.schema.json', type: 'mapping' };
    expect(() => ajv.addSchema(broken)).toThrow(/schema is invalid/);
  });

  it('has a description on every property (hover help), from a $ref target or its own', () => {
    const files = readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith('.schema.json'));
    expect(files).toHaveLength(11);
    const missing: string[] = [];
    for (const file of files) {
      for (const [where, prop] of properties(readSchema(file), file)) {
        if (where.includes('/if/')) continue; // conditions, not fields
        const ref = typeof prop['$ref'] === 'string' ? prop['$ref'] : undefined;
        if (typeof prop['description'] !== 'string' && !ref) missing.push(where);
      }
    }
    expect(missing).toEqual([]);
  });

  it('closes every object the API has a fixed field set for (additionalProperties: false)', () => {
    const tenant = readSchema('tenant.schema.json') as { $defs: Record<string, { additionalProperties?: unknown }> };
    for (const def of [
      'subscription',
      'entitlement',
      'address',
      'location',
      'template',
      'trunkGroup',
      'numberAddressLink',
    ]) {
      expect(tenant.$defs[def]?.additionalProperties, def).toBe(false);
    }
  });

  it('every example validates', async () => {
    const { diagnostics, files, set } = await loadManifests(['examples'], { cwd: root, env: {} });
    expect(diagnostics).toEqual([]);
    expect(files.filter((f) => f.endsWith('.yaml')).length).toBeGreaterThanOrEqual(6);
    expect(set.routingTables[0]?.rows.length).toBeGreaterThan(1000);
  });

  it('marks write-only and immutable fields, and refuses read-only ones', () => {
    const property = (file: string, def: string, name: string) =>
      (readSchema(file) as { $defs: Record<string, { properties: Record<string, Record<string, unknown>> }> }).$defs[
        def
      ]?.properties[name] ?? {};
    expect(property('definitions.schema.json', 'administrator', 'firstName')).toMatchObject({ writeOnly: true });
    expect(property('definitions.schema.json', 'administrator', 'firstName')['x-immutable']).toBeUndefined();
    expect(property('tenant.schema.json', 'entitlement', 'externalReference')['writeOnly']).toBe(true);
    expect(property('tenant.schema.json', 'subscription', 'uc')['x-immutable']).toBe(true);
    expect(property('definitions.schema.json', 'callingPlan', 'country')['x-immutable']).toBe(true);
    expect(property('definitions.schema.json', 'callingPlan', 'name')['x-immutable']).toBeUndefined();
    expect(property('tenant.schema.json', 'subscription', 'licenses')['x-ignored']).toMatch(/changed by orders/);
  });
});
