/**
 * What the merge of a document with its baselines reads and says (merge.ts): a baseline as
 * the merge sees it, an override entry and an applied override, a finding it cannot decide,
 * and the comparisons of items and values every rule of docs/baselines.md uses.
 */
import { canonicalJson } from '../../core/canonical-json.js';
import { normalizeField } from '../../kinds/fields.js';
import type { Json } from '../build-context.js';
import { fieldsOf, type KindPlan } from '../kind-plans.js';
import type { NodePath } from '../positions.js';
import type { JsonValue } from '../types.js';
import type { Place } from './places.js';

/** A baseline as the merge sees it. */
export interface Baseline {
  name: string;
  /** `baseline/<name>`. */
  address: string;
  file: string;
  doc: number;
  /** `spec.selector`, as validated. */
  selector: Json;
  /** `spec.values`: the document's spec, partial. */
  values: Json;
  /** Pointers (from the document's root) of values that came from `${VAR}`. */
  sensitive: ReadonlySet<string>;
}

/** An item of a baseline addressed to an item of the document (by identity or by `select`). */
export interface Contribution {
  baseline: Baseline;
  item: Json;
}

/** One entry of the document's `metadata.overrides`. */
export interface OverrideEntry {
  index: number;
  path: string;
  reason: string;
  remove: boolean;
  used: boolean;
  /** A baseline sets the path to the document's very value (the override is stale). */
  equalTo?: string;
}

/** An override the merge applied: where the document differs from a baseline, and why. */
export interface AppliedOverride {
  path: string;
  reason: string;
  /** The baseline's value or item is left out. */
  remove: boolean;
  baseline: string;
  /** The baseline's value (a field's; absent for an item). */
  baselineValue?: JsonValue;
  /** The document's value (a field's, when it replaces the baseline's). */
  value?: JsonValue;
  /** The override's index in `metadata.overrides`. */
  entry: number;
  /** Where the baseline writes the value or item. */
  baselinePlace: Place;
}

/** A difference the merge cannot decide. */
export type MergeFinding =
  | {
      type: 'missing';
      path: string;
      at: NodePath;
      value: JsonValue;
      baseline: Baseline;
      baselineValue: JsonValue;
      baselinePlace: Place;
    }
  | { type: 'conflict'; path: string; first: Contribution; second: Contribution; key: string; places: [Place, Place] }
  | { type: 'remove-declared'; path: string; entry: OverrideEntry; at: NodePath };

/** The key `select` of a baseline's list item. */
export const SELECT = 'select';

/** The identity of an item (its map key, for a map's): what merges by key compare, and what paths write. */
export function keyOf(plan: KindPlan, item: Json, mapKey?: string): string {
  return plan.kind.identity(fieldsOf(plan, item, mapKey));
}

/** Whether an item's fields equal every value of a selection. */
export function selectionMatches(plan: KindPlan, selection: Json, item: Json): boolean {
  const fields = fieldsOf(plan, item);
  for (const [name, value] of Object.entries(selection)) {
    if (!Object.hasOwn(fields, name) || !sameValue(plan, name, fields[name] as JsonValue, value)) return false;
  }
  return true;
}

/** Two values of a field, compared as the planner compares them (the field table's normalisation). */
export function sameValue(plan: KindPlan, name: string, a: JsonValue, b: JsonValue): boolean {
  const spec = plan.kind.fields.find((f) => f.name === name);
  const x = spec ? normalizeField(spec, a) : a;
  const y = spec ? normalizeField(spec, b) : b;
  return x === y || canonicalJson(x) === canonicalJson(y);
}

export function isItem(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
