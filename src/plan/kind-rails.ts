import { kindOf } from '../kinds/index.js';
import type { DesiredNode, LiveState } from '../state/types.js';
import type { PlanPart } from './part.js';
import type { PermissionCheck } from './safety.js';
import type { Change, PlanMessage } from './types.js';

/**
 * What the safety rails need to know of the kind table's objects: the live objects in
 * scope by kind, the declared protected addresses, which kinds hold data (a replace needs
 * --allow-replace) and, when the caller's api_rules are known, which planned requests they
 * refuse.
 */
export function kindRails(
  desired: readonly DesiredNode[],
  live: LiveState,
  permissions?: PermissionCheck,
): Pick<PlanPart, 'liveCounts' | 'protectedAddresses' | 'holdsData' | 'preflight'> {
  const liveCounts = new Map<string, number>();
  for (const { kind, addresses } of live.collections)
    liveCounts.set(kind, (liveCounts.get(kind) ?? 0) + addresses.length);
  // A protected document's objects, and what lives in the collections they declare: "never
  // deleted or replaced, nor anything nested in the document" covers what a prune would delete there.
  const protectedNodes = new Set(desired.filter((d) => d.protect).map((d) => d.address));
  const protectedAddresses = new Set(protectedNodes);
  for (const { parentAddress, addresses } of live.collections)
    if (parentAddress !== undefined && protectedNodes.has(parentAddress))
      for (const address of addresses) protectedAddresses.add(address);
  return {
    liveCounts,
    protectedAddresses,
    holdsData: (kind) => kindOf(kind).holdsData === true,
    preflight: (changes) => (permissions ? checkPermissions(changes, permissions) : []),
  };
}

/**
 * Pending ids (`{id:ADDRESS}`) stand for objects this plan creates: the rules are matched
 * with an id of the shape the platform will assign (a uuid or an integer).
 */
function placeholderFor(address: string, kindByAddress: ReadonlyMap<string, string>): string {
  const kind = kindByAddress.get(address);
  const created = kind === undefined ? undefined : kindOf(kind).createdId;
  return created?.from === 'body' && created.field === 'uuid' ? '00000000-0000-4000-8000-000000000000' : '1';
}

function checkPermissions(changes: readonly Change[], permissions: PermissionCheck): PlanMessage[] {
  const refusals: PlanMessage[] = [];
  const kindByAddress = new Map(changes.map((c) => [c.address, c.kind]));
  for (const change of changes) {
    for (const request of change.requests) {
      const path = request.path.replace(/\{id:([^}]*)\}/g, (_m, address: string) =>
        placeholderFor(address, kindByAddress),
      );
      if (permissions.check(request.method, path).allowed) continue;
      const role = request.role ?? 'unknown role';
      const message = `${request.method} ${request.path} is not allowed by the caller's api_rules (role ${role})`;
      const refusal: PlanMessage = { code: 'SB_PERMISSION', address: change.address, message };
      if (request.role) refusal.role = request.role;
      refusals.push(refusal);
    }
  }
  return refusals;
}
