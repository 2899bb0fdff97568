import type {
  ElementType,
  ExtraField,
  FieldManifest,
  FieldSpec,
  FieldType,
  KindDefinition,
  ValueShape,
} from '../kinds/types.js';
import { DEFINITIONS_FILE, refusedProperty, type Schema } from './schema-envelope.js';
import { collectionDoc, traitNotes } from './schema-prose.js';

/**
 * The kind table as JSON Schema: each kind's items (fields, child collections, refused keys)
 * as a definition, placed in the schema of the one document kind that holds it, or in
 * `definitions.schema.json` when several do (administrators, calling plans). The fields'
 * `doc` is each property's `description` (what editors show on hover); their `manifest`
 * column gives the constraints; `change` and `sensitive` give the annotations the loader,
 * export and editors read (`x-immutable`, `writeOnly`, `x-sensitive`).
 */

const PROPERTY_TYPES: Readonly<Record<FieldType, string>> = {
  string: 'string',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  list: 'array',
  set: 'array',
  object: 'object',
};
const ELEMENT_FIELD_TYPES: Readonly<Record<ElementType, FieldType>> = {
  string: 'string',
  integer: 'integer',
  boolean: 'boolean',
  scalar: 'string',
  object: 'object',
};

/** A definition's place, taken before its content is made. */
const PENDING: Schema = {};

type Field = FieldSpec | (ExtraField & { change?: undefined });

export class KindSchemas {
  /** Definitions by file, then name, in the order they were made. */
  readonly defs = new Map<string, Map<string, Schema>>();
  private readonly docsOf = new Map<string, ReadonlySet<string>>();
  private readonly made = new Set<string>();

  constructor(readonly kinds: readonly KindDefinition[]) {}

  /** The kinds whose items a kind's items (or spec) hold, the `listedFirst` ones first. */
  children(kind: KindDefinition): KindDefinition[] {
    const children = this.kinds.filter((k) => k.parentKinds.includes(kind.kind) && k.collection !== undefined);
    return [...children.filter((k) => k.manifest.listedFirst), ...children.filter((k) => !k.manifest.listedFirst)];
  }

  /** The properties of an item of `kind` (or of its document's spec: `exclude` its metadata fields). */
  itemProperties(kind: KindDefinition, file: string, options: ItemOptions = {}): Schema {
    const form = kind.manifest;
    const exclude = new Set(options.exclude ?? []);
    const properties: Schema = {};
    for (const spec of kind.fields) {
      if (spec.change === 'readOnly' || exclude.has(spec.name) || spec.name === options.keyField) continue;
      const only = spec.manifest?.onlyUnder;
      if (options.under !== undefined && only !== undefined && !only.includes(options.under)) continue;
      properties[spec.name] = this.field(kind, spec, file);
      if (spec.name === form.renamable?.field && !form.document) {
        properties['renamedFrom'] = {
          description:
            'The names it had before: a live one under one of them (and none under the new name) is renamed, not created again.',
          $ref: shared(file, 'renamedFrom'),
        };
      }
      if (spec.name === form.identity[0])
        for (const extra of form.extraFields ?? []) properties[extra.name] = this.field(kind, extra, file);
    }
    for (const child of this.children(kind)) {
      properties[child.collection as string] = this.collection(child, file);
      const csv = child.manifest.csv;
      if (csv) {
        properties[csv.key] = {
          description: `A CSV file of ${child.collection ?? ''}, relative to this manifest, with the platform's bulk header ${csv.header.join(',')}. Combined with ${child.collection ?? ''}.`,
          type: 'string',
          minLength: 1,
        };
      }
    }
    for (const name of exclude)
      properties[name] = refusedProperty(`the ${form.noun}'s ${name} is \`metadata.${name}\``, false);
    for (const spec of kind.fields)
      if (spec.change === 'readOnly') properties[spec.name] = refusedProperty(spec.doc, true);
    for (const [name, refusal] of Object.entries(form.refused ?? {}))
      properties[name] = refusedProperty(refusal.why, refusal.readOnly === true);
    return properties;
  }

  /** `required` (and `oneOf` for alternative identities) of an item of `kind`. */
  requirements(kind: KindDefinition, options: ItemOptions = {}): Schema {
    const form = kind.manifest;
    const exclude = new Set([...(options.exclude ?? []), ...(options.keyField ? [options.keyField] : [])]);
    const identity = form.identityAlternatives ? [] : form.identity;
    const required = kind.fields
      .filter((f) => !exclude.has(f.name) && f.change !== 'readOnly')
      .filter((f) => (identity.includes(f.name) && f.derived === undefined) || f.manifest?.required === true)
      .map((f) => f.name);
    const out: Schema = required.length > 0 ? { required } : {};
    if (form.identityAlternatives)
      out['oneOf'] = form.identity.map((name) => ({ properties: { [name]: true }, required: [name] }));
    return out;
  }

