import { kindOf } from '../kinds/index.js';
import { fieldSpec, normalizeField } from '../kinds/fields.js';
import type { FieldSpec, KindDefinition, LiveObject } from '../kinds/types.js';
import type { DesiredNode, LastApplied } from '../state/types.js';
import { canonicalJson, digestOf } from '../core/canonical-json.js';
import { SENSITIVE, WRITE_ONLY } from './types.js';

/** The outcome of comparing one declared object with its live counterpart. */
export interface FieldDiff {
  /** Manifest names of the fields that differ. */
  changed: string[];
  /** True when a changed field cannot be updated (the object must be replaced). */
  needsReplace: boolean;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  sensitiveDigests: Record<string, string>;
}

/**
 * Compares only the declared fields (undeclared ones are unmanaged), after normalising both
 * sides. Write-only fields compare the declared value's digest with the last applied one.
 */
export function diffFields(desired: DesiredNode, live: LiveObject, lastApplied: LastApplied): FieldDiff {
  const kind = kindOf(desired.kind);
  const result: FieldDiff = { changed: [], needsReplace: false, before: {}, after: {}, sensitiveDigests: {} };
  const applied = lastApplied.get(desired.address)?.digests ?? {};
  for (const [name, value] of Object.entries(desired.fields)) {
    const spec = fieldSpec(kind.fields, name);
    if (!spec) continue;
    if (spec.change === 'writeOnly' || live.fromRecord) {
      const digest = recordedDigest(spec, value);
      if (applied[name] === digest) continue;
      result.changed.push(name);
      // The API never returns it: all we know of the old value is that it differs (or was never sent).
      result.before[name] = WRITE_ONLY;
      result.after[name] = isSecret(spec, desired) ? SENSITIVE : (value ?? null);
      if (isSecret(spec, desired)) result.sensitiveDigests[name] = digest;
      continue;
    }
    const want = normalizeField(spec, value);
    const have = normalizeField(spec, live.fields[name]);
    if (sameValue(want, have)) continue;
    result.changed.push(name);
    if (spec.change === 'replace') result.needsReplace = true;
    record(result, spec, desired, have, want);
  }
  return result;
}

/** The declared fields as a create's `after` (sensitive values masked). */
export function createdFields(desired: DesiredNode): {
  after: Record<string, unknown>;
  sensitiveDigests: Record<string, string>;
} {
  const kind = kindOf(desired.kind);
  const after: Record<string, unknown> = {};
  const sensitiveDigests: Record<string, string> = {};
  for (const [name, value] of Object.entries(desired.fields)) {
    const spec = fieldSpec(kind.fields, name);
    if (!spec) continue;
    if (isSecret(spec, desired)) {
      after[name] = SENSITIVE;
      sensitiveDigests[name] = digestOf(value ?? null);
    } else {
      after[name] = normalizeField(spec, value);
    }
  }
  return { after, sensitiveDigests };
}

/** The live fields as a delete's `before`. */
export function deletedFields(kind: KindDefinition, live: LiveObject): Record<string, unknown> {
  const before: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(live.fields)) {
    const spec = fieldSpec(kind.fields, name);
    before[name] = spec && isSecret(spec) ? SENSITIVE : value;
  }
  return before;
}

/**
 * Digests of the values a successful apply of this object leaves behind: its write-only
 * ones, and every declared one of a kind whose read may be missing (then planned from them).
 */
export function writeOnlyDigests(desired: DesiredNode): Record<string, string> {
  const kind = kindOf(desired.kind);
  const digests: Record<string, string> = {};
  for (const [name, value] of Object.entries(desired.fields)) {
    const spec = fieldSpec(kind.fields, name);
    if (spec?.change === 'writeOnly' || (spec && kind.readMayBeMissing)) digests[name] = recordedDigest(spec, value);
  }
  return digests;
}

/** A write-only value's digest is of the value as declared; a readable one's of its normalised form (a set in any order). */
function recordedDigest(spec: FieldSpec, value: unknown): string {
  return digestOf(spec.change === 'writeOnly' ? (value ?? null) : normalizeField(spec, value));
}

/** Equality of normalised values: scalars directly, structures by canonical JSON. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonicalJson(a) === canonicalJson(b);
}

function isSecret(spec: FieldSpec, desired?: DesiredNode): boolean {
  return spec.sensitive === true || (desired?.sensitiveFields?.includes(spec.name) ?? false);
}

function record(diff: FieldDiff, spec: FieldSpec, desired: DesiredNode, have: unknown, want: unknown): void {
  if (isSecret(spec, desired)) {
    diff.before[spec.name] = SENSITIVE;
    diff.after[spec.name] = SENSITIVE;
    diff.sensitiveDigests[spec.name] = digestOf(want);
    return;
  }
  diff.before[spec.name] = have;
  diff.after[spec.name] = want;
}
