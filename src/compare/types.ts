/**
 * A comparison of two manifest trees: plain data, rendered by the renderers of this folder
 * (text, markdown, JSON, CSV, HTML). Values are in manifest spelling, normalised as the
 * planner compares them; a sensitive value is never held, only the SENSITIVE marker.
 */

export const COMPARISON_FORMAT_VERSION = 1;

/** How an object of B relates to A. */
export type DifferenceType = 'added' | 'removed' | 'changed' | 'renamed';

/** Every difference type, in the order they are listed and counted. */
export const DIFFERENCE_TYPES: readonly DifferenceType[] = ['removed', 'added', 'renamed', 'changed'];

/** How a pair of objects at different addresses was recognised as one object. */
export type RenameEvidence = 'renamedFrom' | 'uuid' | 'parent';

/**
 * One field that differs. A side without the key does not declare the field (it is
 * unmanaged there); `null` is a declared null. Sensitive values are the SENSITIVE marker,
 * compared by digest.
 */
export interface FieldDifference {
  field: string;
  before?: unknown;
  after?: unknown;
  sensitive?: true;
}

export interface ObjectDifference {
  type: DifferenceType;
  /** The address in B (in A for a removed object). */
  address: string;
  kind: string;
  /** The address in A of an object found in B under another address (a rename, or a renamed parent). */
  previousAddress?: string;
  /** What recognised it: `metadata.renamedFrom`, the same `metadata.uuid`, or a renamed parent. */
  renamedBy?: RenameEvidence;
  /** Added and removed: every declared field; changed and renamed: the fields that differ. */
  fields: FieldDifference[];
  /** file:line:col in A and in B. */
  sourceA?: string;
  sourceB?: string;
}

/** What one `--ignore` pattern hid. */
export interface IgnoredFields {
  pattern: string;
  /** Field differences it hid. */
  differences: number;
  /** Objects that had one. */
  objects: number;
  /** Objects that differed only in ignored fields, now counted as the same. */
  objectsNowSame: number;
}

export interface TreeSummary {
  /** The paths as given. */
  paths: string[];
  files: number;
  objects: number;
  /** `sha256:` of the normalised desired set, as `validate --format json` and a plan file give it. */
  digest: string;
}

export interface Comparison {
  formatVersion: typeof COMPARISON_FORMAT_VERSION;
  a: TreeSummary;
  b: TreeSummary;
  summary: Record<DifferenceType, number> & { same: number };
  /** Sorted by address; renamed objects under their new address. */
  differences: ObjectDifference[];
  /** Every `--ignore` pattern, in the order given, with what it hid (zero included). */
  ignored: IgnoredFields[];
}

/** Whether the trees differ (exit 2). */
export function differs(comparison: Comparison): boolean {
  return comparison.differences.length > 0;
}
