import { baselineKind } from '../kinds/baseline.js';
import type { KindDefinition } from '../kinds/types.js';
import {
  DEFINITIONS_FILE,
  ENVELOPE_DEFS,
  generatedComment,
  JSON_SCHEMA_DRAFT,
  orList,
  sharedRef,
  type Schema,
} from './schema-envelope.js';
import { defName, type KindSchemas } from './schema-kinds.js';

/**
 * The schema of Baseline documents (docs/baselines.md), made from the schema of the one
 * document kind that takes baselines (`DocumentForm.baselines`): its `spec` becomes the
 * baseline's `values`, every item definition below it copied with nothing required (a
 * baseline gives the fields it standardises), a `select` beside the identity of list items
 * (every item of the document that matches), and without what cannot be a standard of many
 * documents: CSV sources (paths are relative to one manifest), former names, and collections
 * whose identity is unique in the whole platform. schema-generate.ts writes it to
 * `schemas/baseline.schema.json`; editors complete and explain a baseline's values as they
 * do a tenant's.
 */

/** Kubernetes' label syntax: a key (an optional `prefix/`), a value of at most 63 characters. */
const LABEL_KEY_PATTERN = '^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$';
const LABEL_VALUE_PATTERN = '^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$';

const LABEL_VALUE: Schema = { type: 'string', maxLength: 63, pattern: LABEL_VALUE_PATTERN };

/** The document kind baselines apply to: the table must have exactly one. */
export function baselineTarget(kinds: readonly KindDefinition[]): KindDefinition {
  const targets = kinds.filter((k) => k.manifest.document?.baselines === true);
  if (targets.length !== 1)
    throw new Error(`kind table: ${targets.length} document kinds take baselines (DocumentForm.baselines); expected 1`);
  return targets[0] as KindDefinition;
}

/**
 * The document kinds a baseline may select the target's documents by (a tenant's reseller,
 * and the reseller's group): the target's ancestors that are document kinds, nearest first,
 * each with its selector key (`resellers`, `groups`).
 */
export function selectorKinds(kinds: readonly KindDefinition[]): { kind: KindDefinition; key: string }[] {
  const target = baselineTarget(kinds);
  const found: KindDefinition[] = [];
  const visit = (kind: KindDefinition): void => {
    for (const parentKind of kind.parentKinds) {
      const parent = kinds.find((k) => k.kind === parentKind);
      if (!parent?.manifest.document || found.includes(parent)) continue;
      found.push(parent);
      visit(parent);
    }
  };
  visit(target);
  return found.map((kind) => ({ kind, key: `${kind.manifest.noun}s` }));
}

/** `metadata.labels` and `metadata.overrides` of a document kind that takes baselines. */
export function baselineMetadataProperties(noun: string): Schema {
  return {
    labels: {
      description: `Labels of this ${noun}: what Baseline documents select by (spec.selector.labels). Keys and values as Kubernetes writes them.`,
      type: 'object',
      propertyNames: { title: 'label key', maxLength: 253, pattern: LABEL_KEY_PATTERN },
      additionalProperties: LABEL_VALUE,
    },
    overrides: {
      description: `Where this ${noun} differs from the baselines that select it, and why: a value that differs from a baseline's without an override here is an error, and an override that no longer differs is a warning.`,
      type: 'array',
      items: {
        description:
          'One difference from a baseline. path: spec.<field>, spec.<collection>[<identity>].<field>, … (the same path error messages and plans show).',
        type: 'object',
        properties: {
          path: {
            description:
              'The value or item that differs: spec.markup, spec.subscriptions[main].entitlements[BE geo].entitlement, spec.subscriptions[main].templates[TPL-STD].',
            type: 'string',
            minLength: 1,
            examples: ['spec.subscriptions[main].entitlements[BE geo].entitlement'],
          },
          reason: {
            description: 'Why it differs (a contract, a ticket): shown by explain, plans and the baseline report.',
            type: 'string',
            minLength: 1,
          },
          remove: {
            description:
              "True: the baseline's value or item at path is left out of this document (unmanaged), instead of being replaced by this document's.",
            type: 'boolean',
          },
        },
        required: ['path', 'reason'],
        additionalProperties: false,
      },
    },
  };
}

