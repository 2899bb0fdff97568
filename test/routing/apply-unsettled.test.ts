/**
 * A row the routing executor neither applied nor accounted for (its report says nothing of
 * it) was not sent: the routing apply counts it skipped, lists it and journals it, so the run
 * cannot end as complete (exit 0) with a row silently left out. The executor is replaced here
 * by one that reports nothing: no engine, no request.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Change } from '../../src/plan/types.js';
import type { ExecuteReport } from '../../src/routing/execute-types.js';
import type { RoutingClient } from '../../src/routing/index.js';

vi.mock('../../src/routing/index.js', async (importOriginal) => {
  const routing = await importOriginal<typeof import('../../src/routing/index.js')>();
  const silent = async (): Promise<ExecuteReport> => ({
    created: 0,
    updated: 0,
    deleted: 0,
    skipped: 0,
    failures: [],
    unsent: 0,
    unknown: 0,
    settled: new Map(),
    warnings: [],
    bulkFallback: false,
  });
  return { ...routing, executeRoutingChanges: silent };
});

// The unit tier shares a worker's modules between files (vitest.config.ts): a file run before
// this one may have imported the routing apply with the real executor, so the modules are
// imported afresh under the mock, and none of them is left behind for the next file.
vi.resetModules();
afterAll(() => {
  vi.resetModules();
});
const { applyRouting } = await import('../../src/providers/routing/apply.js');
const { ROUTING_ROW } = await import('../../src/providers/routing/plan.js');
const { diffRows } = await import('../../src/routing/index.js');

describe('a routing row the executor says nothing of', () => {
  it('counts as skipped (the run ends incomplete) and is listed with its source', async () => {
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
    const client = { unreachable: undefined } as unknown as RoutingClient;
    const settled: string[] = [];
    const out = await applyRouting([{ ref, address: 'routing/s/active/a', diff, liveRows: 0 }], [change], client, {
      failFast: false,
      onRows: (status, n) => settled.push(`${status} ${n}`),
    });
    expect(out).toMatchObject({ applied: 0, failed: 0, skipped: 1 });
    expect(settled).toEqual(['skipped 1']);
    expect(out.failures).toEqual([{ change, outcome: { status: 'skipped', reason: 'not sent: not reached' } }]);
  });
});
