import { kindOf } from '../kinds/index.js';
import type { Change } from '../plan/types.js';
import { BULK_THRESHOLD, bulkRouteOf, type BulkRoute } from './bulk-routes.js';
import type { Step } from './run-change.js';
import type { WalkNode } from './walk.js';

/** A node of the apply graph: one change (or one step of it), or a bulk group of changes. */
export type Unit = WalkNode &
  ({ type: 'change'; change: Change; step: Step } | { type: 'bulk'; route: BulkRoute; changes: Change[] });

/** The address under which the old object's delete of a create-before-delete replace is tracked. */
export function oldObjectKey(address: string): string {
  return `${address}#old`;
}

/**
 * Turns the plan's changes into graph nodes (`parentOf` gives a desired object's parent address):
 * - a change is a node that needs what its `dependsOn` names;
 * - a create-before-delete replace is two nodes: the new object's create, which its
 *   dependents need, and the old object's delete, which needs the create and every change
 *   that (transitively) depends on it, so the old object goes last (calling plans: no
 *   window without blocking);
 * - changes whose one request matches a bulk route and share its path (one subscription)
 *   become one bulk node, when the route batches always or the group is above the threshold;
 *   a route whose items name siblings by identity runs after the siblings' creates have
 *   ended (ordering only: an item naming a sibling that failed fails on its own).
 */
export function buildUnits(
  changes: readonly Change[],
  parentOf: (address: string) => string | undefined,
  threshold = BULK_THRESHOLD,
): Unit[] {
  const groups = new Map<string, { route: BulkRoute; changes: Change[] }>();
  for (const change of changes) {
    const route = change.action === 'create' || change.action === 'update' ? bulkRouteOf(change) : undefined;
    const request = change.requests[0];
    if (!route || !request) continue;
    const key = `${route.name} ${request.path}`;
    const group = groups.get(key) ?? { route, changes: [] };
    group.changes.push(change);
    groups.set(key, group);
  }
  const batched = new Set<Change>();
  const units: Unit[] = [];
  for (const [key, group] of groups) {
    if (group.route.when === 'threshold' && group.changes.length <= threshold) continue;
    for (const change of group.changes) batched.add(change);
    const provides = group.changes.map((c) => c.address);
    const needs = [...new Set(group.changes.flatMap((c) => c.dependsOn))];
    const after: string[] = [];
    if (group.route.afterSiblingCreates) {
      const parents = new Set(group.changes.map((c) => parentOf(c.address)));
      for (const c of changes)
        if ((c.action === 'create' || c.action === 'replace') && parents.has(parentOf(c.address)))
          after.push(c.address);
    }
    units.push({
      type: 'bulk',
      key: `bulk ${key}`,
      provides,
      needs,
      after,
      route: group.route,
      changes: group.changes,
    });
  }
  const dependents = dependentsOf(changes);
  for (const change of changes) {
    if (batched.has(change)) continue;
    if (change.action === 'replace' && kindOf(change.kind).createBeforeDelete) {
      units.push({
        type: 'change',
        key: change.address,
        provides: [change.address],
        needs: change.dependsOn,
        change,
        step: 'create',
      });
      const after = [change.address, ...transitive(change.address, dependents)];
      units.push({
        type: 'change',
        key: oldObjectKey(change.address),
        provides: [oldObjectKey(change.address)],
        needs: after,
        change,
        step: 'delete-old',
      });
      continue;
    }
    units.push({
      type: 'change',
      key: change.address,
      provides: [change.address],
      needs: change.dependsOn,
      change,
      step: 'all',
    });
  }
  // Bulk groups first: they carry the most work, so they should not wait behind small changes.
  return units;
}

function dependentsOf(changes: readonly Change[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const change of changes) {
    for (const need of change.dependsOn) map.set(need, [...(map.get(need) ?? []), change.address]);
  }
  return map;
}

function transitive(address: string, dependents: ReadonlyMap<string, string[]>): string[] {
  const seen = new Set<string>();
  const stack = [...(dependents.get(address) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(dependents.get(next) ?? []));
  }
  return [...seen];
}