/** `schemas/baseline.schema.json`, from the generated schema of the kind baselines apply to. */
export function baselineSchema(kinds: readonly KindDefinition[], schemas: KindSchemas, documents: Schema[]): Schema {
  const target = baselineTarget(kinds);
  const file = schemas.schemaFileOf(target.kind);
  const document = documents.find((d) => d['$id'] === file);
  if (!document) throw new Error(`kind table: no schema made for ${target.kind}`);
  const copier = new PartialCopier(target, schemas, file, (document['$defs'] as Record<string, Schema>) ?? {});
  const spec = (document['properties'] as Record<string, Schema>)['spec'] as Schema;
  const values = copier.item(target, spec, file);
  values['description'] =
    `Values every selected ${target.manifest.noun} gets, written as its spec is. Fields are replaced; items of a collection merge with the ${target.manifest.noun}'s item of the same identity; an item with select instead of its identity applies to every item of the ${target.manifest.noun} that matches. A ${target.manifest.noun} that differs says so in metadata.overrides.`;
  const schema: Schema = {
    $schema: JSON_SCHEMA_DRAFT,
    $id: baselineKind.schema,
    $comment: generatedComment(`the kind table (src/kinds/) and src/manifest/schema-baseline.ts`),
    title: `switchboard ${baselineKind.kind}`,
    description: `A standard for many ${target.manifest.noun}s (docs/baselines.md): the ${target.manifest.noun}s it selects get its values, and say where they differ in metadata.overrides.`,
    type: 'object',
    properties: {
      apiVersion: { $ref: sharedRef('apiVersion') },
      kind: { description: 'The kind of this document.', const: baselineKind.kind },
      metadata: {
        description: "The baseline's name.",
        type: 'object',
        properties: {
          name: {
            description:
              'Baseline name; unique among the baselines of the manifest set. Plans and explain name it as the source of its values.',
            $ref: sharedRef('name'),
          },
          description: { description: 'What the standard is for (not checked).', type: 'string' },
        },
        required: ['name'],
        additionalProperties: false,
      },
      spec: {
        description: `Which ${target.manifest.noun}s the baseline selects, and the values they get.`,
        type: 'object',
        properties: { selector: selectorSchema(kinds, target), values },
        required: ['selector', 'values'],
        additionalProperties: false,
      },
    },
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
    additionalProperties: false,
    $defs: Object.fromEntries(copier.defs),
  };
  return schema;
}

function selectorSchema(kinds: readonly KindDefinition[], target: KindDefinition): Schema {
  const noun = target.manifest.noun;
  const properties: Schema = {};
  const keys: string[] = [];
  for (const { key } of selectorKinds(kinds)) {
    keys.push(key);
    properties[key] = {
      description: `${noun}s under one of these ${key}, by name (directly, or through a declared document in between).`,
      type: 'array',
      items: { $ref: sharedRef('name') },
      minItems: 1,
      uniqueItems: true,
    };
  }
  keys.push('labels');
  properties['labels'] = {
    description: `${noun}s whose metadata.labels match every entry: a value (equal), {in: [...]}, {notIn: [...]} (also when the label is absent) or {exists: true|false}.`,
    type: 'object',
    propertyNames: { title: 'label key', maxLength: 253, pattern: LABEL_KEY_PATTERN },
    additionalProperties: {
      anyOf: [
        LABEL_VALUE,
        {
          type: 'object',
          properties: {
            in: { description: 'The label is one of these values.', type: 'array', items: LABEL_VALUE, minItems: 1 },
            notIn: {
              description: 'The label is none of these values, or absent.',
              type: 'array',
              items: LABEL_VALUE,
              minItems: 1,
            },
            exists: { description: 'true: the label is present (any value); false: it is absent.', type: 'boolean' },
          },
          minProperties: 1,
          maxProperties: 1,
          additionalProperties: false,
        },
      ],
    },
  };
  return {
    description: `Which ${noun}s get the values: those that match every criterion given (${orList(keys)}); {} selects every ${noun} of the manifest set.`,
    type: 'object',
    properties,
    additionalProperties: false,
  };
}

type Ref = { file: string; name: string };

/** Copies the target's item definitions into the baseline's file, each made partial. */
class PartialCopier {
  readonly defs = new Map<string, Schema>();
  /** Item definitions by name: the kinds below the target (several kinds may share one definition). */
  private readonly itemKinds = new Map<string, KindDefinition>();
  private readonly sources: Record<string, Record<string, Schema>>;

