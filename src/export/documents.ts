import { fieldSpec } from '../kinds/fields.js';
import type { ChildCollection, ExportNode } from './tree.js';
import { kinds } from '../kinds/index.js';
import { allowsNull, fits, itemsOf, property, propertyNames, type SchemaPos } from './schema-shape.js';
import { YamlMap, type YamlNode, type YamlScalar } from './yaml-writer.js';

/** A problem met while writing a value that the schema does not accept (left unmanaged). */
export interface ExportWarning {
  address: string;
  message: string;
}

/**
 * The spec (or a nested item) of an exported object as a YAML map: the schema's properties
 * in the schema's order, each either a field of the kind (the live value, normalised as the
 * planner compares it) or a child collection. A value is written only where the schema
 * accepts it: `null` only where null means something (`suspensionProfile: null`), empty
 * lists and unset values are left out (unmanaged), and a value the schema refuses (an
 * empty billingId) is left out with a warning.
 */
export function specMap(node: ExportNode, warnings: ExportWarning[], style: 'auto' | 'block' = 'auto'): YamlMap {
  const map = new YamlMap(style);
  for (const name of propertyNames(node.pos)) {
    const collection = node.collections.get(name);
    if (collection) {
      writeCollection(map, name, collection, warnings);
      continue;
    }
    const spec = fieldSpec(node.kind.fields, name);
    const value = node.live.fields[name];
    if (!spec || spec.change === 'writeOnly' || value === undefined) continue;
    const at = property(node.pos, name) as SchemaPos;
    if (value === null) {
      if (allowsNull(at)) map.set(name, null);
      continue;
    }
    if (Array.isArray(value) && value.length === 0) continue;
    // A field the loader derives from the others (the kind table's `derived`) is written only
    // when the live value differs from the derived one, so exports read like hand-written ones.
    if (spec.derived && spec.derived(node.live.fields) === value) continue;
    if (!fits(value, at)) {
      warnings.push({
        address: node.live.address,
        message: `${name} ${JSON.stringify(value)} cannot be written in a manifest (the schema refuses it): left out, so it is unmanaged`,
      });
      continue;
    }
    map.set(name, toYaml(value, at));
  }
  return map;
}

function writeCollection(map: YamlMap, key: string, collection: ChildCollection, warnings: ExportWarning[]): void {
  if (collection.state === 'unreadable') {
    map.note(key, [
      `${key}: not exported. The platform API can create, update and delete ${collection.kind.kind} objects but never read them;`,
      `declare them here to manage them (each is then sent once, and tracked by the last-applied record).`,
    ]);
    return;
  }
  if (collection.state === 'unlisted') {
    map.note(key, unlistedHint(key, collection));
    return;
  }
  const nodes = unique(collection.nodes, warnings);
  if (nodes.length === 0) return;
  if (collection.shape.type === 'list') {
    map.set(
      key,
      nodes.map((n) => specMap(n, warnings)),
    );
    return;
  }
  const byIdentity = new YamlMap('block');
  for (const n of nodes) {
    const identity = n.kind.identity(n.live.fields);
    const value = specMap(n, warnings);
    // A map entry that says nothing (every field unset) is left out.
    if (value.entries.every((e) => e.value === null)) continue;
    byIdentity.set(identity, value);
  }
  if (byIdentity.size > 0) map.set(key, byIdentity);
}

const hints = new Map<string, string[]>();

/** What to write instead of a collection the API cannot list: how to declare one by hand. */
function unlistedHint(key: string, collection: ChildCollection): string[] {
  const known = hints.get(`${collection.kind.kind}\0${key}`);
  if (known) return known;
  const hint = hintFor(key, collection);
  hints.set(`${collection.kind.kind}\0${key}`, hint);
  return hint;
}

function hintFor(key: string, collection: ChildCollection): string[] {
  const kind = collection.kind;
  const identity = kind.fields[0]?.name ?? 'id';
  const nested = kinds
    .filter((k) => k.parentKinds.includes(kind.kind) && k.collection)
    .map((k) => `${k.collection}: [...]`);
  return [
    `${key}: not exported. ${kind.kind} objects cannot be listed through the API (it names them by ${identity} only),`,
    `so export cannot find them. To manage one, declare it by ${identity}:`,
    `  ${key}:`,
    `    - { ${[`${identity}: <${identity}>`, ...nested].join(', ')} }`,
  ];
}

/** Sorted by identity (code points, so the order is the same everywhere); a repeated identity is reported. */
function unique(nodes: readonly ExportNode[], warnings: ExportWarning[]): ExportNode[] {
  const sorted = [...nodes].sort((a, b) => compare(a.live.address, b.live.address) || compare(a.live.id, b.live.id));
  const out: ExportNode[] = [];
  for (const node of sorted) {
    const previous = out.at(-1);
    if (previous && previous.live.address === node.live.address) {
      warnings.push({
        address: node.live.address,
        message: `two live objects have this address (ids ${previous.live.id} and ${node.live.id}); only the first is exported`,
      });
      continue;
    }
    out.push(node);
  }
  return out;
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A live string as a manifest writes it: the loader replaces `${VAR}` with the environment
 * (docs/manifests.md), so a literal `${` is written `$${`.
 */
export function manifestString(text: string): string {
  return text.replaceAll('${', () => '$${');
}

/** A live value as YAML: object keys in the schema's order, then the others sorted. */
export function toYaml(value: unknown, pos: SchemaPos | undefined): YamlNode {
  if (typeof value === 'string') return manifestString(value);
  if (value === null || typeof value !== 'object') return value as YamlScalar;
  if (Array.isArray(value)) {
    const items = pos ? itemsOf(pos) : undefined;
    return value.map((v) => toYaml(v, items));
  }
  const record = value as Record<string, unknown>;
  const ordered = pos ? propertyNames(pos).filter((k) => k in record) : [];
  const rest = Object.keys(record)
    .filter((k) => !ordered.includes(k))
    .sort(compare);
  const map = new YamlMap();
  for (const key of [...ordered, ...rest]) {
    if (record[key] === undefined) continue;
    map.set(key, toYaml(record[key], pos ? property(pos, key) : undefined));
  }
  return map;
}
