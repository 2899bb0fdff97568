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
  let pos = positions.get(ref);
  if (!pos) {
    pos = resolve(ref, '');
    if (!pos) throw new Error(`no schema node at ${ref}`);
    positions.set(ref, pos);
  }
  return pos;
}

const positions = new Map<string, SchemaPos>();

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

/**
 * What was worked out about a schema node, kept by the node (the schemas are loaded once
 * and never change): export asks the same questions for every object it writes, 250,000
 * times in a national estate, and following `$ref`s each time showed in its profile.
 */
const properties = new WeakMap<SchemaNode, Map<string, SchemaPos | undefined>>();
const names = new WeakMap<SchemaNode, string[]>();
const shapes = new WeakMap<SchemaNode, CollectionShape | null>();

/** A property a manifest may write: present, not `x-ignored`, not `writeOnly`. */
export function property(pos: SchemaPos, name: string): SchemaPos | undefined {
  let known = properties.get(pos.node);
  if (!known) properties.set(pos.node, (known = new Map()));
  if (known.has(name)) return known.get(name);
  const raw = (pos.node['properties'] as Record<string, SchemaNode> | undefined)?.[name];
  const found =
    !raw || raw['x-ignored'] !== undefined || raw['writeOnly'] === true
      ? undefined
      : deref({ file: pos.file, node: raw });
  known.set(name, found);
  return found;
}

/** The writable property names of a position, in the schema's order. */
export function propertyNames(pos: SchemaPos): string[] {
  let list = names.get(pos.node);
  if (!list) {
    const all = (pos.node['properties'] ?? {}) as Record<string, SchemaNode>;
    list = Object.keys(all).filter((name) => property(pos, name) !== undefined);
    names.set(pos.node, list);
  }
  return list;
}

/** The item schema of an array position. */
export function itemsOf(pos: SchemaPos): SchemaPos | undefined {
  const items = pos.node['items'];
  return items && typeof items === 'object' ? deref({ file: pos.file, node: items as SchemaNode }) : undefined;
}

/** How a collection property is written; undefined when it is not a collection. */
export function collectionShape(pos: SchemaPos): CollectionShape | undefined {
  let shape = shapes.get(pos.node);
  if (shape === undefined) shapes.set(pos.node, (shape = shapeOf(pos) ?? null));
  return shape ?? undefined;
}

function shapeOf(pos: SchemaPos): CollectionShape | undefined {
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
