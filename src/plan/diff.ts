import { kindOf } from '../kinds/index.js';
import { fieldSpec, normalizeField } from '../kinds/fields.js';
import type { FieldSpec, KindDefinition, LiveObject } from '../kinds/types.js';
import type { DesiredNode, LastApplied } from '../state/types.js';
import { canonicalJson } from '../core/canonical-json.js';
import { checkValueDigest, isCurrentForm, recordDigest, valueDigest } from '../core/value-digest.js';
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
 * sides. Write-only fields check the declared value against the last applied one's digest
 * (any form the record may hold: core/value-digest.ts); one that cannot be checked (a
 * digest made with another key) counts as changed, so the value is sent again.
 */
export function diffFields(desired: DesiredNode, live: LiveObject, lastApplied: LastApplied): FieldDiff {
  const kind = kindOf(desired.kind);
  const result: FieldDiff = { changed: [], needsReplace: false, before: {}, after: {}, sensitiveDigests: {} };
  const applied = lastApplied.get(desired.address)?.digests ?? {};
  for (const [name, value] of Object.entries(desired.fields)) {
    const spec = fieldSpec(kind.fields, name);
    if (!spec) continue;
    if (spec.change === 'writeOnly' || live.fromRecord) {
      const recorded = applied[name];
      const compared = recordedValue(spec, value);
      if (recorded !== undefined && checkValueDigest(compared, recorded) === 'same') continue;
      result.changed.push(name);
      // The API never returns it: all we know of the old value is that it differs (or was never sent).
      result.before[name] = WRITE_ONLY;
      result.after[name] = isSecret(spec, desired) ? SENSITIVE : (value ?? null);
      if (isSecret(spec, desired))
        result.sensitiveDigests[name] = sensitiveDigest(desired.address, name, compared, recorded);
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
      sensitiveDigests[name] = sensitiveDigest(desired.address, name, value ?? null);
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
 * A digest already `recorded` for the same value in the form this run writes is kept (the
 * record does not change for nothing); any other is made anew, with a fresh salt.
 */
export function writeOnlyDigests(
  desired: DesiredNode,
  recorded: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const kind = kindOf(desired.kind);
  const digests: Record<string, string> = {};
  for (const [name, value] of Object.entries(desired.fields)) {
    const spec = fieldSpec(kind.fields, name);
    if (spec?.change !== 'writeOnly' && !(spec && kind.readMayBeMissing)) continue;
    const compared = recordedValue(spec, value);
    const kept = recorded[name];
    const keep = kept !== undefined && isCurrentForm(kept) && checkValueDigest(compared, kept) === 'same';
    digests[name] = keep ? kept : recordDigest(compared);
  }
  return digests;
}

/**
 * The value a recorded digest is of, for a declared field: a write-only value as declared;
 * a readable one (of a kind whose read may be missing) normalised (a set in any order).
 */
export function recordedValue(spec: FieldSpec, value: unknown): unknown {
  return spec.change === 'writeOnly' ? (value ?? null) : normalizeField(spec, value);
}

/**
 * A plan's digest (`sensitiveDigests`) of the sensitive value of `field` at `address`, for
 * every provider's changes. Its salt names where the value sits: the object, the field and
 * the digest the record holds of it (none for a create or a readable field). The same plan
 * made twice from the same manifests and record gives the same digests; the record's digest
 * changes with each applied value, so two versions of a field never share a salt.
 */
export function sensitiveDigest(address: string, field: string, value: unknown, recorded = ''): string {
  return valueDigest(value, `plan\u0000${address}\u0000${field}\u0000${recorded}`);
}

/** A live sensitive value as a `liveDigest` takes it (see {@link fingerprintFields}). */
export function liveValueDigest(address: string, field: string, value: unknown): string {
  return valueDigest(value, `live\u0000${address}\u0000${field}`);
}

/**
 * A live object's fields as its `liveDigest` takes them: the value of a sensitive field (of
 * the kind, or declared from `${VAR}`) replaced by its digest, so that the live digest of a
 * saved plan is no dictionary oracle for it, and still changes when the value does.
 */
export function fingerprintFields(live: LiveObject, desired?: DesiredNode): Record<string, unknown> {
  const kind = kindOf(live.kind);
  let fields: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(live.fields)) {
    const spec = fieldSpec(kind.fields, name);
    if (!spec || !isSecret(spec, desired) || value === undefined) continue;
    fields ??= { ...live.fields };
    fields[name] = liveValueDigest(live.address, name, value);
  }
  return fields ?? live.fields;
}

/** Equality of normalised values: scalars directly, structures by canonical JSON. */
function sameValue(a: unknown, b: unknown): boolean {
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
    diff.sensitiveDigests[spec.name] = sensitiveDigest(desired.address, spec.name, want);
    return;
  }
  diff.before[spec.name] = have;
  diff.after[spec.name] = want;
}
