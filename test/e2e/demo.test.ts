import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { DemoStepError, runDemo } from '../../src/demo/run-demo.js';
import { EXAMPLES, runCli } from './cli-helpers.js';

/** runDemo in-process on a copy of examples/ changed by `mutate`; returns what it printed and threw. */
async function demoOn(mutate: (dir: string) => Promise<void>): Promise<{ output: string; error: unknown }> {
  const dir = join(await mkdtemp(join(tmpdir(), 'switchboard-demo-test-')), 'examples');
  await cp(EXAMPLES, dir, { recursive: true });
  await mutate(dir);
  const out = new PassThrough();
  let output = '';
  out.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const error = await runDemo({ examples: dir, concurrency: 8, color: false, logger: silentLogger, out }).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { output, error };
}

describe('switchboard demo', () => {
  it('docs/commands.md demo: plans, applies, re-plans to "No changes.", plans a one-value edit; exit 0', async () => {
    const { code, stdout, stderr } = await runCli(['demo'], {
      cwd: await mkdtemp(join(tmpdir(), 'switchboard-demo-cwd-')),
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const headings = stdout.split('\n').filter((l) => l.startsWith('── '));
    expect(headings.map((h) => h.replace(/^── (\d\/5|Done).*$/, '$1'))).toEqual([
      '1/5',
      '2/5',
      '3/5',
      '4/5',
      '5/5',
      'Done',
    ]);
    const step = (n: number) =>
      stdout.slice(stdout.indexOf(`── ${n}/5`), n === 5 ? stdout.indexOf('── Done') : stdout.indexOf(`── ${n + 1}/5`));
    expect(step(1)).toMatch(/Simulator listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(step(2)).toMatch(/\+ tenant\/hooli-be \(Tenant\)/);
    expect(step(2)).toMatch(/Plan: \d+ to create, \d+ to update, 0 to replace, 0 to delete\./);
    expect(step(3)).toMatch(/apply: (\d+)\/\1 changes, 0 failed/);
    expect(step(3)).toMatch(/Apply complete: \d+ applied, 0 failed, 0 skipped/);
    // examples/ holds a coverage policy and RoutingTest vectors: the plan shows the coverage, the apply verifies live.
    expect(step(2)).toContain('Emergency coverage (numbers and their emergency addresses):');
    expect(step(2)).toMatch(/tenant\/acme-corp\/subscription\/main: \d+ numbers/);
    // One request per vector, after one list per tested table (the two RoutingTests test two tables).
    const verified =
      /Verification passed: (\d+) vectors of 2 RoutingTests, searched in the live routing engine \((\d+) requests\)\./.exec(
        step(3),
      );
    expect(verified).not.toBeNull();
    expect(Number(verified?.[2])).toBe(Number(verified?.[1]) + 2);
    expect(step(4)).toContain('No changes.');
    expect(step(5)).toContain('markup: 5 → 6');
    expect(step(5)).toContain('~ tenant/acme-corp (Tenant, id');
    expect(step(5)).toContain('Plan: 0 to create, 1 to update, 0 to replace, 0 to delete.');
    expect(stdout).toMatch(/── Done in \d+\.\d s: every step behaved ──/);
    expect(stdout).toContain('docs/tutorial.md');
  }, 60_000);

  it('leaves examples/ untouched (the edit happens in a temporary copy)', async () => {
    const before = await readFile(join(EXAMPLES, 'tenants/acme-corp.yaml'), 'utf8');
    const { error, output } = await demoOn(async () => undefined);
    expect(error).toBeUndefined();
    expect(output).toContain('markup: 5 → 6');
    expect(await readFile(join(EXAMPLES, 'tenants/acme-corp.yaml'), 'utf8')).toBe(before);
  }, 60_000);

  it('fails the apply step (exit 1, not a printed success) when a change fails on the platform', async () => {
    // Doc 1 §2.4: billingIds are unique per group; initech (live, undeclared) already holds T-INITECH.
    const { error, output } = await demoOn((dir) =>
      writeFile(
        join(dir, 'tenants/clash.yaml'),
        'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: clash-co, reseller: north }\nspec:\n  billingId: T-INITECH\n',
      ),
    );
    expect(error).toBeInstanceOf(DemoStepError);
    expect((error as DemoStepError).exitCode).toBe(1);
    expect((error as Error).message).toMatch(/demo step "apply" failed: \d+ of \d+ changes applied, 1 failed/);
    expect(output).toContain('create tenant/clash-co');
    expect(output).not.toContain('── 4/5');
  }, 60_000);

  it('fails the last step when the edit cannot be made or does not give exactly one update', async () => {
    const { error } = await demoOn(async (dir) => {
      const file = join(dir, 'tenants/acme-corp.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^ {2}markup: 5\n/m, ''));
    });
    expect(error).toBeInstanceOf(DemoStepError);
    expect((error as Error).message).toContain('demo step "change one value" failed');
  }, 60_000);
});
