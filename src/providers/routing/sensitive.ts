/**
 * Routing rows' sensitive cells in plans, as platform objects' sensitive fields
 * (src/plan/diff.ts, whose digests these are): a cell of a declared row whose value came
 * from `${VAR}` shows as `(sensitive)` in the change's before, after and patch, is recorded
 * by its digest in `sensitiveDigests`, and enters the live row's digest only as a digest of
 * its own. Apply sends the real values from the fresh plan's row diff, never from these.
 */
import { digestOf } from '../../core/canonical-json.js';
import { liveValueDigest, sensitiveDigest } from '../../plan/diff.js';
import { SENSITIVE, type Change } from '../../plan/types.js';
import type { RoutingRecord } from '../../routing/index.js';

/** What a row change shows of its values, once its sensitive fields are masked. */
export interface ShownRow {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  sensitiveDigests?: Record<string, string>;
}

/**
 * A row change's values as the plan shows them: each of `sensitive` present in `after` (or
 * `before`) replaced by {@link SENSITIVE}, and the digest of its new value in
 * `sensitiveDigests`. Values are copied, never changed: apply sends the originals.
 */
export function shownRow(
  address: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  sensitive: readonly string[] | undefined,
): ShownRow {
  if (!sensitive || sensitive.length === 0) return { before, after };
  const digests: Record<string, string> = {};
  for (const field of sensitive) {
    if (after && Object.hasOwn(after, field)) digests[field] = sensitiveDigest(address, field, after[field] ?? null);
  }
  const shown: ShownRow = { before: masked(before, sensitive), after: masked(after, sensitive) };
  if (Object.keys(digests).length > 0) shown.sensitiveDigests = digests;
  return shown;
}

/**
 * The `liveDigest` of the live row an update was planned from: its cells at the declared
 * row's sensitive fields taken as their value digests (the digest is no dictionary oracle
 * for them, and still changes when they do); a row without any keeps its plain digest.
 */
export function liveRowDigest(
  address: string,
  row: RoutingRecord | null,
  sensitive: readonly string[] | undefined,
): Change['liveDigest'] {
  if (!row || !sensitive || sensitive.length === 0) return digestOf(row);
  const fields: Record<string, unknown> = { ...row };
  for (const field of sensitive) {
    const value = fields[field];
    if (value !== undefined) fields[field] = liveValueDigest(address, field, value);
  }
  return digestOf(fields);
}

function masked(values: Record<string, unknown> | null, sensitive: readonly string[]): Record<string, unknown> | null {
  if (!values || !sensitive.some((field) => Object.hasOwn(values, field))) return values;
  const copy = { ...values };
  for (const field of sensitive) if (Object.hasOwn(copy, field)) copy[field] = SENSITIVE;
  return copy;
}
