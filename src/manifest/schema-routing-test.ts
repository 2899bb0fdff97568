import type { Schema } from './schema-envelope.js';

/**
 * The schema of RoutingTest documents (docs/assurance.md "Routing tests"), written by
 * hand: a test is no kind of the table. schema-generate.ts writes it to `schemas/routing-test.schema.json` with
 * the document kind and file from src/kinds/routing-test.ts.
 */
export const ROUTING_TEST_SCHEMA: Schema = {
  description:
    'Test vectors over one routing-engine table: what a lookup must answer. Checked against the declared rows by validate and plan, against the live engine by verify and apply --verify (docs/assurance.md).',
  type: 'object',
  properties: {
    apiVersion: { $ref: 'definitions.schema.json#/$defs/apiVersion' },
    kind: { description: 'The kind of this document.' },
    metadata: {
      description: "The test's name.",
      type: 'object',
      properties: {
        name: {
          description: 'Test name; unique among the RoutingTest documents of the manifest set.',
          $ref: 'definitions.schema.json#/$defs/name',
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    spec: {
      description: 'The table, how it answers a lookup, and the vectors.',
      type: 'object',
      properties: {
        table: {
          description: 'The table: <service>/<version>/<table> (version active or standby).',
          type: 'string',
          pattern: '^[A-Za-z0-9_-]+/(active|standby)/[A-Za-z0-9_-]+$',
        },
        match: {
          description:
            'How the table answers: exact (the row whose key equals the lookup) or longest-prefix(<column>) (the row whose <column>, a key field, is the longest prefix of the number looked up). Default exact.',
          type: 'string',
          pattern: '^(exact|longest-prefix\\([A-Za-z_][A-Za-z0-9_]*\\))$',
        },
        vectors: {
          description: 'The vectors, each a lookup and what must answer it.',
          type: 'array',
          items: { $ref: '#/$defs/vector' },
        },
        vectorsFrom: {
          description:
            'A CSV file of vectors, relative to this manifest: lookup columns by field name, expect.<field> columns, and an optional expect column holding absent. Combined with vectors.',
          type: 'string',
          minLength: 1,
        },
      },
      required: ['table'],
      anyOf: [
        { properties: { vectors: true }, required: ['vectors'] },
        { properties: { vectorsFrom: true }, required: ['vectorsFrom'] },
      ],
      additionalProperties: false,
    },
  },
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  additionalProperties: false,
  $defs: {
    scalars: {
      description: 'Field name to value.',
      type: 'object',
      minProperties: 1,
      propertyNames: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    },
    vector: {
      description: 'One lookup and its expected answer.',
      type: 'object',
      properties: {
        lookup: {
          description:
            "What is looked up: the key fields (match exact), or the number (and the table's other key fields) for longest-prefix.",
          $ref: '#/$defs/scalars',
        },
        expect: {
          description:
            'absent: no row may answer; or the values the answering row must hold (compared as text; its other fields are not checked).',
          oneOf: [{ const: 'absent' }, { $ref: '#/$defs/scalars' }],
        },
      },
      required: ['lookup', 'expect'],
      additionalProperties: false,
    },
  },
};
