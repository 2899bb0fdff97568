import type { ElementType, FieldSpec, FieldType, KindDefinition, ValueShape } from '../../src/kinds/types.js';
import { PINNED_ID_KEY, RENAMED_FROM_KEY } from '../../src/manifest/kind-plans.js';

/**
 * Where schemas/*.json and the kind table (src/kinds/) disagree, as messages naming the kind,
 * the field and what differs. The walk starts at each document kind's schema and follows
 * the collections the kind table declares, so every kind is compared with the schema node
 * its manifest items are validated against:
 * - existence: every field of the table is a property of the item (a map item's identity is
 *   its key), and every property of the item is a field, an extra field, a child collection
 *   or CSV source, or refused (`x-ignored` / `readOnly`);
 * - type: `string` ↔ string (or an integer the loader turns into text), `integer`, `number`,
 *   `boolean`, `list`/`set` ↔ array, `object` ↔ object; list elements and object entries too;
 * - traits: `x-immutable` ↔ change 'replace', `writeOnly` ↔ 'writeOnly', refused ↔
 *   'readOnly', `x-sensitive` ↔ sensitive (identity fields name the object: their change
 *   is not compared);
 * - identity keys: a `renamable` kind's items (a document's metadata) have `renamedFrom`, a
 *   list of names, and a `pinnable` document's metadata has `uuid`; no other kind has them.
 */

type Node = Record<string, unknown>;
type Schemas = Readonly<Record<string, unknown>>;

/** A schema node, the file its relative `$ref`s resolve in, and where it is. */
interface At {
  file: string;
  node: Node;
  /** Where it is written (a property: where the property is, even when it is a `$ref`). */
  where: string;
  /** Where the node itself is (its `$ref` target): its properties' places start here. */
  base: string;
  /** The nodes passed on the way (a property's own keywords, then its `$ref` targets'). */
  chain: readonly Node[];
}

const PROPERTY_TYPES: Readonly<Record<FieldType, readonly string[]>> = {
  string: ['string', 'integer'],
  number: ['number'],
  integer: ['integer'],
  boolean: ['boolean'],
  list: ['array'],
  set: ['array'],
  object: ['object'],
};
const ELEMENT_TYPES: Readonly<Record<ElementType, readonly string[]>> = {
  string: ['string'],
  integer: ['integer'],
  boolean: ['boolean'],
  scalar: ['string', 'integer', 'number'],
  object: ['object'],
};

export function disagreements(kinds: readonly KindDefinition[], schemas: Schemas): string[] {
  const walk = new Walk(kinds, schemas);
  for (const kind of kinds) {
    const document = kind.manifest.document;
    if (!document) continue;
    const root = walk.at(`${document.schema}#`, '');
    if (!root) {
      walk.say(`${kind.kind}: its document schema ${document.schema} is missing`);
      continue;
    }
    if (walk.property(root, 'kind')?.node['const'] !== kind.kind) {
      walk.say(`${kind.kind}: ${document.schema} is not the schema of kind ${kind.kind}`);
    }
    const metadata = walk.property(root, 'metadata');
    const spec = walk.property(root, 'spec');
    if (!metadata || !spec) {
      walk.say(`${kind.kind}: ${document.schema} has no metadata or spec`);
      continue;
    }
    walk.metadata(kind, metadata);
    walk.item(kind, [spec], new Set(document.metadataFields));
  }
  for (const kind of kinds) {
    if (!walk.seen.has(kind.kind))
      walk.say(`${kind.kind}: no document schema holds its collection "${kind.collection ?? '(none)'}"`);
  }
  return [...new Set(walk.messages)];
}

/** The traits and type of a schema property, for tests that name one. */
export function schemaProperty(
  schemas: Schemas,
  ref: string,
  name: string,
): { types: string[]; immutable: boolean; writeOnly: boolean; refused: boolean } | undefined {
  const walk = new Walk([], schemas);
  const [file = '', pointer = ''] = ref.split('#');
  const at = walk.at(`${file}#${pointer}`, '');
  const property = at && walk.property(at, name);
  if (!property) return undefined;
  const types = walk.types(property);
  return {
    types,
    immutable: has(property, 'x-immutable'),
    writeOnly: has(property, 'writeOnly'),
    refused: refused(property),
  };
}

class Walk {
  readonly messages: string[] = [];
  readonly seen = new Set<string>();
  private readonly visited = new Set<string>();