  constructor(
    target: KindDefinition,
    private readonly schemas: KindSchemas,
    targetFile: string,
    targetDefs: Record<string, Schema>,
  ) {
    const visit = (kind: KindDefinition): void => {
      for (const child of schemas.children(kind)) {
        if (this.itemKinds.has(defName(child))) continue;
        this.itemKinds.set(defName(child), child);
        visit(child);
      }
    };
    visit(target);
    this.sources = {
      [targetFile]: targetDefs,
      [DEFINITIONS_FILE]: Object.fromEntries(schemas.defs.get(DEFINITIONS_FILE) ?? []),
    };
  }

  /** An item (or the spec) of `kind`, partial: no requirement, no CSV source, no former names. */
  item(kind: KindDefinition, node: Schema, file: string): Schema {
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'required' || key === 'oneOf') continue;
      out[key] = key === 'properties' ? this.properties(kind, value as Record<string, Schema>, file) : value;
    }
    return out;
  }

  private properties(kind: KindDefinition, properties: Record<string, Schema>, file: string): Schema {
    const children = new Map(this.schemas.children(kind).map((child) => [child.collection as string, child]));
    const csvKeys = new Set(this.schemas.children(kind).flatMap((child) => child.manifest.csv?.key ?? []));
    const out: Schema = {};
    for (const [name, property] of Object.entries(properties)) {
      if (csvKeys.has(name) || name === 'renamedFrom') continue;
      const child = children.get(name);
      if (child?.manifest.uniqueInPlatform) continue;
      out[name] = this.copy(property, file);
    }
    return out;
  }

  /** A node with its references turned into the baseline file's (envelope ones stay shared). */
  private copy(node: unknown, file: string): unknown {
    if (Array.isArray(node)) return node.map((v) => this.copy(v, file));
    if (node === null || typeof node !== 'object') return node;
    const out: Schema = {};
    for (const [key, value] of Object.entries(node as Schema)) {
      out[key] = key === '$ref' && typeof value === 'string' ? this.ref(value, file) : this.copy(value, file);
    }
    return out;
  }

  private ref(ref: string, file: string): string {
    const target = resolveRef(ref, file);
    if (target.file === DEFINITIONS_FILE && target.name in ENVELOPE_DEFS) return sharedRef(target.name);
    this.define(target);
    return `#/$defs/${target.name}`;
  }

  private define(target: Ref): void {
    if (this.defs.has(target.name)) return;
    const source = this.sources[target.file]?.[target.name];
    if (!source) throw new Error(`baseline schema: no definition ${target.name} in ${target.file}`);
    this.defs.set(target.name, {}); // its place first: a definition refers to itself through its children
    const kind = this.itemKinds.get(target.name);
    this.defs.set(
      target.name,
      kind ? this.partialItem(kind, source, target.file) : (this.copy(source, target.file) as Schema),
    );
  }

  /** An item definition: partial, and for list items a `select` beside the identity. */
  private partialItem(kind: KindDefinition, source: Schema, file: string): Schema {
    const item = this.item(kind, source, file);
    if (kind.manifest.shape === 'map') return item;
    const properties = item['properties'] as Record<string, Schema>;
    const scalars = kind.fields.filter(
      (f) => f.change !== 'readOnly' && ['string', 'number', 'integer', 'boolean'].includes(f.type),
    );
    const select: Schema = {};
    for (const field of scalars) if (properties[field.name]) select[field.name] = properties[field.name];
    const identity = orList(kind.manifest.identity.map(String));
    const withSelect: Schema = {
      select: {
        description: `Instead of the identity (${identity}): this entry applies to every ${kind.manifest.noun} the selected document declares whose fields equal these.`,
        type: 'object',
        properties: select,
        minProperties: 1,
        additionalProperties: false,
      },
      ...properties,
    };
    return { ...item, properties: withSelect };
  }
}

function resolveRef(ref: string, file: string): Ref {
  const [target, pointer] = ref.split('#');
  const match = /^\/\$defs\/([^/]+)$/.exec(pointer ?? '');
  if (!match) throw new Error(`baseline schema: cannot follow $ref ${ref}`);
  return { file: target === undefined || target === '' ? file : target, name: match[1] as string };
}
