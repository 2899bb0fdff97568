import type { DesiredObject, DesiredSet } from '../manifest/index.js';
import type { DesiredNode } from '../state/types.js';
import { matchesPattern } from './targets.js';

/**
 * The manifest loader's platform objects as the planner's nodes. The loader names every
 * object by the kind table's own kinds, so nothing is renamed here.
 */
export function toDesiredNodes(set: DesiredSet): DesiredNode[] {
  return set.platformObjects().map((o) => toNode(o, set));
}

/**
 * The nodes of a scoped plan (`--changed-since`, or `apply --plan` of one): the objects
 * `targets` match with their subtrees, and their ancestors (without declared collections:
 * they exist first, nothing is pruned under them), in the manifests' order. The same nodes
 * as `selectTargets(toDesiredNodes(set), targets, [])`, without making a node of each of
 * 250,000 objects to keep a few (~0.3 s of a national pull request's plan, with its garbage).
 */
export function scopedNodes(set: DesiredSet, targets: readonly string[]): DesiredNode[] {
  if (targets.length === 0) return [];
  const objects = set.platformObjects();
  const selected = new Set<DesiredObject>();
  const ancestors = new Set<DesiredObject>();
  for (const object of objects) {
    if (!matchesAny(targets, object.address)) continue;
    selected.add(object);
    for (let parent = parentOf(set, object); parent !== undefined; parent = parentOf(set, parent)) {
      if (ancestors.has(parent)) break; // and its ancestors with it
      ancestors.add(parent);
    }
  }
  const nodes: DesiredNode[] = [];
  for (const object of objects) {
    if (selected.has(object)) nodes.push(toNode(object, set));
    else if (ancestors.has(object)) nodes.push(Object.assign(toNode(object, set), { declaredCollections: [] }));
  }
  return nodes;
}

function matchesAny(patterns: readonly string[], address: string): boolean {
  for (const pattern of patterns) if (matchesPattern(pattern, address)) return true;
  return false;
}

/** The declared parent among the platform's objects (a routing table is none: selectTargets does not see it). */
function parentOf(set: DesiredSet, object: DesiredObject): DesiredObject | undefined {
  const parent = object.parentAddress === undefined ? undefined : set.get(object.parentAddress);
  return parent && !set.routingTables.some((t) => t.table === parent) ? parent : undefined;
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

function toNode(object: DesiredObject, set: DesiredSet): DesiredNode {
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
