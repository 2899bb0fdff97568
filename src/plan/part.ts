import type { DesiredNode } from '../state/types.js';
import type { Change, PlanMessage, ProviderName, VectorChange, VectorFailing } from './types.js';

/** A live object in scope that the manifests do not declare and that is not pruned. */
export interface UnmanagedObject {
  address: string;
  kind: string;
  id?: string;
}

/**
 * One provider's part of a plan: its changes and findings, and what the safety rails need
 * to know about them. The providers (src/providers/) make parts; the plan is assembled from
 * them (make-plan.ts) and checked by the rails (safety.ts), which never name a provider or
 * a kind.
 */
export interface PlanPart {
  provider: ProviderName;
  /** Its changes, in the order they apply; each carries `provider`. */
  changes: Change[];
  /** Declared objects that already match. */
  noop: number;
  /** Unmanaged live objects the plan lists by address. */
  unmanaged: UnmanagedObject[];
  /** Unmanaged live objects only counted (the rows of a big table). */
  unmanagedCount: number;
  warnings: PlanMessage[];
  /** Constraints of the API a change would break (refusals: exit 3 on apply). */
  refusals: PlanMessage[];
  /** Mistakes that make the plan impossible (exit 1). */
  problems: PlanMessage[];
  /** Live objects in scope by kind: what the delete-share rail takes a share of. */
  liveCounts: ReadonlyMap<string, number>;
  /** Live objects in scope by the address of the table holding them (a routing table's rows): a policy threshold's share. */
  liveCountsIn?: ReadonlyMap<string, number>;
  /** Declared addresses marked `metadata.protect: true`: never deleted or replaced. */
  protectedAddresses: ReadonlySet<string>;
  /** Whether replacing an object of this kind deletes data it holds (refused without --allow-replace). */
  holdsData(kind: string): boolean;
  /**
   * What a replace would take with it that the plan does not re-create (live objects at any
   * depth below it the manifests do not declare, or collections not read), said for the
   * refusal; none: it re-creates everything below it. A replace that drops something needs
   * --allow-replace.
   */
  replaceDrops?(change: Change): string | undefined;
  /** Declared addresses as this provider planned them (after canonicalisation), for the target check. */
  declaredAddresses: readonly string[];
  /** The declared objects as this provider planned them (canonical fields), for the policy rules; absent for row tables. */
  declaredObjects?: readonly DesiredNode[];
  /** Live addresses it read (an `--exclude` may name an undeclared live object); empty for row tables. */
  liveAddresses(): Iterable<string>;
  /**
   * Every declared object it found live under a former name (`renamedFrom`, a pinned uuid),
   * as [address, previous address]: those outside `--target` too, kept only for what is below
   * them. Windows and rules written for the old names hold under the new ones (former-names.ts).
   */
  renames?(): Iterable<readonly [address: string, previousAddress: string]>;
  /**
   * The live id of an object it read, by address: what a request path's ids stand for (the
   * change set compares paths with ids replaced by addresses). Absent when only a change's
   * own id appears in its paths (a routing row).
   */
  liveIdOf?(address: string): string | undefined;
  /**
   * The RoutingTest vectors whose answer its changes change, and those the rows it leaves will
   * fail (the first listed, all counted): docs/assurance.md.
   */
  vectorChanges?: { changed: VectorChange[]; count: number; failing: VectorFailing[]; failingCount: number };
  /** Permission pre-flight: a refusal for each request of `changes` the caller's credentials do not allow. */
  preflight(changes: readonly Change[]): PlanMessage[];
}
