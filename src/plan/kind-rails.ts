import { compareKeys } from '../core/canonical-json.js';
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
  let below: Subtrees | undefined;
  return {
    liveCounts,
    protectedAddresses,
    holdsData: (kind) => kindOf(kind).holdsData === true,
    replaceDrops: (change) => {
      if (change.action !== 'replace') return undefined;
      // Indexed once per plan, on the first replace: a national plan reads 250,000 objects.
      below ??= subtrees(desired, live);
      return replaceDrops(change, below);
    },
    preflight: (changes) => (permissions ? checkPermissions(changes, permissions) : []),
  };
}

/** The declared and live objects by the address of their parent, for walking below a replace. */
interface Subtrees {
  declared: ReadonlyMap<string, DesiredNode>;
  declaredBelow: ReadonlyMap<string, readonly DesiredNode[]>;
  /** Addresses of the live objects the read listed, by their parent's address. */
  listedBelow: ReadonlyMap<string, readonly string[]>;
  live: LiveState;
}

function subtrees(desired: readonly DesiredNode[], live: LiveState): Subtrees {
  const declaredBelow = new Map<string, DesiredNode[]>();
  for (const node of desired) if (node.parentAddress !== undefined) push(declaredBelow, node.parentAddress, node);
  const listedBelow = new Map<string, string[]>();
  for (const { parentAddress, addresses } of live.collections)
    if (parentAddress !== undefined) for (const address of addresses) push(listedBelow, parentAddress, address);
  return { declared: new Map(desired.map((d) => [d.address, d])), declaredBelow, listedBelow, live };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}

/**
 * What replacing an object deletes with it and does not re-create: a replace deletes the live
 * object, and everything that lives below it, at every depth; the plan re-creates the
 * declared objects below it, and no other. So at every level of what it re-creates, the live
 * children it read that nothing declares are named (what lives below them goes with them),
 * and the collections a document does not declare were not read, so what they hold is
 * unknown, and said so.
 */
function replaceDrops(change: Change, below: Subtrees): string | undefined {
  const undeclared = new Set<string>();
  const unread: { address: string; collections: string[] }[] = [];
  const visited = new Set<string>();
  const pending = [change.address];
  for (let address = pending.pop(); address !== undefined; address = pending.pop()) {
    if (visited.has(address)) continue;
    visited.add(address);
    // Only declared objects are walked (the replaced one, and what is re-created below it).
    const node = below.declared.get(address);
    const declared = node?.declaredCollections ?? [];
    const missing = childCollections(node?.kind ?? change.kind).filter((c) => !declared.includes(c));
    if (missing.length > 0) unread.push({ address, collections: missing });
    for (const child of below.listedBelow.get(address) ?? []) {
      if (below.declared.has(child)) pending.push(child);
      else undeclared.add(child);
    }
    // Declared and live though no list names it (a kind assumed to exist): what is below it goes too.
    for (const child of below.declaredBelow.get(address) ?? [])
      if (below.live.byAddress.has(child.address)) pending.push(child.address);
  }
  const named = [...undeclared].sort(compareKeys);
  const own = unread.find((u) => u.address === change.address)?.collections ?? [];
  const deeper = unread
    .filter((u) => u.address !== change.address)
    .sort((a, b) => compareKeys(a.address, b.address))
    .map((u) => `the ${u.collections.join(', ')} of ${u.address}`);
  const parts = [
    ...(named.length > 0
      ? [`${named.length} live object(s) below it the manifests do not declare (${list(named)})`]
      : []),
    ...(own.length > 0 ? [`whatever its ${own.join(', ')} hold (not declared here, so not read)`] : []),
    ...(deeper.length > 0 ? [`whatever ${list(deeper)} hold (not declared there, so not read)`] : []),
  ];
  return parts.length > 0 ? parts.join(', and ') : undefined;
}

/** The collections an object of a kind can have, from the kind table (computed once per kind). */
const collectionsByKind = new Map<string, readonly string[]>();

function childCollections(kindName: string): readonly string[] {
  let found = collectionsByKind.get(kindName);
  if (!found) {
    found = kinds.flatMap((k) =>
      k.collection !== undefined && k.parentKinds.includes(kindName) ? [k.collection] : [],
    );
    collectionsByKind.set(kindName, found);
  }
  return found;
}

function list(items: readonly string[]): string {
  const shown = items.slice(0, 3).join(', ');
  return items.length > 3 ? `${shown} and ${items.length - 3} more` : shown;
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
