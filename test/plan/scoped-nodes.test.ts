/**
 * A scoped plan's nodes (`--changed-since`, `apply --plan` of one) are chosen from the
 * manifest set directly (src/plan/targets.ts `scopedNodes`): they must be the nodes that
 * `selectTargets` keeps of every node, in the same order, with the same collections and
 * positions, for any targets.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { toDesiredNodes } from '../../src/plan/desired.js';
import { scopedNodes, selectTargets } from '../../src/plan/targets.js';
import type { DesiredNode } from '../../src/state/types.js';

const EXAMPLES = resolve(import.meta.dirname, '../../examples');

/** What a plan reads of a node, its position included (a getter on its prototype). */
function shown(nodes: readonly DesiredNode[]): unknown[] {
  return nodes.map((n) => ({ ...n, source: n.source, prototype: Object.getPrototypeOf(n) as unknown }));
}

describe('the nodes of a scoped plan', () => {
  it('are those selectTargets keeps, for each address, subtree, glob and pair of targets of the examples', async () => {
    const loaded = await loadManifests([EXAMPLES], { cwd: EXAMPLES, env: {} });
    expect(loaded.ok).toBe(true);
    const all = toDesiredNodes(loaded.set);
    const addresses = all.map((n) => n.address);
    expect(addresses.length).toBeGreaterThan(20);
    const targetSets: string[][] = [
      ...addresses.map((a) => [a]),
      ...addresses.map((a) => [`${a.slice(0, Math.max(1, a.length - 3))}*`]),
      ...addresses.slice(1).map((a, i) => [addresses[i] as string, a]),
      ['tenant/no-such-tenant'],
      ['tenant/*'],
      [...loaded.set.routingTables.map((t) => t.table.address)],
    ];
    for (const targets of targetSets) {
      expect(shown(scopedNodes(loaded.set, targets)), targets.join(' ')).toEqual(
        shown(selectTargets(all, targets, [])),
      );
    }
    expect(scopedNodes(loaded.set, [])).toEqual([]);
  });
});