  /** The schema file a kind's item definition goes to. */
  fileOf(kind: KindDefinition): string {
    const sharing = this.kinds.filter((k) => defName(k) === defName(kind));
    const documents = new Set(sharing.flatMap((k) => [...this.documentsOf(k)]));
    if (documents.size === 0) throw new Error(`kind table: no document kind holds ${kind.kind}`);
    if (documents.size > 1) return DEFINITIONS_FILE;
    const [document] = documents;
    return this.schemaFileOf(document as string);
  }

  schemaFileOf(documentKind: string): string {
    const schema = this.kinds.find((k) => k.kind === documentKind)?.manifest.document?.schema;
    if (!schema) throw new Error(`kind table: ${documentKind} is no document kind`);
    return schema;
  }

  /** Adds a definition; one shared by several kinds or fields must come out the same for each. */
  addDef(file: string, name: string, schema: Schema): void {
    const inFile = this.defsIn(file);
    const known = inFile.get(name);
    if (known && known !== PENDING && JSON.stringify(known) !== JSON.stringify(schema))
      throw new Error(`kind table: the schema definition ${name} comes out in two forms (its kinds or fields differ)`);
    inFile.set(name, schema);
  }

  private defsIn(file: string): Map<string, Schema> {
    const inFile = this.defs.get(file) ?? new Map<string, Schema>();
    this.defs.set(file, inFile);
    return inFile;
  }

  private documentsOf(kind: KindDefinition): ReadonlySet<string> {
    const known = this.docsOf.get(kind.kind);
    if (known) return known;
    const found = new Set<string>();
    this.docsOf.set(kind.kind, found); // a cycle of parents finds nothing more
    if (kind.manifest.document) found.add(kind.kind);
    for (const parentKind of kind.manifest.document ? [] : kind.parentKinds) {
      const parent = this.kinds.find((k) => k.kind === parentKind);
      if (parent) for (const document of this.documentsOf(parent)) found.add(document);
    }
    return found;
  }

  /** The property of a child collection in its parent's item, and the child's definition. */
  private collection(child: KindDefinition, file: string): Schema {
    const defFile = this.fileOf(child);
    const name = defName(child);
    const ref = { $ref: refTo(file, defFile, name) };
    const description = collectionDoc(child);
    if (child.manifest.shape !== 'map') {
      this.makeDef(child, defFile, name, () => this.item(child, defFile));
      return { description, type: 'array', items: ref };
    }
    const keyField = child.manifest.identity[0] as string;
    const key = child.fields.find((f) => f.name === keyField)?.manifest;
    if (key?.enum) {
      this.makeDef(child, defFile, name, () => this.keyed(child, defFile, keyField, key.enum ?? []));
      return { description, ...ref };
    }
    this.makeDef(child, defFile, name, () => this.item(child, defFile, keyField));
    return {
      description,
      type: 'object',
      ...(key?.pattern ? { propertyNames: { pattern: key.pattern } } : {}),
      additionalProperties: ref,
    };
  }

  private makeDef(kind: KindDefinition, file: string, name: string, make: () => Schema): void {
    const id = `${kind.kind} ${file}#${name}`;
    if (this.made.has(id)) return;
    this.made.add(id);
    // Its place comes before the definitions its own fields make (a parent reads before its children).
    if (!this.defsIn(file).has(name)) this.defsIn(file).set(name, PENDING);
    this.addDef(file, name, make());
  }

  private item(kind: KindDefinition, file: string, keyField?: string): Schema {
    const options = keyField === undefined ? {} : { keyField };
    return {
      description: kind.manifest.doc,
      type: 'object',
      properties: this.itemProperties(kind, file, options),
      ...this.requirements(kind, options),
      additionalProperties: false,
    };
  }

  /** A map whose keys are a fixed set (a group's branding by type): one object per key. */
  private keyed(kind: KindDefinition, file: string, keyField: string, keys: readonly string[]): Schema {
    const properties: Schema = {};
    for (const key of keys) {
      properties[key] = {
        description: `The ${kind.manifest.noun} of ${keyField} ${key}.`,
        type: 'object',
        properties: this.itemProperties(kind, file, { keyField, under: key }),
        additionalProperties: false,
      };
    }
    return { description: kind.manifest.doc, type: 'object', properties, additionalProperties: false };
  }

