import type { DesiredObject, DesiredSet } from '../manifest/index.js';
import type { DesiredNode } from '../state/types.js';

/**
 * The manifest loader's platform objects as the planner's nodes. The loader names every
 * object by the kind table's own kinds, so nothing is renamed here.
 */
export function toDesiredNodes(set: DesiredSet): DesiredNode[] {
  return set.platformObjects().map((o) => toNode(o, set));
}

function toNode(object: DesiredObject, set: DesiredSet): DesiredNode {
  const node: DesiredNode = {
    kind: object.kind,
    address: object.address,
    fields: object.fields,
    prune: object.prune,
    protect: object.protect,
    declaredCollections: object.declaredCollections,
    sensitiveFields: object.sensitiveFields,
  };
  if (object.parentAddress !== undefined) node.parentAddress = object.parentAddress;
  if (object.parentRef) node.parentRef = { ...object.parentRef };
  if (object.previousAddresses) node.previousAddresses = object.previousAddresses;
  if (object.pinnedId !== undefined) node.pinnedId = object.pinnedId;
  // Positions cost more to compute than the whole parse: only the objects a plan shows ask.
  Object.defineProperty(node, 'source', {
    enumerable: true,
    get: () => {
      const at = set.sourceOf(object);
      return at ? `${at.file}:${at.line}:${at.column}` : undefined;
    },
  });
  return node;
}
