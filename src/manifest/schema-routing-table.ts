import type { Schema } from './schema-envelope.js';

/**
 * The schema of RoutingTable documents (Document 3), written by hand: a routing table's
 * columns are the engine's data model, not a field table. schema-generate.ts writes it to
 * `schemas/routing-table.schema.json` (with the document kind and file from
 * src/kinds/routing-table.ts).
 */
export const ROUTING_TABLE_SCHEMA: Schema = {
  description: 'The rows of one routing-engine table (Doc 3). Rows are identified by their key fields.',
  type: 'object',
  properties: {
    apiVersion: {
      $ref: 'definitions.schema.json#/$defs/apiVersion',
    },
    kind: {
      description: 'The kind of this document.',
    },
    metadata: {
      description: 'The table: data-model service, version and table name.',
      type: 'object',
      properties: {
        name: {
          description: 'Table name in the data model.',
          type: 'string',
          pattern: '^[A-Za-z0-9_-]+$',
        },
        service: {
          description: 'Data-model (service) name.',
          type: 'string',
          pattern: '^[A-Za-z0-9_-]+$',
        },
        version: {
          description: 'Data-model version to access: active or standby.',
          enum: ['active', 'standby'],
        },
        prune: {
          $ref: 'definitions.schema.json#/$defs/prune',
        },
        protect: {
          $ref: 'definitions.schema.json#/$defs/protect',
        },
      },
      required: ['name', 'service', 'version'],
      additionalProperties: false,
    },
    spec: {
      description: 'The desired rows.',
      type: 'object',
      properties: {
        key: {
          description: 'The fields that identify a row.',
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: {
            $ref: '#/$defs/fieldName',
          },
        },
        fields: {
          description:
            'Optional type hints for CSV cells (and checks for inline records): field name to string, integer, number or boolean.',
          type: 'object',
          propertyNames: {
            $ref: '#/$defs/fieldName',
          },
          additionalProperties: {
            enum: ['string', 'integer', 'number', 'boolean'],
          },
        },
        records: {
          description: 'Inline rows: field name to value.',
          type: 'array',
          items: {
            $ref: '#/$defs/record',
          },
        },
        recordsFrom: {
          description:
            'A CSV file of rows, relative to this manifest; the header row holds the field names; combined with records.',
          type: 'string',
          minLength: 1,
        },
      },
      required: ['key'],
      additionalProperties: false,
    },
  },
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  additionalProperties: false,
  $defs: {
    fieldName: {
      description: 'A field (column) name of the table.',
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
    },
    record: {
      description: 'One row: field name to a scalar value.',
      type: 'object',
      propertyNames: {
        $ref: '#/$defs/fieldName',
      },
      additionalProperties: {
        type: ['string', 'number', 'boolean', 'null'],
      },
    },
  },
};
