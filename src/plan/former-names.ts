import { nearestAncestor } from '../core/address-prefix.js';
import type { PlanPart } from './part.js';
import type { Change } from './types.js';

/** A renamed object: its address now, and the one it was found under. */
export type Rename = readonly [address: string, previousAddress: string];

/**
 * The addresses a change's object went by before this plan: its own former address (a
 * rename), and the address it had under a renamed ancestor (`tenant/acme-group/subscription/
 * main` was `tenant/acme-corp/subscription/main`). A rule or a window written for the old
 * name covers the same live object under the new one, and what is below it.
 *
 * The renames are every declared object the plan found live under a former name, not only
 * those the plan changes: under `--target` a renamed tenant is kept for what is below it and
 * changes nothing itself, yet what is below it went by the old name too. Build it with
 * {@link formerNamesOf}; the renames are gathered on the first question (a large estate's
 * live objects are walked only when a window or a rule asks).
 */
export class FormerNames {
  /** Renamed objects: new address → former address. */
  private renamed: Map<string, string> | undefined;

  constructor(private readonly renames: Iterable<Rename>) {}

  /** The change's address and the former ones. */
  of(change: Pick<Change, 'address' | 'previousAddress'>): string[] {
    const names = [change.address];
    if (change.previousAddress) names.push(change.previousAddress);
    this.renamed ??= new Map(this.renames);
    if (this.renamed.size === 0) return names;
    const renamed = this.renamed;
    // The nearest renamed ancestor: a renamed tenant's renamed subscription names what is below it.
    const now = nearestAncestor(change.address, (a) => renamed.has(a));
    if (now !== undefined) names.push(`${renamed.get(now)}${change.address.slice(now.length)}`);
    return names;
  }
}

/** The former names of a plan: every part's renames, whatever `--target` kept of them. */
export function formerNamesOf(parts: readonly Pick<PlanPart, 'renames'>[]): FormerNames {
  return new FormerNames({
    *[Symbol.iterator]() {
      for (const part of parts) yield* part.renames?.() ?? [];
    },
  });
}
