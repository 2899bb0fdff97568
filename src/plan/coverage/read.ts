import { kindOf, kinds } from '../../kinds/index.js';
import type { KindDefinition, LiveObject } from '../../kinds/types.js';
import type { Change } from '../types.js';
import type { AddressInUse, CoverageEffect, CoverageList, CoverageReport, CoverageScope } from './types.js';

/** What the coverage read needs of a run: the parents in scope, the plan's changes, a list of a kind under a parent. */
export interface CoverageInput {
  /** Live objects of the kinds numbers live under (subscriptions) that the plan's scope declares. */
  scopes: readonly LiveObject[];
  /** The platform's planned changes. */
  changes: readonly Change[];
  /** The live objects of a kind under a live parent, listed once per run (the plan's own reader). */
  list(kind: string, parent: LiveObject): Promise<LiveObject[]>;
  /** Items listed per list of the report; null lists them all (counts are always whole). */
  listLimit: number | null;
}

/** The kinds whose objects are numbers linked to emergency addresses (a `coverage` column). */
export function linkKinds(): KindDefinition[] {
  return kinds.filter((k) => k.coverage !== undefined && k.manifest.refersTo !== undefined);
}

/**
 * The Emergency coverage section: for each parent in scope, its numbers and addresses
 * listed (one list request per page, through the plan's reader: a collection the plan read
 * already is not read again), and what the plan's changes do to them. Generic over the
 * kind table: the `coverage` column says which kind holds the links, its `refersTo` which
 * kind they name.
 */
export async function readCoverage(input: CoverageInput): Promise<CoverageReport> {
  const ordered = [...input.scopes].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  const changesUnder = changesByScope(ordered, input.changes);
  // Every parent's lists at once: the client's concurrency limit bounds them, as it bounds the
  // plan's own reads (one after the other, thousands of subscriptions would take minutes).
  const scopes = await Promise.all(
    linkKinds().flatMap((linkKind) =>
      ordered
        .filter((parent) => linkKind.parentKinds.includes(parent.kind))
        .map((p) => scopeOf(linkKind, p, input, changesUnder.get(p.address) ?? [])),
    ),
  );
  return { scopes, listLimit: input.listLimit };
}

/**
 * The changes below each scope's address, now or before a rename (in plan order): found
 * through each change's ancestors' addresses, where filtering every change for every scope
 * was quadratic (50,000 subscriptions × thousands of changes).
 */
function changesByScope(scopes: readonly LiveObject[], changes: readonly Change[]): Map<string, Change[]> {
  const out = new Map<string, Change[]>(scopes.map((s) => [s.address, []]));
  for (const change of changes) {
    const seen = new Set<string>();
    for (const address of new Set([change.address, change.previousAddress ?? change.address])) {
      for (let slash = address.indexOf('/'); slash !== -1; slash = address.indexOf('/', slash + 1)) {
        const ancestor = address.slice(0, slash);
        const list = out.get(ancestor);
        if (list && !seen.has(ancestor)) {
          seen.add(ancestor);
          list.push(change);
        }
      }
    }
  }
  return out;
}

async function scopeOf(
  linkKind: KindDefinition,
  parent: LiveObject,
  input: CoverageInput,
  changes: readonly Change[],
): Promise<CoverageScope> {
  const refersTo = linkKind.manifest.refersTo as NonNullable<KindDefinition['manifest']['refersTo']>;
  const addressKind = kindOf(refersTo.kind);
  const [links, addresses] = await Promise.all([
    input.list(linkKind.kind, parent),
    input.list(addressKind.kind, parent),
  ]);
  const linkOf = (o: LiveObject) => (linkKind.coverage as NonNullable<KindDefinition['coverage']>).linkOf(o);
  const name = (kind: KindDefinition, o: LiveObject) => kind.identity(o.fields);
  const list = (names: string[]) => listOf(names, input.listLimit);
  const linked = new Set<string>();
  const without: string[] = [];
  const unverified: string[] = [];
  const unknown: string[] = [];
  for (const link of links) {
    const { id, verified } = linkOf(link);
    if (id === null) without.push(name(linkKind, link));
    else {
      linked.add(id);
      if (verified === false) unverified.push(name(linkKind, link));
      else if (verified === null) unknown.push(name(linkKind, link));
    }
  }
  const { unlinked, ...effect } = effectOf(linkKind, addressKind, parent, links, addresses, input, changes);
  return {
    address: parent.address,
    numbers: links.length,
    withoutAddress: list(without),
    unverified: list(unverified),
    verificationUnknown: list(unknown),
    unusedAddresses: list(addresses.filter((a) => !linked.has(a.id)).map((a) => name(addressKind, a))),
    effect: { ...effect, withoutAddressAfter: without.length - effect.linksAdded.count + unlinked },
  };
}

