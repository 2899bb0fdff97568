import { SwitchboardError } from '../core/errors.js';
import { kindOf } from '../kinds/index.js';
import type { KindContext } from '../kinds/types.js';
import type { DesiredNode } from '../state/types.js';
import { copyNode } from './desired.js';
import type { PlanMessage } from './types.js';

/**
 * Applies the kinds' canonicalize hooks (e.g. an entitlement declared by type id is
 * identified by its type's name) before anything is read. Unknown references and objects
 * declared twice that way are problems (exit 1); a reference list that cannot be read is thrown.
 */
export async function canonicalize(
  nodes: readonly DesiredNode[],
  ctx: KindContext,
  problems: PlanMessage[],
): Promise<DesiredNode[]> {
  const seen = new Set<string>();
  const result: DesiredNode[] = [];
  for (const node of nodes) {
    const hook = kindOf(node.kind).canonicalize;
    let next = node;
    if (hook) {
      try {
        const { address, fields } = await hook(node, ctx);
        if (address !== node.address) next = copyNode(node, { address, fields, declaredAs: node.address });
      } catch (error) {
        // An unknown reference is the manifest's problem; a failed or misread reference-data
        // read is not (it fails the run naming its request, like any other read).
        if (!(error instanceof SwitchboardError) || error.code !== 'SB_UNKNOWN_REFERENCE') throw error;
        problems.push({ code: error.code, address: node.address, message: error.message });
        continue;
      }
    }
    if (seen.has(next.address)) {
      problems.push({
        code: 'SB_DUPLICATE_ADDRESS',
        address: next.address,
        message: `declared twice (once by type id): ${node.source ?? node.address}`,
      });
      continue;
    }
    seen.add(next.address);
    result.push(next);
  }
  return result;
}
