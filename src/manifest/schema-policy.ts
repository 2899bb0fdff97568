import type { Schema } from './schema-envelope.js';

/**
 * The schema of Policy documents (docs/policies.md), written by hand: a policy is no kind of
 * the table, so no field table says its form. schema-generate.ts writes it to
 * `schemas/policy.schema.json` (with the document kind and file from src/kinds/policy.ts).
 */
export const POLICY_SCHEMA: Schema = {
  description:
    'Plan-time rules reviewed in git: limits, required fields, references, forbidden actions and change thresholds, checked by every plan (docs/policies.md).',
  type: 'object',
  properties: {
    apiVersion: {
      $ref: 'definitions.schema.json#/$defs/apiVersion',
    },
    kind: {
      description: 'The kind of this document.',
    },
    metadata: {
      description: "The policy's name.",
      type: 'object',
      properties: {
        name: {
          description: 'Policy name; unique among the policies of the manifest set.',
          $ref: 'definitions.schema.json#/$defs/name',
        },
        description: {
          description: 'What the policy is for (not checked).',
          type: 'string',
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    spec: {
      description: 'The rules.',
      type: 'object',
      properties: {
        rules: {
          description: 'The rules of the policy, each with exactly one check.',
          type: 'array',
          minItems: 1,
          items: {
            $ref: '#/$defs/rule',
          },
        },
      },
      required: ['rules'],
      additionalProperties: false,
    },
  },
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  additionalProperties: false,
  $defs: {
    rule: {
      description:
        "One rule: the objects it applies to (match) and exactly one check: limit, require, reference (on the declared objects), forbid or threshold (on the plan's changes), or coverage (on the Emergency coverage section).",
      type: 'object',
      properties: {
        id: {
          description:
            "The rule's id, unique in the manifest set: violations name it, and --allow-policy ID overrides it for one plan.",
          type: 'string',
          pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
        },
        description: {
          description: 'Why the rule exists; shown with each violation.',
          type: 'string',
        },
        severity: {
          description: 'error (default): a violation refuses the plan (exit 3); warning: it is reported only.',
          enum: ['error', 'warning'],
        },
        match: {
          $ref: '#/$defs/match',
        },
        limit: {
          $ref: '#/$defs/limit',
        },
        require: {
          $ref: '#/$defs/require',
        },
        reference: {
          $ref: '#/$defs/reference',
        },
        forbid: {
          $ref: '#/$defs/forbid',
        },
        replacedBy: {
          $ref: '#/$defs/replacedBy',
        },
        threshold: {
          $ref: '#/$defs/threshold',
        },
        coverage: {
          $ref: '#/$defs/coverage',
        },
      },
      required: ['id', 'match'],
      dependentRequired: { replacedBy: ['forbid'] },
      oneOf: [
        {
          properties: {
            limit: true,
          },
          required: ['limit'],
        },
        {
          properties: {
            require: true,
          },
          required: ['require'],
        },
        {
          properties: {
            reference: true,
          },
          required: ['reference'],
        },
        {
          properties: {
            forbid: true,
          },
          required: ['forbid'],
        },
        {
          properties: {
            threshold: true,
          },
          required: ['threshold'],
        },
        {
          properties: {
            coverage: true,
          },
          required: ['coverage'],
        },
      ],
      additionalProperties: false,
    },
    match: {
      description:
        'The objects the rule applies to: a kind, and optionally a routing table, an address pattern and field values.',
      type: 'object',
      properties: {
        kind: {
          description:
            'A kind of object (Tenant, Subscription, Entitlement, …, or RoutingRow for the rows of routing tables).',
          type: 'string',
          pattern: '^[A-Z][A-Za-z]*$',
        },
        table: {
          description: 'RoutingRow only: the rows of this table, service/version/table (draas/active/routes).',
          type: 'string',
          pattern: '^[A-Za-z0-9_-]+/(active|standby)/[A-Za-z0-9_-]+$',
        },
        address: {
          description: 'Only objects at this address or below it; a trailing * matches by prefix (tenant/acme-*).',
          type: 'string',
          minLength: 1,
        },
        where: {
          description:
            'Only objects whose fields have these values: a value (equality), or {in: [...]}, {not: value} or {pattern: regex}.',
          type: 'object',
          minProperties: 1,
          additionalProperties: {
            $ref: '#/$defs/condition',
          },
        },
      },
      required: ['kind'],
      additionalProperties: false,
    },
    scalar: {
      description: 'A string, number, boolean or null.',
      type: ['string', 'number', 'boolean', 'null'],
    },
    condition: {
      description:
        'A value the field must equal, or one test: in (one of the values), not (any value but this one), pattern (a regular expression the value, as text, matches).',
      oneOf: [
        {
          $ref: '#/$defs/scalar',
        },
        {
          type: 'object',
          properties: {
            in: {
              description: 'One of these values.',
              type: 'array',
              minItems: 1,
              items: {
                $ref: '#/$defs/scalar',
              },
            },
            not: {
              $ref: '#/$defs/scalar',
            },
            pattern: {
              description:
                'A regular expression (RE2 syntax: no backreferences, no lookaround) the value, as text, must match.',
              type: 'string',
              minLength: 1,
            },
          },
          minProperties: 1,
          maxProperties: 1,
          additionalProperties: false,
        },
      ],
    },
    limit: {
      description:
        'A numeric field (or capacity figure: headroom, assigned, reserved), or the count of a child collection, must stay within min and max.',
      type: 'object',
      properties: {
        field: {
          description:
            "The field (entitlement), or a capacity figure of the plan's Capacity section: headroom, assigned, reserved.",
          type: 'string',
          minLength: 1,
        },
        count: {
          description: 'The declared children of this collection (entitlements, addresses, numbers, …), counted.',
          type: 'string',
          minLength: 1,
        },
        min: {
          description: 'The smallest value allowed.',
          type: 'number',
        },
        max: {
          description: 'The largest value allowed.',
          type: 'number',
        },
      },
      allOf: [
        {
          oneOf: [
            {
              properties: {
                field: true,
              },
              required: ['field'],
            },
            {
              properties: {
                count: true,
              },
              required: ['count'],
            },
          ],
        },
        {
          anyOf: [
            {
              properties: {
                min: true,
              },
              required: ['min'],
            },
            {
              properties: {
                max: true,
              },
              required: ['max'],
            },
          ],
        },
      ],
      additionalProperties: false,
    },
    require: {
      description: 'A field must be declared (present, the default), match a pattern, or be one of some values.',
      type: 'object',
      properties: {
        field: {
          description: 'The field.',
          type: 'string',
          minLength: 1,
        },
        present: {
          description: 'true (default): the manifest must declare the field, not null; false: it must not.',
          type: 'boolean',
        },
        pattern: {
          description:
            'A regular expression (RE2 syntax: no backreferences, no lookaround) the value, as text, must match.',
          type: 'string',
          minLength: 1,
        },
        oneOf: {
          description: 'The value must be one of these.',
          type: 'array',
          minItems: 1,
          items: {
            $ref: '#/$defs/scalar',
          },
        },
      },
      required: ['field'],
      additionalProperties: false,
    },
    reference: {
      description:
        "A field's value must exist as a key of a routing table's rows, or as a field of a declared or live object of a kind.",
      type: 'object',
      properties: {
        field: {
          description: 'The field holding the reference.',
          type: 'string',
          minLength: 1,
        },
        table: {
          description:
            'A routing table, service/version/table: its declared rows (read live when no manifest declares it).',
          type: 'string',
          pattern: '^[A-Za-z0-9_-]+/(active|standby)/[A-Za-z0-9_-]+$',
        },
        kind: {
          description: 'A kind: the declared objects of it and the live ones.',
          type: 'string',
          pattern: '^[A-Z][A-Za-z]*$',
        },
        key: {
          description: "The field of the table's rows, or of the kind's objects, that the value must equal.",
          type: 'string',
          minLength: 1,
        },
      },
      required: ['field', 'key'],
      oneOf: [
        {
          properties: {
            table: true,
          },
          required: ['table'],
        },
        {
          properties: {
            kind: true,
          },
          required: ['kind'],
        },
      ],
      additionalProperties: false,
    },
    forbid: {
      description: 'Actions the plan may not take on the matched objects.',
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: {
        enum: ['create', 'update', 'delete', 'replace'],
      },
    },
    replacedBy: {
      description:
        "With forbid: [replace], only the replaces these fields force (a change of one of them the API cannot make, e.g. a subscription's uc): other replaces pass.",
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', minLength: 1 },
    },
    threshold: {
      description:
        "The plan may update (or delete) at most this share of the kind's live objects in scope (of the table's rows for RoutingRow with table), once at least min of them exist.",
      type: 'object',
      properties: {
        update: {
          $ref: '#/$defs/percent',
        },
        delete: {
          $ref: '#/$defs/percent',
        },
        min: {
          description: 'Checked only when at least this many live objects are in scope (default 10).',
          type: 'integer',
          minimum: 0,
        },
      },
      anyOf: [
        {
          properties: {
            update: true,
          },
          required: ['update'],
        },
        {
          properties: {
            delete: true,
          },
          required: ['delete'],
        },
      ],
      additionalProperties: false,
    },
    coverage: {
      description:
        "Bounds on the Emergency coverage of the matched subscriptions (the plan reads it for such a rule, docs/assurance.md): at most this many (a violation of the rule's severity), or warn (any is a warning).",
      type: 'object',
      properties: {
        numbersWithoutAddress: {
          description: 'Numbers without an emergency address once the plan is applied.',
          $ref: '#/$defs/coverageBound',
        },
        unverified: {
          description: 'Numbers whose emergency address the platform has not verified (or does not say).',
          $ref: '#/$defs/coverageBound',
        },
        unusedAddresses: {
          description: 'Addresses linked to no number.',
          $ref: '#/$defs/coverageBound',
        },
      },
      minProperties: 1,
      additionalProperties: false,
    },
    coverageBound: {
      oneOf: [{ type: 'integer', minimum: 0 }, { const: 'warn' }],
    },
    percent: {
      description: 'A share of the live objects in scope: 20% (or the number 20), from 0 to 100.',
      type: ['number', 'string'],
      minimum: 0,
      maximum: 100,
      pattern: '^(100(\\.0+)?|[0-9]{1,2}(\\.[0-9]+)?)%$',
    },
  },
};
