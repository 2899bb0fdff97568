import type { Change } from './types.js';

/**
 * The addresses a change's object went by before this plan: its own former address (a
 * rename), and the address it had under a renamed ancestor (`tenant/acme-group/subscription/
 * main` was `tenant/acme-corp/subscription/main`). A rule or a window written for the old
 * name covers the same live object under the new one, and what is below it.
 */
export class FormerNames {
  /** Renamed objects: new address → former address, longest first (the nearest ancestor wins). */
  private readonly renamed: [string, string][];

  constructor(changes: readonly Pick<Change, 'address' | 'previousAddress'>[]) {
    this.renamed = changes
      .flatMap((c): [string, string][] => (c.previousAddress ? [[c.address, c.previousAddress]] : []))
      .sort((a, b) => b[0].length - a[0].length);
  }

  /** The change's address and the former ones. */
  of(change: Pick<Change, 'address' | 'previousAddress'>): string[] {
    const names = [change.address];
    if (change.previousAddress) names.push(change.previousAddress);
    if (this.renamed.length === 0) return names;
    const below = this.renamed.find(([now]) => change.address.startsWith(`${now}/`));
    if (below) names.push(`${below[1]}${change.address.slice(below[0].length)}`);
    return names;
  }
}
