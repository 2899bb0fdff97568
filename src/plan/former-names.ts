import { nearestAncestor } from '../core/address-prefix.js';
import type { Change } from './types.js';

/**
 * The addresses a change's object went by before this plan: its own former address (a
 * rename), and the address it had under a renamed ancestor (`tenant/acme-group/subscription/
 * main` was `tenant/acme-corp/subscription/main`). A rule or a window written for the old
 * name covers the same live object under the new one, and what is below it.
 */
export class FormerNames {
  /** Renamed objects: new address → former address. */
  private readonly renamed = new Map<string, string>();

  constructor(changes: readonly Pick<Change, 'address' | 'previousAddress'>[]) {
    for (const c of changes) if (c.previousAddress) this.renamed.set(c.address, c.previousAddress);
  }

  /** The change's address and the former ones. */
  of(change: Pick<Change, 'address' | 'previousAddress'>): string[] {
    const names = [change.address];
    if (change.previousAddress) names.push(change.previousAddress);
    if (this.renamed.size === 0) return names;
    // The nearest renamed ancestor: a renamed tenant's renamed subscription names what is below it.
    const now = nearestAncestor(change.address, (a) => this.renamed.has(a));
    if (now !== undefined) names.push(`${this.renamed.get(now)}${change.address.slice(now.length)}`);
    return names;
  }
}
