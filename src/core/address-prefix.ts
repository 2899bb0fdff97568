/**
 * Addresses are paths (`tenant/acme/subscription/main`): an object's ancestors are the
 * prefixes that end before a `/`. Looking an address's ancestors up in a set costs one probe
 * per segment, where testing every member with startsWith costs one per member: plans at
 * national scale hold tens of thousands of renamed, excluded or warned addresses.
 */

/** The nearest strict ancestor of `address` that `has` holds, else undefined. */
export function nearestAncestor(address: string, has: (candidate: string) => boolean): string | undefined {
  for (let at = address.lastIndexOf('/'); at > 0; at = address.lastIndexOf('/', at - 1)) {
    const candidate = address.slice(0, at);
    if (has(candidate)) return candidate;
  }
  return undefined;
}

/** Whether `address` or one of its ancestors is in `set`. */
export function atOrBelowAny(address: string, set: ReadonlySet<string>): boolean {
  return set.has(address) || nearestAncestor(address, (a) => set.has(a)) !== undefined;
}
