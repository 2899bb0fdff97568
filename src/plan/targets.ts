import type { DesiredNode } from '../state/types.js';

/**
 * `--target` / `--exclude` (CONTRACT §1): a target keeps its address, what it contains
 * (the subtree below it) and what it depends on (its ancestors, so a new parent is still
 * created first). A trailing `*` matches a subtree by prefix. Excludes win over targets.
 */
export function selectTargets(desired: readonly DesiredNode[], targets: readonly string[], excludes: readonly string[]): DesiredNode[] {
  // Neither option given (the usual run): everything is selected as it is. Walking every
  // node's ancestors for nothing cost ~0.1 s on 22,000 objects (issue #9 plan-org profile).
  if (targets.length === 0 && excludes.length === 0) return [...desired];
  const byAddress = new Map(desired.map((d) => [d.address, d]));
  const matches = (patterns: readonly string[], address: string) => patterns.some((p) => matchesPattern(p, address));
  const selected = new Set<string>();
  const ancestors = new Set<string>();
  for (const node of desired) {
    if (targets.length > 0 && !matches(targets, node.address)) continue;
    selected.add(node.address);
    for (let parent = node.parentAddress; parent !== undefined; parent = byAddress.get(parent)?.parentAddress) ancestors.add(parent);
  }
  const excluded = (d: DesiredNode) => matches(excludes, d.address) || (d.parentAddress !== undefined && matches(excludes, d.parentAddress));
  return desired.flatMap((d) => {
    if (excluded(d)) return [];
    if (selected.has(d.address)) return [d];
    // Kept only so that it exists first: its collections are not in scope, so nothing is pruned there.
    return ancestors.has(d.address) ? [{ ...d, declaredCollections: [] }] : [];
  });
}

/** Exact address, its subtree, or a `prefix*` glob. */
export function matchesPattern(pattern: string, address: string): boolean {
  if (pattern.endsWith('*')) return address.startsWith(pattern.slice(0, -1));
  return address === pattern || address.startsWith(`${pattern}/`);
}
