import { kindOf, kinds } from '../kinds/index.js';
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
): Pick<PlanPart, 'liveCounts' | 'protectedAddresses' | 'holdsData' | 'preflight' | 'replaceDrops'> {
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
  let byAddress: Map<string, DesiredNode> | undefined;
  return {
    liveCounts,
    protectedAddresses,
    holdsData: (kind) => kindOf(kind).holdsData === true,
    replaceDrops: (change) => {
      if (change.action !== 'replace') return undefined;
      byAddress ??= new Map(desired.map((d) => [d.address, d]));
      return replaceDrops(change, byAddress, live);
    },
    preflight: (changes) => (permissions ? checkPermissions(changes, permissions) : []),
  };
}

/**
 * What replacing an object deletes with it and does not re-create: a replace deletes the live
 * object, and what lives below it with it; the plan re-creates the children the manifests
 * declare, and no other. The live children it read that nothing declares are named; a
 * collection of the object the document does not declare was not read, so what it holds is
 * unknown, and said so.
 */
function replaceDrops(change: Change, desired: ReadonlyMap<string, DesiredNode>, live: LiveState): string | undefined {
  const declared = new Set(desired.get(change.address)?.declaredCollections ?? []);
  const unread = kinds
    .filter((k) => k.collection !== undefined && k.parentKinds.includes(change.kind) && !declared.has(k.collection))
    .map((k) => k.collection as string);
  const undeclared = live.collections
    .filter((c) => c.parentAddress === change.address)
    .flatMap((c) => c.addresses.filter((a) => !desired.has(a)));
  const parts = [
    ...(undeclared.length > 0
      ? [`${undeclared.length} live object(s) below it the manifests do not declare (${list(undeclared)})`]
      : []),
    ...(unread.length > 0 ? [`whatever its ${unread.join(', ')} hold (not declared here, so not read)`] : []),
  ];
  return parts.length > 0 ? parts.join(', and ') : undefined;
}

function list(addresses: readonly string[]): string {
  const shown = addresses.slice(0, 3).join(', ');
  return addresses.length > 3 ? `${shown} and ${addresses.length - 3} more` : shown;
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
