/**
 * The journal fails at a routing table's intent (a full disk): the table is not started, and
 * the routing apply still returns its result (rows skipped, saying why), so the run ends
 * with its summary, `incomplete`, rather than as an error that forgets what was applied.
 */
import { describe, expect, it } from 'vitest';
import type { Journal } from '../../src/apply/journal.js';
import { SwitchboardError } from '../../src/core/errors.js';
import type { Change } from '../../src/plan/types.js';
import { applyRouting } from '../../src/providers/routing/apply.js';
import { ROUTING_ROW } from '../../src/providers/routing/plan.js';
import { diffRows, type RoutingClient } from '../../src/routing/index.js';

describe('a journal that fails at a routing table', () => {
  it('leaves the table not started, its rows skipped with the reason, and returns', async () => {
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
    const failed = new AbortController();
    const lines: unknown[] = [];
    const journal = {
      nextSeq: () => 1,
      append: () => {
        const error = new SwitchboardError('SB_JOURNAL', 'cannot write the journal j.jsonl: ENOSPC');
        failed.abort(error);
        throw error;
      },
      appendAll: (written: unknown[]) => void lines.push(...written),
    } as unknown as Journal;
    const client = { unreachable: undefined } as unknown as RoutingClient;
    const out = await applyRouting([{ ref, address: 'routing/s/active/a', diff, liveRows: 0 }], [change], client, {
      failFast: false,
      journal,
      signal: failed.signal,
    });
    expect(out).toMatchObject({ applied: 0, failed: 0, skipped: 1 });
    expect(out.failures).toHaveLength(1);
    expect(out.failures[0]?.outcome).toMatchObject({ status: 'skipped' });
    expect(JSON.stringify(out.failures[0]?.outcome)).toContain('journal');
  });
});
