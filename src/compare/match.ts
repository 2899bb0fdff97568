import type { DesiredObject } from '../manifest/index.js';
import type { RenameEvidence } from './types.js';

/** An object of A and an object of B recognised as the same object. */
export interface Pair {
  a: DesiredObject;
  b: DesiredObject;
  /** Set when their addresses differ: what recognised them. */
  renamedBy?: RenameEvidence;
}

export interface Matching {
  pairs: Pair[];
  /** In B only. */
  added: DesiredObject[];
  /** In A only. */
  removed: DesiredObject[];
}

/**
 * Pairs the objects of two trees by address, and an object whose address differs when the
 * trees say it is the same one: B names A's address in `metadata.renamedFrom` (or A names
 * B's, for a comparison of a newer tree with an older one), both carry the same
 * `metadata.uuid`, or its parent was renamed (a subscription of a renamed tenant). An
 * address present on both sides is always the same object there: a rename is only
 * recognised between an address found in A alone and one found in B alone. Parents are
 * paired before their children (an address is a prefix of its children's), so a child is
 * looked for under its parent's address in A.
 */
export function matchObjects(aObjects: Iterable<DesiredObject>, bObjects: Iterable<DesiredObject>): Matching {
  const a = new Map<string, DesiredObject>();
  for (const o of aObjects) a.set(o.address, o);
  const b = [...bObjects].sort((x, y) => x.address.length - y.address.length);
  const bAddresses = new Set(b.map((o) => o.address));
  /** A addresses already paired. */
  const taken = new Set<string>();
  const onlyInA = (address: string | undefined) =>
    address !== undefined && a.has(address) && !bAddresses.has(address) && !taken.has(address);
  /** B address → A address of each pair. */
  const aOf = new Map<string, string>();
  const byUuid = new Map<string, DesiredObject>();
  const byFormerName = new Map<string, DesiredObject>();
  for (const o of a.values()) {
    if (o.pinnedId !== undefined) byUuid.set(`${o.kind}\0${o.pinnedId}`, o);
    for (const former of o.previousAddresses ?? []) byFormerName.set(former, o);
  }
  const pairs: Pair[] = [];
  const added: DesiredObject[] = [];
  const pair = (from: DesiredObject, to: DesiredObject, renamedBy?: RenameEvidence) => {
    taken.add(from.address);
    aOf.set(to.address, from.address);
    pairs.push(renamedBy ? { a: from, b: to, renamedBy } : { a: from, b: to });
  };
  for (const o of b) {
    const same = a.get(o.address);
    if (same) {
      pair(same, o);
      continue;
    }
    // Under a renamed parent, the object's own address in A is the parent's A address plus its own part.
    const parentInA = o.parentAddress === undefined ? undefined : aOf.get(o.parentAddress);
    const moved = (address: string): string =>
      parentInA !== undefined && o.parentAddress !== undefined && address.startsWith(`${o.parentAddress}/`)
        ? `${parentInA}${address.slice(o.parentAddress.length)}`
        : address;
    if (parentInA !== undefined && parentInA !== o.parentAddress && onlyInA(moved(o.address))) {
      pair(a.get(moved(o.address)) as DesiredObject, o, 'parent');
      continue;
    }
    const former = (o.previousAddresses ?? []).map(moved).find(onlyInA);
    if (former !== undefined) {
      pair(a.get(former) as DesiredObject, o, 'renamedFrom');
      continue;
    }
    const pinned = o.pinnedId === undefined ? undefined : byUuid.get(`${o.kind}\0${o.pinnedId}`);
    if (pinned && onlyInA(pinned.address)) {
      pair(pinned, o, 'uuid');
      continue;
    }
    const namedLater = byFormerName.get(o.address);
    if (namedLater && namedLater.kind === o.kind && onlyInA(namedLater.address)) {
      pair(namedLater, o, 'renamedFrom');
      continue;
    }
    added.push(o);
  }
  const removed = [...a.values()].filter((o) => !taken.has(o.address));
  return { pairs, added, removed };
}
