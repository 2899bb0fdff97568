/**
 * A row the routing executor neither applied nor accounted for (its report says nothing of
 * it) was not sent: the routing apply counts it skipped, lists it and journals it, so the run
 * cannot end as complete (exit 0) with a row silently left out. The executor is replaced here
 * by one that reports nothing: no engine, no request.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ExecuteReport } from '../../src/routing/execute-types.js';
import type { RoutingClient } from '../../src/routing/index.js';

vi.mock('../../src/routing/index.js', async (importOriginal) => {
  const routing = await importOriginal<typeof import('../../src/routing/index.js')>();
  const { emptyReport } = await import('../../src/routing/execute-types.js');
  const silent = async (): Promise<ExecuteReport> => emptyReport();
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
const { oneRowToCreate } = await import('./one-row.js');

describe('a routing row the executor says nothing of', () => {
  it('counts as skipped (the run ends incomplete) and is listed with its source', async () => {
    const { plan, change } = oneRowToCreate();
    const client = { unreachable: undefined } as unknown as RoutingClient;
    const settled: string[] = [];
    const out = await applyRouting([plan], [change], client, {
      failFast: false,
      onRows: (status, n) => settled.push(`${status} ${n}`),
    });
    expect(out).toMatchObject({ applied: 0, failed: 0, skipped: 1 });
    expect(settled).toEqual(['skipped 1']);
    expect(out.failures).toEqual([{ change, outcome: { status: 'skipped', reason: 'not sent: not reached' } }]);
  });
});
