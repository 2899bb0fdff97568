/**
 * Changes a run never starts are said as skipped, each: in the journal (one `change` line,
 * outcome `skipped`) and in the summary, routing rows included (docs/apply.md, docs/audit.md:
 * "each change of the plan gets one change line"). Here `--fail-fast` after a platform
 * failure leaves a routing table's rows unstarted.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, manifestDir, runCli } from '../e2e/cli-helpers.js';

describe('--fail-fast: what is never started', () => {
  it('is journalled and listed as skipped, routing rows included', async () => {
    const table = (await readFile(join(EXAMPLES, 'routing', 'routes.yaml'), 'utf8')).replace(
      '{ number: "+3221234560", route: trunk-7, priority: 10 }',
      '{ number: "+3221234560", route: trunk-7, priority: 11 }',
    );
    const cwd = await manifestDir({
      // The simulator's acme-corp holds T-ACME: a second tenant with it is refused (unique per group).
      'clash.yaml':
        'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: clash-co, reseller: north }\nspec: { billingId: T-ACME }\n',
      'routes.yaml': table,
      'routes.csv': await readFile(join(EXAMPLES, 'routing', 'routes.csv'), 'utf8'),
    });
    const journalFile = join(cwd, 'journal.jsonl');
    const run = await runCli(['apply', '.', '--sim', '--yes', '--fail-fast', '--journal', journalFile], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /Skipped:\n {2}- (create|update) routing\/draas\/standby\/routes\/number=\+3221234560: not started/,
    );
    const lines = (await readFile(journalFile, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; address?: string; outcome?: string });
    const rows = lines.filter((l) => l.type === 'change' && l.address?.startsWith('routing/'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((l) => l.outcome === 'skipped')).toBe(true);
    const skipped = Number(/(\d+) skipped/.exec(run.stdout)?.[1]);
    expect(lines.filter((l) => l.type === 'change' && l.outcome === 'skipped')).toHaveLength(skipped);
  }, 60_000);
});
