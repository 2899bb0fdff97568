import { hasKind, kindOf } from '../kinds/index.js';
import type { DesiredNode, LiveState } from '../state/types.js';
import type { Change, PlanMessage } from './types.js';

/** The safety rails' settings (CONTRACT §3.2-3.4). */
export interface SafetyOptions {
  /** Deletes allowed per kind, as a share of that kind's live objects in scope (default 10). */
  maxDeletePercent: number;
  /** `--allow-replace`: replacing objects that hold data is allowed. */
  allowReplace: boolean;
}

/** Deletes of at most this many objects of a kind never trip the percentage rail. */
export const DELETE_THRESHOLD_MIN_COUNT = 3;

/** What the caller may do, from its profile's api_rules (the client's permission checker). */
export interface PermissionCheck {
  check(method: string, path: string): { allowed: boolean; rule?: string };
}

/** Every refusal the rails find, all at once, before anything is sent. */
export function checkSafety(
  changes: readonly Change[],
  desired: readonly DesiredNode[],
  live: LiveState,
  options: SafetyOptions,
  permissions?: PermissionCheck,
  /** Live counts by kind of objects the LiveState does not list (routing rows). */
  otherLiveCounts: ReadonlyMap<string, number> = new Map(),
): PlanMessage[] {
  return [
    ...checkProtected(changes, desired),
    ...checkReplaces(changes, options),
    ...checkDeleteThreshold(changes, live, options, otherLiveCounts),
    ...(permissions ? checkPermissions(changes, permissions) : []),
  ];
}

function checkProtected(changes: readonly Change[], desired: readonly DesiredNode[]): PlanMessage[] {
  const protectedAddresses = new Set(desired.filter((d) => d.protect).map((d) => d.address));
  return changes
    .filter((c) => (c.action === 'delete' || c.action === 'replace') && protectedAddresses.has(c.address))
    .map((c) => ({ code: 'SB_PROTECTED', address: c.address, message: `${c.address} is protected (metadata.protect: true) and this plan would ${c.action} it` }));
}

function checkReplaces(changes: readonly Change[], options: SafetyOptions): PlanMessage[] {
  if (options.allowReplace) return [];
  return changes
    .filter((c) => c.action === 'replace' && hasKind(c.kind) && kindOf(c.kind).holdsData)
    .map((c) => ({
      code: 'SB_REPLACE_REFUSED',
      address: c.address,
      message: `replacing ${c.address} deletes the data it holds (${c.reason}); run with --allow-replace if that is intended`,
    }));
}

function checkDeleteThreshold(changes: readonly Change[], live: LiveState, options: SafetyOptions, otherLiveCounts: ReadonlyMap<string, number>): PlanMessage[] {
  const deletesByKind = new Map<string, number>();
  for (const c of changes) if (c.action === 'delete') deletesByKind.set(c.kind, (deletesByKind.get(c.kind) ?? 0) + 1);
  const liveByKind = new Map<string, number>(otherLiveCounts);
  for (const collection of live.collections) {
    liveByKind.set(collection.kind, (liveByKind.get(collection.kind) ?? 0) + collection.addresses.length);
  }
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

/**
 * Pending ids (`{id:ADDRESS}`) stand for objects this plan creates: the rules are matched
 * with an id of the shape the platform will assign (a uuid or an integer).
 */
function placeholderFor(address: string, kindByAddress: ReadonlyMap<string, string>): string {
  const kind = kindByAddress.get(address);
  const created = kind === undefined || !hasKind(kind) ? undefined : kindOf(kind).createdId;
  return created?.from === 'body' && created.field === 'uuid' ? '00000000-0000-4000-8000-000000000000' : '1';
}

function checkPermissions(changes: readonly Change[], permissions: PermissionCheck): PlanMessage[] {
  const refusals: PlanMessage[] = [];
  const kindByAddress = new Map(changes.map((c) => [c.address, c.kind]));
  for (const change of changes) {
    for (const request of change.requests) {
      // api_rules govern the platform API only; the routing engine has its own credentials.
      if (!request.path.startsWith('/api/')) continue;
      const path = request.path.replace(/\{id:([^}]*)\}/g, (_m, address: string) => placeholderFor(address, kindByAddress));
      if (permissions.check(request.method, path).allowed) continue;
      const role = request.role ?? 'unknown role';
      const message = `${request.method} ${request.path} is not allowed by the caller's api_rules (role ${role})`;
      const refusal: PlanMessage = { code: 'SB_PERMISSION', address: change.address, message };
      if (request.role) refusal.role = request.role;
      refusals.push(refusal);
    }
  }
  return refusals;
}
