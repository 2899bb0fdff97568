import type { DesiredObject, DesiredSet } from '../manifest/index.js';
import type { DesiredNode } from '../state/types.js';

/**
 * The manifest loader's platform objects as the planner's nodes. The loader names every
 * object by the kind table's own kinds, so nothing is renamed here.
 */
export function toDesiredNodes(set: DesiredSet): DesiredNode[] {
  return set.platformObjects().map((o) => toNode(o, set));
}

/** Where a node's manifest object and set are kept: its position is computed on demand. */
const MANIFEST_OBJECT = Symbol('manifestObject');
const MANIFEST_SET = Symbol('manifestSet');

interface ManifestNode extends DesiredNode {
  [MANIFEST_OBJECT]: DesiredObject;
  [MANIFEST_SET]: DesiredSet;
}

/**
 * Positions cost more to compute than the whole parse: only the objects a plan shows ask,
 * through a getter on the nodes' prototype. An own getter per node (defineProperty) put
 * every node in dictionary mode: about 500 bytes each, 125 MB at 250,000 objects.
 * The symbols are enumerable own properties, so a copy (`{ ...node }`) keeps its position.
 */
const manifestNodePrototype = {
  get source(): string | undefined {
    const self = this as unknown as ManifestNode;
    const at = self[MANIFEST_SET].sourceOf(self[MANIFEST_OBJECT]);
    return at ? `${at.file}:${at.line}:${at.column}` : undefined;
  },
};

/** The planner's node of one manifest object of `set`. */
export function toNode(object: DesiredObject, set: DesiredSet): DesiredNode {
  const node = Object.create(manifestNodePrototype) as ManifestNode;
  node.kind = object.kind;
  node.address = object.address;
  node.fields = object.fields;
  node.prune = object.prune;
  node.protect = object.protect;
  node.declaredCollections = object.declaredCollections;
  node.sensitiveFields = object.sensitiveFields;
  node[MANIFEST_OBJECT] = object;
  node[MANIFEST_SET] = set;
  if (object.parentAddress !== undefined) node.parentAddress = object.parentAddress;
  if (object.parentRef) node.parentRef = { ...object.parentRef };
  if (object.previousAddresses) node.previousAddresses = object.previousAddresses;
  if (object.pinnedId !== undefined) node.pinnedId = object.pinnedId;
  return node;
}

/** A node with some fields replaced, on the same prototype: its position stays computable. */
export function copyNode(node: DesiredNode, patch: Partial<DesiredNode>): DesiredNode {
  return Object.assign(Object.create(Object.getPrototypeOf(node) as object) as DesiredNode, node, patch);
}
