/**
 * The journal fails at a routing table's intent (a full disk): the table is not started, and
 * the routing apply still returns its result (rows skipped, saying why), so the run ends
 * with its summary, `incomplete`, rather than as an error that forgets what was applied.
 */
import { describe, expect, it } from 'vitest';
import type { Journal } from '../../src/apply/journal.js';
import { SwitchboardError } from '../../src/core/errors.js';
import { applyRouting } from '../../src/providers/routing/apply.js';
import type { RoutingClient } from '../../src/routing/index.js';
import { oneRowToCreate } from './one-row.js';

describe('a journal that fails at a routing table', () => {
  it('leaves the table not started, its rows skipped with the reason, and returns', async () => {
    const { plan, change } = oneRowToCreate();
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
    const out = await applyRouting([plan], [change], client, {
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