  constructor(
    private readonly kinds: readonly KindDefinition[],
    private readonly schemas: Schemas,
  ) {}

  say(message: string): void {
    this.messages.push(message);
  }

  /** The node at `file#/pointer` (relative to `fromFile`), following `$ref`s; `where` names the first. */
  at(ref: string, fromFile: string, chain: readonly Node[] = [], where?: string): At | undefined {
    const [filePart = '', pointer = ''] = ref.split('#');
    const file = filePart === '' ? fromFile : filePart;
    let node: unknown = this.schemas[file];
    for (const part of pointer.split('/').filter(Boolean)) {
      node = (node as Node | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (!node || typeof node !== 'object') return undefined;
    const base = `${file}#${pointer}`;
    return this.follow({ file, node: node as Node, where: where ?? base, base, chain: [...chain, node as Node] });
  }

  /** Follows `$ref`s; a property keeps its own place as `where`, an item node takes its target's. */
  private follow(at: At, keepWhere = false): At | undefined {
    const ref = at.node['$ref'];
    return typeof ref === 'string' ? this.at(ref, at.file, at.chain, keepWhere ? at.where : undefined) : at;
  }

  property(at: At, name: string): At | undefined {
    const raw = (at.node['properties'] as Record<string, Node> | undefined)?.[name];
    const where = `${at.base}/properties/${name}`;
    return raw ? this.follow({ file: at.file, node: raw, where, base: where, chain: [raw] }, true) : undefined;
  }

  private child(at: At, key: 'items' | 'additionalProperties'): At | undefined {
    const raw = at.node[key];
    const where = `${at.base}/${key}`;
    if (!raw || typeof raw !== 'object') return undefined;
    return this.follow({ file: at.file, node: raw as Node, where, base: where, chain: [raw as Node] });
  }

  /** The JSON types a node accepts (`null` left out), from `type`, `enum` or `const`. */
  types(at: At): string[] {
    for (const node of at.chain) {
      const type = node['type'];
      if (typeof type === 'string') return type === 'null' ? [] : [type];
      if (Array.isArray(type)) return (type as string[]).filter((t) => t !== 'null');
      const constant = 'const' in node ? [node['const']] : undefined;
      const values = Array.isArray(node['enum']) ? (node['enum'] as unknown[]) : constant;
      if (values) return [...new Set(values.filter((v) => v !== null).map(jsonType))];
    }
    return [];
  }

  /** A document's metadata: its own fields, one key per parent kind, the identity keys and the flags. */
  metadata(kind: KindDefinition, metadata: At): void {
    const fields = kind.manifest.document?.metadataFields ?? [];
    const identity = identityKeys(kind, true);
    const expected = new Set([...fields, ...kind.parentKinds.map((k) => k.toLowerCase()), 'prune', 'protect']);
    const at = `${kind.kind}.metadata`;
    this.identityKeys(kind, metadata, identity);
    for (const name of expected) {
      if (!this.property(metadata, name))
        this.say(`${at}.${name}: the kind table expects it, the schema (${metadata.where}) has no such property`);
    }
    for (const name of Object.keys((metadata.node['properties'] as Node | undefined) ?? {})) {
      if (expected.has(name) || identity.includes(name)) continue;
      this.say(
        `${at}.${name}: the schema (${metadata.where}) declares it, the kind table neither as a field nor as a parent`,
      );
    }
    for (const name of kind.manifest.document?.metadataFields ?? []) {
      const spec = kind.fields.find((f) => f.name === name);
      const at = this.property(metadata, name);
      if (!spec) this.say(`${kind.kind}.${name}: taken from metadata, but not in the field table`);
      else if (at) this.field(kind, spec, at);
    }
  }

  /** One kind's items, at one schema node (several for a map keyed by named properties). */
  item(kind: KindDefinition, nodes: readonly At[], skip: ReadonlySet<string> = new Set()): void {
    this.seen.add(kind.kind);
    const key = `${kind.kind}@${nodes.map((n) => n.where).join('+')}`;
    if (this.visited.has(key)) return;
    this.visited.add(key);
    const form = kind.manifest;
    const keyField = form.shape === 'map' ? form.identity[0] : undefined;
    const children = this.kinds.filter((k) => k.collection !== undefined && k.parentKinds.includes(kind.kind));
    const where = nodes.map((n) => n.where).join(', ');
    // A document's own identity keys are in its metadata; a nested kind's in each item.
    const identity = form.document ? [] : identityKeys(kind, false);
    for (const node of nodes) this.identityKeys(kind, node, identity);
    for (const spec of kind.fields) {
      if (skip.has(spec.name) || spec.name === keyField) continue;
      const found = nodes.map((n) => this.property(n, spec.name)).filter((at): at is At => at !== undefined);
      if (found.length === 0) this.say(`${kind.kind}.${spec.name}: in the field table, not in the schema (${where})`);
      for (const at of found) this.field(kind, spec, at);
    }
    for (const node of nodes) {
      for (const name of Object.keys((node.node['properties'] as Node | undefined) ?? {})) {
        const at = this.property(node, name) as At;
        const known =
          kind.fields.some((f) => f.name === name) || form.extraFields?.includes(name) || identity.includes(name);
        if (skip.has(name) || known || refused(at)) continue;
        const collection = children.find((c) => c.collection === name);
        const csv = children.find((c) => c.manifest.csv?.key === name);
        if (collection) this.collection(collection, at);
        else if (csv) this.csv(csv, node, at);
        else {
          this.say(
            `${kind.kind}.${name}: the schema (${node.where}) declares it, the kind table has no such field, collection or CSV source`,
          );
        }
      }
    }
    for (const child of children) {
      if (nodes.some((n) => this.property(n, child.collection as string))) continue;
      this.say(`${child.kind}: the collection "${child.collection}" of ${kind.kind} is not in the schema (${where})`);
    }
  }

  /** `renamedFrom` is a list of strings, `uuid` a string, where the table says the kind has them. */
  private identityKeys(kind: KindDefinition, node: At, keys: readonly string[]): void {
    for (const key of keys) {
      const at = this.property(node, key);
      const want = key === RENAMED_FROM_KEY ? 'array' : 'string';
      if (!at)
        this.say(`${kind.kind}.${key}: the kind table expects it, the schema (${node.where}) has no such property`);
      else if (this.types(at).join() !== want)
        this.say(`${kind.kind}.${key}: the schema (${at.where}) says ${this.types(at).join(' or ')}, not ${want}`);
      else if (want === 'array' && this.types(this.child(at, 'items') ?? at).join() !== 'string')
        this.say(`${kind.kind}.${key}: the schema (${at.where}) does not list names (strings)`);
    }
  }

  private collection(kind: KindDefinition, at: At): void {
    const types = this.types(at);
    if (kind.manifest.shape === 'map') {
      const additional = this.child(at, 'additionalProperties');
      const names = Object.keys((at.node['properties'] as Node | undefined) ?? {});
      const keyed = names.map((name) => this.property(at, name) as At);
      if (types.includes('object') && (additional || keyed.length > 0))
        this.item(kind, additional ? [additional] : keyed);
      else
        this.say(
          `${kind.kind}: the kind table keeps "${kind.collection}" as a map by identity, the schema (${at.where}) does not`,
        );
      return;
    }
    const items = this.child(at, 'items');
    if (types.includes('array') && items) this.item(kind, [items]);
    else
      this.say(`${kind.kind}: the kind table keeps "${kind.collection}" as a list, the schema (${at.where}) does not`);
  }

  private csv(kind: KindDefinition, parent: At, at: At): void {
    const csv = kind.manifest.csv;
    if (!csv) return;
    if (!this.types(at).includes('string')) {
      this.say(`${kind.kind}: its CSV source "${csv.key}" is not a string in the schema (${at.where})`);
    }
    const collection = this.property(parent, kind.collection as string);
    const items = collection && this.child(collection, 'items');
    const rows = this.at(csv.rowSchema, '');
    if (!rows || rows.node !== items?.node) {
      this.say(
        `${kind.kind}: its CSV rows are validated against ${csv.rowSchema}, not against the items of "${kind.collection}"`,
      );
    }
    for (const column of csv.header) {
      if (!rows || this.property(rows, column)) continue;
      this.say(`${kind.kind}: the CSV column "${column}" is not a property of ${csv.rowSchema}`);
    }
  }

  /** One field against its property: declarable or not, type, elements and traits. */
  field(kind: KindDefinition, spec: FieldSpec, at: At): void {
    const name = `${kind.kind}.${spec.name}`;
    const schema = `the schema (${at.where})`;
    if (refused(at)) {
      if (spec.change === 'readOnly') return;
      this.say(
        `${name}: ${schema} refuses it (x-ignored/readOnly), the field table says change '${spec.change}' (want 'readOnly')`,
      );
      return;
    }
    if (spec.change === 'readOnly') {
      this.say(`${name}: the field table says change 'readOnly', ${schema} lets manifests declare it (want x-ignored)`);
    }
    const types = this.types(at);
    const allowed = PROPERTY_TYPES[spec.type];
    if (types.length === 0 || !types.includes(allowed[0] as string) || types.some((t) => !allowed.includes(t))) {
      this.say(`${name}: the field table says type '${spec.type}', ${schema} says ${types.join(' or ') || 'no type'}`);
    }
    if (spec.elements) this.shape(name, 'elements', spec.elements, this.child(at, 'items'));
    if (spec.entries) {
      const entries = typeof spec.entries === 'string' ? this.child(at, 'additionalProperties') : at;
      this.shape(name, 'entries', spec.entries, entries);
    }
    if (!kind.manifest.identity.includes(spec.name)) this.traits(name, spec, at);
  }

  private traits(name: string, spec: FieldSpec, at: At): void {
    const schema = (keyword: string): string =>
      `the schema (${at.where}) ${has(at, keyword) ? 'marks' : 'does not mark'} it ${keyword}`;
    if (has(at, 'x-immutable') !== (spec.change === 'replace')) {
      this.say(`${name}: ${schema('x-immutable')}, the field table says change '${spec.change}'`);
    }
    if (has(at, 'writeOnly') !== (spec.change === 'writeOnly')) {
      this.say(`${name}: ${schema('writeOnly')}, the field table says change '${spec.change}'`);
    }
    if (has(at, 'x-sensitive') !== (spec.sensitive === true)) {
      this.say(
        `${name}: ${schema('x-sensitive')}, the field table ${spec.sensitive ? 'marks it sensitive' : 'does not'}`,
      );
    }
  }

  /** A list's elements or an object's entries: a scalar type, or named fields (`?` optional). */
  private shape(name: string, what: string, shape: ValueShape, at: At | undefined): void {
    if (!at) {
      this.say(`${name}: the field table describes its ${what}, the schema has no node for them`);
      return;
    }
    if (typeof shape === 'string') {
      const types = this.types(at);
      if (types.every((t) => ELEMENT_TYPES[shape].includes(t))) return;
      this.say(
        `${name}: the field table says its ${what} are ${shape}, the schema (${at.where}) says ${types.join(' or ')}`,
      );
      return;
    }
    const required = new Set((at.node['required'] as string[] | undefined) ?? []);
    const properties = Object.keys((at.node['properties'] as Node | undefined) ?? {});
    for (const [field, declared] of Object.entries(shape)) {
      const optional = declared.endsWith('?');
      const type = declared.replace('?', '') as ElementType;
      const property = this.property(at, field);
      const types = property ? this.types(property) : [];
      if (!property)
        this.say(`${name}: the field table gives its ${what} a "${field}", the schema (${at.where}) does not`);
      else if (!types.every((t) => ELEMENT_TYPES[type].includes(t))) {
        this.say(
          `${name}: "${field}" of its ${what} is ${type} in the field table, ${types.join(' or ')} in the schema (${property.where})`,
        );
      }
      if (optional !== required.has(field)) continue;
      this.say(
        `${name}: "${field}" of its ${what} is ${optional ? 'optional' : 'required'} in the field table, not in the schema (${at.where})`,
      );
    }
    for (const field of properties) {
      if (!(field in shape))
        this.say(`${name}: the schema (${at.where}) gives its ${what} a "${field}", the field table does not`);
    }
  }
}

/** The keys naming an object's identity the kind table gives it: `renamedFrom` (renamable), `uuid` (pinnable document). */
function identityKeys(kind: KindDefinition, metadata: boolean): string[] {
  const keys = kind.manifest.renamable ? [RENAMED_FROM_KEY] : [];
  if (metadata && kind.manifest.document?.pinnable) keys.push(PINNED_ID_KEY);
  return keys;
}

/** Whether a keyword is true on the property or on one of its `$ref` targets. */
function has(at: At, keyword: string): boolean {
  return at.chain.some((node) => node[keyword] === true);
}

/** A property manifests cannot declare: `x-ignored` (with its reason) or `readOnly`. */
function refused(at: At): boolean {
  return at.chain.some((node) => node['x-ignored'] !== undefined || node['readOnly'] === true);
}

function jsonType(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
