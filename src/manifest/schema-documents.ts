import type { KindDefinition } from '../kinds/types.js';
import { PINNED_ID_KEY, RENAMED_FROM_KEY } from './kind-plans.js';
import { baselineMetadataProperties } from './schema-baseline.js';
import { generatedComment, JSON_SCHEMA_DRAFT, orList, sharedRef, type Schema } from './schema-envelope.js';
import type { KindSchemas } from './schema-kinds.js';

/**
 * The schema of a document kind of the kind table (`kind: Tenant`): the envelope, its
 * `metadata` (its name, its parent by name or uuid, `renamedFrom`, a pinned uuid, prune and
 * protect, from the kind's columns) and its `spec` (the kind's items, see schema-kinds.ts).
 */
export function documentSchema(kind: KindDefinition, schemas: KindSchemas): Schema {
  const document = kind.manifest.document;
  if (!document) throw new Error(`kind table: ${kind.kind} is no document kind`);
  const file = document.schema;
  const metadataFields = document.metadataFields;
  const spec: Schema = {
    description: `Desired state of the ${kind.manifest.noun}. A field left out is unmanaged.`,
    type: 'object',
    properties: schemas.itemProperties(kind, file, { exclude: metadataFields }),
    ...schemas.requirements(kind, { exclude: [...kind.manifest.identity, ...metadataFields] }),
    additionalProperties: false,
  };
  const schema: Schema = {
    $schema: JSON_SCHEMA_DRAFT,
    $id: file,
    $comment: generatedComment('the kind table (src/kinds/)'),
    title: `switchboard ${kind.kind}`,
    description: kind.manifest.doc,
    type: 'object',
    properties: {
      apiVersion: { $ref: sharedRef('apiVersion') },
      kind: { description: 'The kind of this document.', const: kind.kind },
      metadata: metadataSchema(kind, schemas),
      spec,
    },
    required: ['apiVersion', 'kind', 'metadata'],
    additionalProperties: false,
  };
  const defs = schemas.defs.get(file);
  if (defs && defs.size > 0) schema['$defs'] = Object.fromEntries(defs);
  return schema;
}

function metadataSchema(kind: KindDefinition, schemas: KindSchemas): Schema {
  const form = kind.manifest;
  const noun = form.noun;
  const document = form.document;
  const properties: Schema = {};
  for (const name of document?.metadataFields ?? []) {
    const spec = kind.fields.find((f) => f.name === name);
    if (!spec) throw new Error(`kind table: ${kind.kind}'s metadata field ${name} is no field of its table`);
    properties[name] = { description: spec.doc, ...valueOfName(spec.manifest) };
  }
  const parents = kind.parentKinds.map((parentKind) => {
    const key = parentKind.toLowerCase();
    const declared = schemas.kinds.find((k) => k.kind === parentKind)?.manifest.document !== undefined;
    properties[key] = declared
      ? {
          description: `The owning ${key}: by name (a ${parentKind} document of the manifest set, or an existing ${key} found by name) or {uuid}.`,
          $ref: sharedRef('nameOrUuidRef'),
        }
      : { description: `The owning ${key}, by {uuid}.`, $ref: sharedRef('uuidRef') };
    return key;
  });
  if (form.renamable) {
    properties[RENAMED_FROM_KEY] = {
      description: `The names this ${noun} had before: a live ${noun} under one of them (and none under the new name) is renamed, not created again.`,
      $ref: sharedRef('renamedFrom'),
    };
  }
  if (document?.pinnable) {
    properties[PINNED_ID_KEY] = {
      description: `Binds this document to the live ${noun} with this uuid (a different name is a rename; a uuid that does not exist refuses the plan).`,
      $ref: sharedRef('pinnedUuid'),
    };
  }
  if (document?.baselines) Object.assign(properties, baselineMetadataProperties(noun));
  properties['prune'] = { $ref: sharedRef('prune') };
  properties['protect'] = { $ref: sharedRef('protect') };
  const required = form.identity.filter((name) => document?.metadataFields.includes(name));
  if (parents.length === 1) required.push(parents[0] as string);
  let description = `Identity${parents.length > 0 ? ', parent (owner)' : ''} and management flags of the ${noun}.`;
  if (parents.length > 1) description += ` Exactly one of ${orList(parents)}.`;
  if (kind.fixedParent)
    description += ` The owner cannot be changed (${kind.fixedParent.reference}): a ${noun} found live under another owner than declared refuses the plan.`;
  return {
    description,
    type: 'object',
    properties,
    required,
    ...(parents.length > 1 ? { oneOf: parents.map((key) => ({ properties: { [key]: true }, required: [key] })) } : {}),
    additionalProperties: false,
  };
}

/** A metadata field's value: a string with its field's constraints (a name). */
function valueOfName(manifest: KindDefinition['fields'][number]['manifest']): Schema {
  return {
    type: 'string',
    ...(manifest?.minLength !== undefined ? { minLength: manifest.minLength } : {}),
    ...(manifest?.pattern !== undefined ? { pattern: manifest.pattern } : {}),
  };
}
