/**
 * The rules of `kind: Policy` documents as the loader hands them to the plan (docs/policies.md).
 * Rules name kinds, fields and tables as data: the loader checks those names against the kind
 * table and the routing tables, the plan's policy engine (src/plan/policy/) applies them.
 */
import type { LinearPattern } from './linear-pattern.js';
import type { JsonScalar } from './types.js';

export type PolicyAction = 'create' | 'update' | 'delete' | 'replace';

/** One test of `match.where` on a field's value. */
export type PolicyCondition =
  | { type: 'equals'; value: JsonScalar }
  | { type: 'in'; values: readonly JsonScalar[] }
  | { type: 'not'; value: JsonScalar }
  | { type: 'pattern'; pattern: LinearPattern };

/** The objects (or changes) a rule applies to. */
export interface PolicyMatch {
  kind: string;
  /** Rows of one routing table only: its address (`routing/<service>/<version>/<table>`). */
  table?: string;
  /** Only this address and what is below it; a trailing `*` matches by prefix. */
  address?: string;
  /** Field tests, all of which must pass. */
  where: readonly { field: string; test: PolicyCondition }[];
}

/**
 * A coverage figure's bound (docs/assurance.md): at most this many (the rule's severity
 * beyond), or `warn`: any at all is a warning, whatever the rule's severity.
 */
export type CoverageBound = number | 'warn';

/** The figures of the Emergency coverage section a `coverage` rule may bound. */
export const COVERAGE_FIGURES = ['numbersWithoutAddress', 'unverified', 'unusedAddresses'] as const;
export type CoverageFigure = (typeof COVERAGE_FIGURES)[number];

/** What a rule checks: one of six checks. */
export type PolicyCheck =
  | { type: 'limit'; field?: string; count?: string; min?: number; max?: number }
  | { type: 'require'; field: string; present: boolean; pattern?: LinearPattern; oneOf?: readonly JsonScalar[] }
  /** `table`: a routing table's address; `kind`: a kind of the kind table. */
  | { type: 'reference'; field: string; table?: string; kind?: string; key: string }
  /** `replacedBy`: of the replaces, only those these fields force (`Change.replacedBy`). */
  | { type: 'forbid'; actions: readonly PolicyAction[]; replacedBy?: readonly string[] }
  /** Shares in percent of the live objects in scope, checked when at least `min` exist. */
  | { type: 'threshold'; update?: number; delete?: number; min: number }
  /** Bounds on a parent of numbers' Emergency coverage section (the plan reads it for such a rule). */
  | { type: 'coverage'; bounds: Partial<Record<CoverageFigure, CoverageBound>> };

/** The capacity figures a `limit` may take as its field (the plan's Capacity section). */
export const CAPACITY_FIELDS: readonly string[] = ['headroom', 'assigned', 'reserved'];

/** One rule of a Policy document, checked against the kind table. */
export interface PolicyRule {
  id: string;
  /** The Policy document's name. */
  policy: string;
  severity: 'error' | 'warning';
  description?: string;
  match: PolicyMatch;
  check: PolicyCheck;
  /** `file:line:col` of the rule in its manifest. */
  source: string;
}
