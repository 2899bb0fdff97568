import type { PlanPart } from './part.js';
import { topField } from './render-common.js';
import type { Change, PlanMessage } from './types.js';

/** The safety rails' settings (docs/plans.md.4). */
export interface SafetyOptions {
  /** Deletes allowed per kind, as a share of that kind's live objects in scope (default 10). */
  maxDeletePercent: number;
  /** Updates (and replaces) allowed per kind, as a share of its live objects in scope (default 30). */
  maxUpdatePercent?: number;
  /** `--allow-replace`: replacing objects that hold data is allowed. */
  allowReplace: boolean;
  /**
   * `false` (plan --no-check-permissions): the plan is made with other credentials than the
   * apply's (a read-only user), so the caller's api_rules say nothing about the apply; apply
   * checks its own user's rules again.
   */
  checkPermissions?: boolean;
}

/** Deletes of at most this many objects of a kind never trip the percentage rail. */
const DELETE_THRESHOLD_MIN_COUNT = 3;

/** `--max-update-percent` when not given. */
export const DEFAULT_MAX_UPDATE_PERCENT = 30;

/** The update share is checked for a kind only when at least this many of its live objects are in scope. */
const UPDATE_THRESHOLD_MIN_LIVE = 10;

/** What the caller may do, from its profile's api_rules (the client's permission checker). */
export interface PermissionCheck {
  check(method: string, path: string): { allowed: boolean; rule?: string };
}

/** What the rails read of a provider's part of the plan (a PlanPart is one). */
export type RailFacts = Pick<
  PlanPart,
  'changes' | 'liveCounts' | 'protectedAddresses' | 'holdsData' | 'preflight' | 'replaceDrops'
>;

/**
 * Every refusal the rails find, all at once, before anything is sent: protected objects,
 * replaces of objects holding data, the delete share per kind, and each provider's
 * permission pre-flight. The providers say what their objects are; no kind is named here.
 */
export function checkSafety(parts: readonly RailFacts[], options: SafetyOptions): PlanMessage[] {
  return [
    ...parts.flatMap(checkProtected),
    ...parts.flatMap((part) => checkReplaces(part, options)),
    ...checkDeleteThreshold(parts, options),
    ...checkUpdateThreshold(parts, options.maxUpdatePercent ?? DEFAULT_MAX_UPDATE_PERCENT),
    ...(options.checkPermissions === false ? [] : parts.flatMap((part) => part.preflight(part.changes))),
  ];
}

function checkProtected(part: RailFacts): PlanMessage[] {
  return part.changes
    .filter((c) => (c.action === 'delete' || c.action === 'replace') && part.protectedAddresses.has(c.address))
    .map((c) => ({
      code: 'SB_PROTECTED',
      address: c.address,
      message: `${c.address} is protected (metadata.protect: true) and this plan would ${c.action} it`,
    }));
}

function checkReplaces(part: RailFacts, options: SafetyOptions): PlanMessage[] {
  if (options.allowReplace) return [];
  return dataDroppingReplaces(part).map(({ change, what }) => ({
    code: 'SB_REPLACE_REFUSED',
    address: change.address,
    message: `replacing ${change.address} deletes ${what} (${change.reason}); run with --allow-replace if that is intended`,
  }));
}

/**
 * With --allow-replace, what each allowed replace deletes, as a warning: the plan a reviewer
 * approves still says it, though nothing refuses it.
 */
export function allowedReplaceWarnings(parts: readonly RailFacts[], options: SafetyOptions): PlanMessage[] {
  if (!options.allowReplace) return [];
  return parts.flatMap(dataDroppingReplaces).map(({ change, what }) => ({
    code: 'SB_REPLACE_ALLOWED',
    address: change.address,
    message: `replacing ${change.address} deletes ${what} (${change.reason}); allowed by --allow-replace`,
  }));
}

/** The replaces that delete data: the object's own (its kind holds data), or what lies below it that is not re-created. */
function dataDroppingReplaces(part: RailFacts): { change: Change; what: string }[] {
  const out: { change: Change; what: string }[] = [];
  for (const change of part.changes) {
    if (change.action !== 'replace') continue;
    const drops = part.replaceDrops?.(change);
    if (!part.holdsData(change.kind) && drops === undefined) continue;
    out.push({ change, what: drops ?? 'the data it holds' });
  }
  return out;
}

/** Live objects in scope by kind, over every provider's part. */
export function liveCountsByKind(parts: readonly Pick<RailFacts, 'liveCounts'>[]): Map<string, number> {
  const liveByKind = new Map<string, number>();
  for (const part of parts)
    for (const [kind, count] of part.liveCounts) liveByKind.set(kind, (liveByKind.get(kind) ?? 0) + count);
  return liveByKind;
}

/**
 * Whether a change counts toward an update share: a replace does, and an update does when it
 * changes a value the live object holds. An update that only sets fields that are empty live
 * (null, absent or empty text: a number given its first emergency address) overwrites
 * nothing, and does not count; a write-only field, whose live value nobody can read, counts.
 */
export function overwrites(change: Change): boolean {
  if (change.action === 'replace') return true;
  if (change.action !== 'update') return false;
  const before = change.before ?? {};
  const fields = new Set(change.patch.map((op) => topField(op.path)));
  for (const field of fields) if (field !== undefined && !isEmpty(before[field])) return true;
  return false;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

/**
 * A mass update is as dangerous as a mass delete (a re-route of every number): more than
 * `maxPercent` of a kind's live objects in scope updated (or replaced), once at least
 * {@link UPDATE_THRESHOLD_MIN_LIVE} of them exist, is refused. Only overwrites count.
 */
function checkUpdateThreshold(parts: readonly RailFacts[], maxPercent: number): PlanMessage[] {
  const updatesByKind = new Map<string, number>();
  for (const part of parts)
    for (const c of part.changes) if (overwrites(c)) updatesByKind.set(c.kind, (updatesByKind.get(c.kind) ?? 0) + 1);
  const liveByKind = liveCountsByKind(parts);
  const refusals: PlanMessage[] = [];
  for (const [kind, updates] of updatesByKind) {
    const live = liveByKind.get(kind) ?? 0;
    if (live < UPDATE_THRESHOLD_MIN_LIVE) continue;
    const percent = (Math.min(updates, live) / live) * 100;
    if (percent > maxPercent) {
      refusals.push({
        code: 'SB_UPDATE_THRESHOLD',
        message: `the plan overwrites values of ${updates} of ${live} live ${kind} objects in scope (${percent.toFixed(1)}%), above --max-update-percent ${maxPercent}`,
      });
    }
  }
  return refusals;
}

function checkDeleteThreshold(parts: readonly RailFacts[], options: SafetyOptions): PlanMessage[] {
  const deletesByKind = new Map<string, number>();
  for (const part of parts)
    for (const c of part.changes)
      if (c.action === 'delete') deletesByKind.set(c.kind, (deletesByKind.get(c.kind) ?? 0) + 1);
  const liveByKind = liveCountsByKind(parts);
  const refusals: PlanMessage[] = [];
  for (const [kind, deletes] of deletesByKind) {
    const total = Math.max(liveByKind.get(kind) ?? deletes, deletes);
    const percent = (deletes / total) * 100;
    if (deletes > DELETE_THRESHOLD_MIN_COUNT && percent > options.maxDeletePercent) {
      refusals.push({
        code: 'SB_DELETE_THRESHOLD',
        message: `the plan deletes ${deletes} of ${total} live ${kind} objects in scope (${percent.toFixed(1)}%), above --max-delete-percent ${options.maxDeletePercent}`,
      });
    }
  }
  return refusals;
}
