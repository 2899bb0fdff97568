import { kinds } from '../kinds/index.js';
import type { KindDefinition, LiveObject } from '../kinds/types.js';
import type { ExportReader } from './reader.js';
import { collectionShape, property, propertyNames, type CollectionShape, type SchemaPos } from './schema-shape.js';

/** A collection of an exported object, as read. */
export type ChildCollection =
  | { kind: KindDefinition; state: 'listed'; shape: CollectionShape; nodes: ExportNode[] }
  /** The API cannot read this kind (administrators). */
  | { kind: KindDefinition; state: 'unreadable' }
  /** The API cannot list this kind (trunk groups: named by id only). */
  | { kind: KindDefinition; state: 'unlisted' };

/** One exported object, its schema position and its child collections by manifest key. */
export interface ExportNode {
  kind: KindDefinition;
  live: LiveObject;
  pos: SchemaPos;
  collections: Map<string, ChildCollection>;
}

const fieldsByPosition = new WeakMap<SchemaPos['node'], Map<KindDefinition, string[]>>();

/** Manifest fields a position may write that the kind reads (for the `detail` decision). */
function exportedFields(kind: KindDefinition, pos: SchemaPos): string[] {
  let byKind = fieldsByPosition.get(pos.node);
  if (!byKind) fieldsByPosition.set(pos.node, (byKind = new Map()));
  let fields = byKind.get(kind);
  if (!fields) {
    const names = new Set(propertyNames(pos));
    fields = kind.fields.filter((f) => f.change !== 'writeOnly' && names.has(f.name)).map((f) => f.name);
    byKind.set(kind, fields);
  }
  return fields;
}

/** The kinds whose objects live in a collection of `parent`'s objects, once per kind. */
const childKinds = new Map<string, KindDefinition[]>();
function childrenOf(parent: KindDefinition): KindDefinition[] {
  let list = childKinds.get(parent.kind);
  if (!list) {
    list = kinds.filter((k) => k.collection !== undefined && k.parentKinds.includes(parent.kind));
    childKinds.set(parent.kind, list);
  }
  return list;
}

/**
 * Reads every child collection of an object that its manifest position can hold,
 * recursively, through the kind table (kinds with a `collection` live nested in their
 * parent's document). Objects the API always has and never deletes (`isUndeletable`: the
 * default template) are left out: declaring them adds nothing a plan could change.
 */
export async function readTree(
  reader: ExportReader,
  kind: KindDefinition,
  live: LiveObject,
  pos: SchemaPos,
): Promise<ExportNode> {
  const node: ExportNode = { kind, live, pos, collections: new Map() };
  await Promise.all(
    childrenOf(kind).map(async (child) => {
      const key = child.collection as string;
      const at = property(pos, key);
      const shape = at && collectionShape(at);
      if (!shape) return;
      if (child.unreadable) return void node.collections.set(key, { kind: child, state: 'unreadable' });
      if (child.assumedToExist || !reader.listable(child, live))
        return void node.collections.set(key, { kind: child, state: 'unlisted' });
      const listed = (await reader.listOnce(child, live)).filter((l) => !child.isUndeletable?.(l.live));
      const nodes = await Promise.all(
        listed.map(async (l) => {
          const itemPos = shape.type === 'keyed' ? shape.itemFor(child.identity(l.live.fields)) : shape.item;
          if (!itemPos) return undefined;
          await reader.complete(child, l, live, exportedFields(child, itemPos));
          return readTree(reader, child, l.live, itemPos);
        }),
      );
      node.collections.set(key, {
        kind: child,
        state: 'listed',
        shape,
        nodes: nodes.filter((n): n is ExportNode => n !== undefined),
      });
    }),
  );
  return node;
}
