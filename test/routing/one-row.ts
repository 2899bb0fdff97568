/**
 * One routing row to create, `k=n` in table `s/active/a` from `a.csv:2`: its table plan and
 * its change, as the routing apply receives them (for the tests that replace what it calls).
 */
import type { Change } from '../../src/plan/types.js';
import { ROUTING_ROW, type RoutingTablePlan } from '../../src/providers/routing/plan.js';
import { diffRows } from '../../src/routing/index.js';

export function oneRowToCreate(): { plan: RoutingTablePlan; change: Change } {
  const ref = { service: 's', version: 'active', table: 'a' } as const;
  const diff = diffRows([{ values: { k: 'n', v: 'x' }, source: 'a.csv:2' }], [], { key: ['k'], prune: false });
  const change: Change = {
    address: 'routing/s/active/a/k=n',
    kind: ROUTING_ROW,
    provider: 'routing',
    action: 'create',
    before: null,
    after: { k: 'n', v: 'x' },
    patch: [],
    reason: '',
    dependsOn: [],
    requests: [],
    source: 'a.csv:2',
  };
  return { plan: { ref, address: 'routing/s/active/a', diff, liveRows: 0 }, change };
}