  private field(kind: KindDefinition, spec: Field, file: string): Schema {
    const manifest = spec.manifest ?? {};
    const node: Schema = { description: spec.doc };
    const notes = traitNotes(kind, spec);
    if (notes.length > 0) node['markdownDescription'] = `${spec.doc}\n\n*${notes.join(' ')}*`;
    Object.assign(node, this.value(kind, spec.type, manifest, spec as FieldSpec, file));
    const identity = kind.manifest.identity.includes(spec.name);
    if (spec.change === 'replace' && !identity) node['x-immutable'] = true;
    if (spec.change === 'writeOnly' || (kind.unreadable && spec.change !== undefined)) node['writeOnly'] = true;
    if ('sensitive' in spec && spec.sensitive) node['x-sensitive'] = true;
    return node;
  }

  private value(
    kind: KindDefinition,
    type: FieldType,
    manifest: FieldManifest,
    shapes: Pick<FieldSpec, 'elements' | 'entries'>,
    file: string,
  ): Schema {
    const node: Schema = {};
    if (manifest.enum) node['enum'] = manifest.nullable ? [...manifest.enum, null] : [...manifest.enum];
    else if (type === 'object' && typeof shapes.entries === 'object') {
      return { $ref: `#/$defs/${this.shape(kind, shapes.entries, manifest, file)}` };
    } else {
      const types = [PROPERTY_TYPES[type]];
      if (type === 'string' && manifest.integerAsText) types.push('integer');
      if (manifest.nullable) types.push('null');
      node['type'] = types.length === 1 ? types[0] : types;
    }
    if (manifest.format) node['format'] = manifest.format;
    if (manifest.minLength !== undefined) node['minLength'] = manifest.minLength;
    if (manifest.pattern !== undefined) node['pattern'] = manifest.pattern;
    if (manifest.minimum !== undefined) node['minimum'] = manifest.minimum;
    if (manifest.maximum !== undefined) node['maximum'] = manifest.maximum;
    if ((type === 'list' || type === 'set') && shapes.elements !== undefined) {
      node['items'] =
        typeof shapes.elements === 'string'
          ? { type: PROPERTY_TYPES[ELEMENT_FIELD_TYPES[shapes.elements]] }
          : { $ref: `#/$defs/${this.shape(kind, shapes.elements, manifest, file)}` };
    }
    if (type === 'object' && typeof shapes.entries === 'string')
      node['additionalProperties'] = { type: PROPERTY_TYPES[ELEMENT_FIELD_TYPES[shapes.entries]] };
    if (manifest.examples) node['examples'] = [...manifest.examples];
    if (manifest.nullRefused !== undefined) node['x-not-null'] = manifest.nullRefused;
    return node;
  }

  /** The definition of an object value's (or element's) fields: names, docs, types, which are optional. */
  private shape(kind: KindDefinition, shape: Exclude<ValueShape, ElementType>, manifest: FieldManifest, file: string) {
    const described = manifest.shape;
    if (!described) throw new Error(`kind table: ${kind.kind} has an object value without manifest.shape`);
    const properties: Schema = {};
    const required: string[] = [];
    for (const [name, declared] of Object.entries(shape)) {
      const optional = declared.endsWith('?');
      const element = declared.replace('?', '') as ElementType;
      const field = described.fields[name];
      if (!field) throw new Error(`kind table: ${kind.kind}'s ${described.def} has no doc for "${name}"`);
      properties[name] = {
        description: field.doc,
        ...this.value(kind, ELEMENT_FIELD_TYPES[element], field, {}, file),
      };
      if (!optional) required.push(name);
    }
    this.addDef(file, described.def, {
      description: described.doc,
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    });
    return described.def;
  }
}

interface ItemOptions {
  /** A document's metadata fields: not in its spec (refused there, saying where they go). */
  exclude?: readonly string[];
  /** A map item's key: not a property of the item. */
  keyField?: string;
  /** Only the fields of items under this key of a map whose keys are a fixed set. */
  under?: string;
}

/** A kind's definition name: `schemaDef`, or the kind in lower camel case. */
export function defName(kind: KindDefinition): string {
  return kind.manifest.schemaDef ?? `${kind.kind.charAt(0).toLowerCase()}${kind.kind.slice(1)}`;
}

/** A `$ref` from `fromFile` to a definition in `toFile`. */
function refTo(fromFile: string, toFile: string, name: string): string {
  return fromFile === toFile ? `#/$defs/${name}` : `${toFile}#/$defs/${name}`;
}

/** A `$ref` to a shared (envelope) definition. */
function shared(fromFile: string, name: string): string {
  return refTo(fromFile, DEFINITIONS_FILE, name);
}
