import { describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';
import type { FieldSpec, KindDefinition } from '../../src/kinds/types.js';
import { schemaSet } from '../../src/manifest/index.js';
import { disagreements } from './schema-agreement.js';

/** The kind table with one field of one kind changed. */
function withField(
  kindName: string,
  fieldName: string,
  change: (spec: FieldSpec) => FieldSpec | undefined,
): KindDefinition[] {
  return kinds.map((kind) => {
    if (kind.kind !== kindName) return kind;
    const fields = kind.fields.flatMap((spec) => {
      if (spec.name !== fieldName) return [spec];
      const changed = change(spec);
      return changed ? [changed] : [];
    });
    return { ...kind, fields };
  });
}

type Json = Record<string, unknown>;

/** A deep copy of the schemas with one edit. */
function schemasWith(edit: (schemas: Json) => void): Json {
  const copy = structuredClone(schemaSet().schemas) as Json;
  edit(copy);
  return copy;
}

/** The node at a path of keys. */
function nodeAt(root: Json, ...path: string[]): Json {
  return path.reduce<Json>((node, key) => node[key] as Json, root);
}

describe('schemas/*.json and the kind table', () => {
  it('agree on every field: existence, type, x-immutable/writeOnly/x-sensitive/x-ignored traits', () => {
    expect(disagreements(kinds, schemaSet().schemas)).toEqual([]);
  });

  it('fail on a trait of one side only, naming the kind, the field and what disagrees', () => {
    expect(
      disagreements(
        withField('Subscription', 'uc', (s) => ({ ...s, change: 'update' })),
        schemaSet().schemas,
      ),
    ).toEqual([
      "Subscription.uc: the schema (tenant.schema.json#/$defs/subscription/properties/uc) marks it x-immutable, the field table says change 'update'",
    ]);
    expect(
      disagreements(
        withField('Entitlement', 'externalReference', (s) => ({ ...s, change: 'update' })),
        schemaSet().schemas,
      ),
    ).toEqual([
      "Entitlement.externalReference: the schema (tenant.schema.json#/$defs/entitlement/properties/externalReference) marks it writeOnly, the field table says change 'update'",
    ]);
    expect(
      disagreements(
        withField('Administrator', 'mobile', (s) => ({ ...s, sensitive: true })),
        schemaSet().schemas,
      ),
    ).toEqual([
      'Administrator.mobile: the schema (definitions.schema.json#/$defs/admin/properties/mobile) does not mark it x-sensitive, the field table marks it sensitive',
    ]);
    expect(
      disagreements(
        withField('Template', 'voiceEnabled', (s) => ({ ...s, change: 'update' })),
        schemaSet().schemas,
      ),
    ).toEqual([
      "Template.voiceEnabled: the schema (tenant.schema.json#/$defs/template/properties/voiceEnabled) refuses it (x-ignored/readOnly), the field table says change 'update' (want 'readOnly')",
    ]);
    const country = schemasWith(
      (s) =>
        delete nodeAt(s, 'definitions.schema.json', '$defs', 'callingPlan', 'properties', 'country')['x-immutable'],
    );
    expect(disagreements(kinds, country)).toEqual([
      "GroupCallingPlan.country: the schema (definitions.schema.json#/$defs/callingPlan/properties/country) does not mark it x-immutable, the field table says change 'replace'",
      "TrunkGroupBlockList.country: the schema (definitions.schema.json#/$defs/callingPlan/properties/country) does not mark it x-immutable, the field table says change 'replace'",
      "TrunkGroupAllowList.country: the schema (definitions.schema.json#/$defs/callingPlan/properties/country) does not mark it x-immutable, the field table says change 'replace'",
    ]);
  });

  it('fail on a field or a property of one side only, and on a type', () => {
    expect(
      disagreements(
        withField('Location', 'postbox', () => undefined),
        schemaSet().schemas,
      ),
    ).toEqual([
      'Location.postbox: the schema (tenant.schema.json#/$defs/location) declares it, the kind table has no such field, collection or CSV source',
    ]);
    expect(
      disagreements(
        withField('Tenant', 'markup', (s) => ({ ...s, name: 'markUp' })),
        schemaSet().schemas,
      ),
    ).toEqual([
      'Tenant.markUp: in the field table, not in the schema (tenant.schema.json#/properties/spec)',
      'Tenant.markup: the schema (tenant.schema.json#/properties/spec) declares it, the kind table has no such field, collection or CSV source',
    ]);
    expect(
      disagreements(
        withField('Tenant', 'markup', (s) => ({ ...s, type: 'integer' })),
        schemaSet().schemas,
      ),
    ).toEqual([
      "Tenant.markup: the field table says type 'integer', the schema (tenant.schema.json#/properties/spec/properties/markup) says number",
    ]);
    const items = schemasWith(
      (s) =>
        (nodeAt(s, 'group.schema.json', '$defs', 'productItem', 'properties')['quantity'] = {
          description: 'q',
          type: 'string',
        }),
    );
    expect(disagreements(kinds, items)).toEqual([
      'Product.items: "quantity" of its elements is integer in the field table, string in the schema (group.schema.json#/$defs/productItem/properties/quantity)',
    ]);
  });

  it('fail when a collection is missing from the schema or has another shape', () => {
    const numbers = schemasWith(
      (s) =>
        (nodeAt(s, 'tenant.schema.json', '$defs', 'subscription', 'properties')['numbers'] = {
          description: 'n',
          type: 'array',
          items: { type: 'string' },
        }),
    );
    expect(disagreements(kinds, numbers)).toEqual([
      'NumberAddressLink: the kind table keeps "numbers" as a map by identity, the schema (tenant.schema.json#/$defs/subscription/properties/numbers) does not',
      'NumberAddressLink: no document schema holds its collection "numbers"',
    ]);
    const noTemplates = schemasWith(
      (s) => delete nodeAt(s, 'tenant.schema.json', '$defs', 'subscription', 'properties')['templates'],
    );
    expect(disagreements(kinds, noTemplates)).toEqual([
      'Template: the collection "templates" of Subscription is not in the schema (tenant.schema.json#/$defs/subscription)',
      'Template: no document schema holds its collection "templates"',
    ]);
  });
});
