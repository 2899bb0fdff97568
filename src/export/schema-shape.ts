import { schemaSet } from '../manifest/index.js';

/**
 * The manifest schemas (`schemas/`) are what a manifest may contain, so export reads its
 * layout from them instead of restating it: which properties a position has and in which
 * order, whether a collection is a list (`subscriptions`), a map keyed by identity
 * (`numbers`) or an object with one property per identity (`branding`), and whether a
 * live value may be written there at all (`null`, `""`, a read-only field).
 */

type SchemaNode = Record<string, unknown>;

/** A schema node and the file its relative `$ref`s resolve against. */
export interface SchemaPos {
  file: string;
  node: SchemaNode;
}

export type CollectionShape =
  | { type: 'list'; item: SchemaPos }
  | { type: 'map'; item: SchemaPos }
  | { type: 'keyed'; itemFor(identity: string): SchemaPos | undefined };

/** `file#/json/pointer` as a position (`tenant.schema.json#/properties/spec`). */
export function schemaAt(ref: string): SchemaPos {
  const pos = resolve(ref, '');
  if (!pos) throw new Error(`no schema node at ${ref}`);
  return pos;
}

function resolve(ref: string, fromFile: string): SchemaPos | undefined {
  const [filePart = '', pointer = ''] = ref.split('#');
  const file = filePart === '' ? fromFile : filePart;
  let node: unknown = schemaSet().schemas[file];
  for (const part of pointer.split('/').filter(Boolean))
    node = (node as SchemaNode | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node && typeof node === 'object' ? deref({ file, node: node as SchemaNode }) : undefined;
}

/** Follows `$ref` until a node without one. */
function deref(pos: SchemaPos): SchemaPos {
  let current = pos;
  for (let depth = 0; typeof current.node['$ref'] === 'string' && depth < 20; depth++) {
    const next = resolve(current.node['$ref'], current.file);
    if (!next) break;
    current = next;
  }
  return current;
}

/** A property a manifest may write: present, not `x-ignored`, not `writeOnly`. */
export function property(pos: SchemaPos, name: string): SchemaPos | undefined {
  const raw = (pos.node['properties'] as Record<string, SchemaNode> | undefined)?.[name];
  if (!raw || raw['x-ignored'] !== undefined || raw['writeOnly'] === true) return undefined;
  return deref({ file: pos.file, node: raw });
}

/** The writable property names of a position, in the schema's order. */
export function propertyNames(pos: SchemaPos): string[] {
  const properties = (pos.node['properties'] ?? {}) as Record<string, SchemaNode>;
  return Object.keys(properties).filter((name) => property(pos, name) !== undefined);
}

/** The item schema of an array position. */
export function itemsOf(pos: SchemaPos): SchemaPos | undefined {
  const items = pos.node['items'];
  return items && typeof items === 'object' ? deref({ file: pos.file, node: items as SchemaNode }) : undefined;
}

/** How a collection property is written; undefined when it is not a collection. */
export function collectionShape(pos: SchemaPos): CollectionShape | undefined {
  const items = pos.node['items'];
  if (pos.node['type'] === 'array' && items && typeof items === 'object') {
    return { type: 'list', item: deref({ file: pos.file, node: items as SchemaNode }) };
  }
  const additional = pos.node['additionalProperties'];
  if (additional && typeof additional === 'object')
    return { type: 'map', item: deref({ file: pos.file, node: additional as SchemaNode }) };
  if (pos.node['properties']) return { type: 'keyed', itemFor: (identity) => property(pos, identity) };
  return undefined;
}

/**
 * Whether a value may be written at a position: its type, `enum`, `const`, string length
 * and pattern, integer minimum. Arrays and objects are checked item by item one level.
 */
export function fits(value: unknown, pos: SchemaPos): boolean {
  const node = pos.node;
  if (Array.isArray(node['enum']) && !node['enum'].some((e) => e === value)) return false;
  if ('const' in node && node['const'] !== value) return false;
  const types = typesOf(node);
  if (types && !types.some((t) => hasType(value, t))) return false;
  if (typeof value === 'string') {
    if (typeof node['minLength'] === 'number' && value.length < node['minLength']) return false;
    if (typeof node['pattern'] === 'string' && !new RegExp(node['pattern'], 'u').test(value)) return false;
  }
  if (typeof value === 'number' && typeof node['minimum'] === 'number' && value < node['minimum']) return false;
  if (Array.isArray(value) && node['items'] && typeof node['items'] === 'object') {
    const item = deref({ file: pos.file, node: node['items'] as SchemaNode });
    return value.every((v) => fits(v, item));
  }
  return true;
}

/** Whether `null` may be written at a position (`suspensionProfile: null`). */
export function allowsNull(pos: SchemaPos): boolean {
  return fits(null, pos);
}

function typesOf(node: SchemaNode): string[] | undefined {
  const type = node['type'];
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? (type as string[]) : undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return false;
  }
}
