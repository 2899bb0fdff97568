import type { DesiredRoutingTable } from '../../manifest/index.js';
import type { DesiredNode } from '../../state/types.js';
import type { FormerNames } from '../former-names.js';
import type { CoverageReport } from '../coverage/types.js';
import type { CapacityRow, Change, PlanMessage } from '../types.js';

/** What a value looks like to a reference, a pattern or a `where` test: its text. */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The values a reference may name, or undefined when they could not be read (the rule is then unchecked). */
export type ReferenceValues = { has(value: string): boolean } | undefined;

/**
 * Everything the policy rules are checked against, gathered by the run layer from the
 * manifests, the providers' parts and the capacity pre-flight. The engine names no kind:
 * rules name kinds and tables as data, looked up here.
 */
export interface PolicyFacts {
  /** The declared platform objects in the plan's scope, as the platform planned them (canonical). */
  declared: readonly DesiredNode[];
  /** The declared routing tables in the plan's scope (their rows kept compact). */
  tables: readonly DesiredRoutingTable[];
  /** Every change of the plan. */
  changes: readonly Change[];
  /** The plan's renames, whatever --target kept (formerNamesOf): a forbid rule holds under an old name. None when absent. */
  former?: FormerNames;
  /** Live objects in scope by kind (every provider's). */
  liveCounts: ReadonlyMap<string, number>;
  /** Live rows in scope by routing table address. */
  tableLiveCounts: ReadonlyMap<string, number>;
  /** The Capacity section's rows. */
  capacity: readonly CapacityRow[];
  /** The Emergency coverage section, read when a rule bounds it. */
  coverage?: CoverageReport;
  /** The values a reference rule may name, by rule id (read before the rules are checked). */
  references: ReadonlyMap<string, ReferenceValues>;
  /** `file:line:col` of a declared object's field (or of the object), when there is one. */
  sourceOf(address: string, field?: string): string | undefined;
}

/** What the rules found: violations of error rules (refusals) and the rest (warnings). */
export interface PolicyOutcome {
  errors: PlanMessage[];
  warnings: PlanMessage[];
}