/** Whether a link change leaves its number with an address (its `refersTo` field after the change). */
function linksSomewhere(change: Change, field: string): boolean {
  const after = change.after?.[field];
  return after !== undefined && after !== null && after !== '';
}

/** What the plan's changes under a parent do to its links and addresses. */
function effectOf(
  linkKind: KindDefinition,
  addressKind: KindDefinition,
  parent: LiveObject,
  links: readonly LiveObject[],
  addresses: readonly LiveObject[],
  input: CoverageInput,
  /** The plan's changes below `parent`, now or before a rename (changesByScope). */
  below: readonly Change[],
): Omit<CoverageEffect, 'withoutAddressAfter'> & { unlinked: number } {
  const under = `${parent.address}/`;
  const changes = below.filter((c) => c.address.startsWith(under));
  const linkByAddress = new Map(links.map((l) => [l.address, l]));
  const coverage = linkKind.coverage as NonNullable<KindDefinition['coverage']>;
  const field = (linkKind.manifest.refersTo as NonNullable<KindDefinition['manifest']['refersTo']>).field;
  const added: string[] = [];
  const moved: string[] = [];
  // Linked numbers the plan leaves without an address: a link change to none, or their address
  // deleted or replaced and no relink (allowed by --allow-address-in-use). By link address: counted once.
  const unlinked = new Set<string>();
  for (const change of changes) {
    if (change.kind !== linkKind.kind || change.action === 'delete') continue;
    const live = linkByAddress.get(change.previousAddress ?? change.address);
    if (!live) continue;
    const hadOne = coverage.linkOf(live).id !== null;
    if (!linksSomewhere(change, field)) {
      if (hadOne) unlinked.add(live.address);
    } else if (hadOne) moved.push(linkKind.identity(live.fields));
    else added.push(linkKind.identity(live.fields));
  }
  const addressById = new Map(addresses.map((a) => [a.id, a]));
  const inUse: AddressInUse[] = [];
  for (const change of changes) {
    if (change.kind !== addressKind.kind || change.action === 'create' || change.id === undefined) continue;
    const address = addressById.get(change.id);
    const users = links.filter((l) => coverage.linkOf(l).id === change.id);
    if (!address || users.length === 0) continue;
    const numbers = users.map((u) => linkKind.identity(u.fields));
    // The users are below parent: so is every change that relinks one of them (below holds them).
    const relinks = relinkedBy(below, linkKind, users, addressKind.identity(address.fields));
    const relinked = new Set(relinks.map((c) => c.previousAddress ?? c.address));
    // An update keeps the address's id, and its numbers their link; a delete or replace does not.
    if (change.action !== 'update') for (const u of users) if (!relinked.has(u.address)) unlinked.add(u.address);
    inUse.push({
      address: change.address,
      action: change.action,
      numbers: listOf(numbers, input.listLimit),
      relinked: relinks.length === users.length,
    });
  }
  return {
    linksAdded: listOf(added, input.listLimit),
    linksMoved: listOf(moved, input.listLimit),
    addressesInUse: inUse,
    unlinked: unlinked.size,
  };
}

/**
 * The changes of the plan that link some of `users` (link objects) to another address than
 * `identity`: a number moved away from an address before it is deleted.
 */
export function relinkedBy(
  changes: readonly Change[],
  linkKind: KindDefinition,
  users: readonly { address: string }[],
  identity: string,
): Change[] {
  const field = linkKind.manifest.refersTo?.field as string;
  const wanted = new Set(users.map((u) => u.address));
  return changes.filter((c) => {
    if (c.kind !== linkKind.kind || c.action === 'delete' || !wanted.has(c.previousAddress ?? c.address)) return false;
    return linksSomewhere(c, field) && String(c.after?.[field]) !== identity;
  });
}

/** Names sorted, counted whole, listed up to the limit. */
function listOf(names: readonly string[], limit: number | null): CoverageList {
  const sorted = [...names].sort();
  return { count: sorted.length, items: limit === null ? sorted : sorted.slice(0, limit) };
}
