import type { DesiredObject, DesiredSet } from '../manifest/index.js';
import type { DesiredNode } from '../state/types.js';

/**
 * The manifest loader's objects as the planner's nodes. The loader names trunk-group lists
 * by one kind with a `listType` field; the kind table has one kind per list type, because
 * their endpoints and roles differ.
 */
const listKinds: Record<string, string> = { block_list: 'TrunkGroupBlockList', allow_list: 'TrunkGroupAllowList' };

export function toDesiredNodes(set: DesiredSet): DesiredNode[] {
  return set.objects.filter((o) => o.kind !== 'RoutingTable' && o.kind !== 'RoutingRow').map((o) => toNode(o, set));
}

function toNode(object: DesiredObject, set: DesiredSet): DesiredNode {
  let kind: string = object.kind;
  let fields: Record<string, unknown> = object.fields;
  if (kind === 'TrunkGroupCallingPlan') {
    const { listType, ...rest } = object.fields;
    kind = listKinds[String(listType)] ?? kind;
    fields = rest;
  }
  const node: DesiredNode = {
    kind,
    address: object.address,
    fields,
    prune: object.prune,
    protect: object.protect,
    declaredCollections: object.declaredCollections,
    sensitiveFields: object.sensitiveFields,
  };
  if (object.parentAddress !== undefined) node.parentAddress = object.parentAddress;
  if (object.parentRef) node.parentRef = { ...object.parentRef };
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
