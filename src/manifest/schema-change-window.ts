import type { Schema } from './schema-envelope.js';

/**
 * The schema of ChangeWindow documents (docs/assurance.md "Change windows"), written by
 * hand: a window is no kind of the table. schema-generate.ts writes it to `schemas/change-window.schema.json`
 * with the document kind and file from src/kinds/change-window.ts.
 */
export const CHANGE_WINDOW_SCHEMA: Schema = {
  description:
    'When the objects of a scope may change: weekly windows in a named time zone, and freezes. apply refuses a change outside every window that covers it, unless --emergency-change (docs/assurance.md).',
  type: 'object',
  properties: {
    apiVersion: { $ref: 'definitions.schema.json#/$defs/apiVersion' },
    kind: { description: 'The kind of this document.' },
    metadata: {
      description: "The window's name.",
      type: 'object',
      properties: {
        name: {
          description: 'Window name; unique among the ChangeWindow documents of the manifest set; refusals name it.',
          $ref: 'definitions.schema.json#/$defs/name',
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    spec: {
      description: 'The scope, the time zone, the weekly windows and the freezes.',
      type: 'object',
      properties: {
        timeZone: {
          description: 'An IANA time zone (Europe/Brussels): the windows and freezes are its wall-clock times.',
          type: 'string',
          minLength: 1,
        },
        scope: {
          description:
            'The changes the window covers: each criterion given must hold (none: every change); each lists alternatives.',
          type: 'object',
          properties: {
            addresses: {
              description: 'Address patterns (a trailing * matches by prefix), as --target.',
              type: 'array',
              minItems: 1,
              items: { type: 'string', minLength: 1 },
            },
            kinds: {
              description: 'Kinds of the changed objects (Tenant, Address, RoutingRow, …).',
              type: 'array',
              minItems: 1,
              items: { type: 'string', minLength: 1 },
            },
            tables: {
              description: 'Routing tables whose rows it covers: <service>/<version>/<table>.',
              type: 'array',
              minItems: 1,
              items: { type: 'string', pattern: '^[A-Za-z0-9_-]+/(active|standby)/[A-Za-z0-9_-]+$' },
            },
          },
          additionalProperties: false,
        },
        windows: {
          description:
            'Weekly windows: days then HH:MM-HH:MM, an end at or before the start closing the next day (Tue,Thu 22:00-02:00; Mon-Fri 20:00-06:00), optionally another IANA zone at the end. Without windows the scope may change any time but in a freeze.',
          type: 'array',
          minItems: 1,
          items: { type: 'string', minLength: 1 },
        },
        freezes: {
          description: 'Periods in which nothing in scope may change, whatever the windows say.',
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              from: {
                description: 'The first day (YYYY-MM-DD, from its start) or an instant (YYYY-MM-DDTHH:MM).',
                type: 'string',
              },
              to: {
                description: 'The last day (YYYY-MM-DD, to its end) or the instant it ends (YYYY-MM-DDTHH:MM).',
                type: 'string',
              },
              reason: { description: 'Why (shown with the refusals).', type: 'string' },
            },
            required: ['from', 'to'],
            additionalProperties: false,
          },
        },
      },
      required: ['timeZone'],
      additionalProperties: false,
    },
  },
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  additionalProperties: false,
};
