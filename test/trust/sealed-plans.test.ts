/**
 * docs/apply.md "Saved plans": a plan file edited after it was made is never applied, whatever
 * the edit and however well it is sealed again. Each case is refused with exit 3, and the
 * simulator is sent nothing that changes anything (its request counters and its store say so).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { runCli, simEnv, type CliResult } from '../e2e/cli-helpers.js';
import { changeAt, forge, recount, resetStats, simState, writesSent, type PlanJson } from './helpers.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

const tenant = (name: string, spec: string, prune = false) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: ${name}, reseller: north${prune ? ', prune: true' : ''} }
spec:
  billingId: T-${name.toUpperCase()}
${spec}`;

const addresses = (n: number) =>
  [
    'premises,city,country,isoCode,number,postalCode,state,street',
    ...Array.from({ length: n }, (_, i) => `,Brussels,Belgium,BE,${i + 1},1000,,Rue Neuve`),
  ].join('\n') + '\n';

/** A folder with these files, applied once. */
async function applied(files: Record<string, string>): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'sb-trust-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(cwd, name), text);
  const first = await runCli(['apply', '.', '--yes'], { env: simEnv(sim.url), cwd });
  expect(first.code, first.stdout + first.stderr).toBe(0);
  return cwd;
}

/** `plan --out` into `name`, and the exit code it gave. */
async function plan(cwd: string, name: string, ...args: string[]): Promise<number> {
  const planned = await runCli(['plan', '.', '--out', name, ...args], { env: simEnv(sim.url), cwd });
  expect([0, 3], planned.stderr).toContain(planned.code);
  return planned.code;
}

/** Copies a plan file, edits the copy (forge), and runs `apply --plan` on it, recording what reached the simulator. */
async function applyForged(
  cwd: string,
  from: string,
  edit: (plan: PlanJson) => void,
  reseal: 'changeSet' | 'digest' | 'none' = 'changeSet',
  extra: string[] = [],
): Promise<CliResult & { writes: string[]; changed: boolean }> {
  const file = join(cwd, `forged-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, await readFile(join(cwd, from), 'utf8'));
  await forge(file, edit, reseal);
  const before = await simState(sim.url);
  await resetStats(sim.url);
  const result = await runCli(['apply', '--plan', file, '--yes', ...extra], { env: simEnv(sim.url), cwd });
  return { ...result, writes: await writesSent(sim.url), changed: (await simState(sim.url)) !== before };
}

function refusedAndNothingSent(result: CliResult & { writes: string[]; changed: boolean }, why: string): void {
  expect(result.code, result.stdout + result.stderr).toBe(3);
  expect(result.stderr + result.stdout).toContain(why);
  expect(result.writes).toEqual([]);
  expect(result.changed).toBe(false);
}

describe('a plan over the delete threshold (5 of 8 addresses)', () => {
  let cwd: string;
  beforeAll(async () => {
    const doc = tenant(
      'trust-del',
      '  subscriptions:\n    - { name: main, billingId: T-TRUST-DEL-MAIN, uc: uc_alpha, addressesFrom: addresses.csv }\n',
      true,
    );
    cwd = await applied({ 't.yaml': doc, 'addresses.csv': addresses(8) });
    await writeFile(join(cwd, 'addresses.csv'), addresses(3));
    expect(await plan(cwd, 'refused.json')).toBe(3);
    const saved = JSON.parse(await readFile(join(cwd, 'refused.json'), 'utf8')) as PlanJson;
    expect(saved.errors.map((e) => e.code)).toEqual(['SB_DELETE_THRESHOLD']);
  }, 60_000);

  it('its digest removed: refused before anything is read', async () => {
    const result = await applyForged(cwd, 'refused.json', (p) => delete (p as Partial<PlanJson>).digest, 'none');
    refusedAndNothingSent(result, 'carries no digest');
  });

  it('its refusals cleared and its digest computed again: the rails run again on the fresh plan', async () => {
    const result = await applyForged(cwd, 'refused.json', (p) => (p.errors = []));
    refusedAndNothingSent(result, 'SB_DELETE_THRESHOLD');
    expect(result.stdout).toContain('the plan deletes 5 of 8 live Address objects in scope (62.5%)');
  });

  it('its refusals cleared and its --max-delete-percent raised in the file: the file loosens no rail', async () => {
    const result = await applyForged(cwd, 'refused.json', (p) => {
      p.errors = [];
      if (p.options) p.options.maxDeletePercent = 100;
    });
    refusedAndNothingSent(result, 'the plan was made with --max-delete-percent 100, which this command does not give');
  });

  it('its refusals cleared and its changes cut to three deletes (under the threshold alone): a subset is refused', async () => {
    const result = await applyForged(cwd, 'refused.json', (p) => {
      p.errors = [];
      p.changes = p.changes.slice(0, 3);
      recount(p);
    });
    refusedAndNothingSent(result, 'SB_DELETE_THRESHOLD');
  });
});

describe('a plan over the update threshold (10 tenants of reseller north updated)', () => {
  let cwd: string;
  const names = Array.from({ length: 10 }, (_, i) => `trust-upd-${i}`);
  const docs = (markup: number) => names.map((n) => tenant(n, `  markup: ${markup}\n`)).join('---\n');
  beforeAll(async () => {
    cwd = await applied({ 't.yaml': docs(1) });
    await writeFile(join(cwd, 't.yaml'), docs(2));
    expect(await plan(cwd, 'refused.json')).toBe(3);
  }, 60_000);

  it('its refusals cleared and its digest computed again: refused by the fresh plan', async () => {
    const result = await applyForged(cwd, 'refused.json', (p) => (p.errors = []));
    refusedAndNothingSent(result, 'SB_UPDATE_THRESHOLD');
  });

  it('the same with --max-update-percent raised in the file', async () => {
    const result = await applyForged(cwd, 'refused.json', (p) => {
      p.errors = [];
      if (p.options) p.options.maxUpdatePercent = 100;
    });
    refusedAndNothingSent(result, 'the plan was made with --max-update-percent 100, which this command does not give');
  });
});

describe('a plan the rails pass, edited and sealed again', () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await applied({ 't.yaml': tenant('trust-edit', '  markup: 1\n') });
    await writeFile(
      join(cwd, 't.yaml'),
      tenant(
        'trust-edit',
        '  markup: 5\n  subscriptions:\n    - { name: extra, billingId: T-TRUST-EDIT-X, uc: uc_alpha }\n',
      ),
    );
    expect(await plan(cwd, 'reviewed.json')).toBe(0);
  }, 60_000);

  const markupTo99 = (p: PlanJson) => {
    const update = changeAt(p, 'tenant/trust-edit');
    update.after = { ...update.after, markup: 99 };
    update.patch = [{ op: 'replace', path: '/markup', value: 99 }];
  };

  it('an after value edited (5 → 99): apply refuses what a fresh plan does not do, and prints nothing of the file', async () => {
    const result = await applyForged(cwd, 'reviewed.json', markupTo99);
    refusedAndNothingSent(result, 'does not say what a fresh plan of the same manifests would do');
    expect(result.stderr).toContain('tenant/trust-edit: after (plan file: {"markup":99}, fresh plan: {"markup":5})');
    expect(result.stdout).toBe('');
  });

  it('an after value edited with only the digest computed again: show and apply refuse it (its change set)', async () => {
    const result = await applyForged(cwd, 'reviewed.json', markupTo99, 'digest');
    refusedAndNothingSent(result, 'its changeSet records');
    const file = join(cwd, 'only-digest.json');
    await writeFile(file, await readFile(join(cwd, 'reviewed.json'), 'utf8'));
    await forge(file, markupTo99, 'digest');
    const shown = await runCli(['show', file], { cwd });
    expect(shown.code).toBe(3);
    expect(shown.stdout).toBe('');
    const verified = await runCli(['show', file, '--verify'], { cwd });
    expect(verified.code).toBe(3);
    expect(verified.stdout).toMatch(/Change set: {2}recorded sha256:\w+\n {13}computed sha256:\w+: DOES NOT MATCH/);
  });

  it('a change removed: a subset of the reviewed plan is refused', async () => {
    const result = await applyForged(cwd, 'reviewed.json', (p) => {
      p.changes = p.changes.filter((c) => c.action !== 'create');
      recount(p);
    });
    refusedAndNothingSent(result, 'does not say what a fresh plan of the same manifests would do');
    expect(result.stderr).toContain(
      'tenant/trust-edit/subscription/extra: the fresh plan would create it, and the plan file does not hold that change',
    );
  });

  it('a change added (the delete of another tenant): refused', async () => {
    const result = await applyForged(cwd, 'reviewed.json', (p) => {
      const update = changeAt(p, 'tenant/trust-edit');
      p.changes.push({
        ...update,
        address: 'tenant/acme-corp',
        action: 'delete',
        after: null,
        patch: [],
        reason: 'not declared',
        reasonCode: 'not-declared-prune',
        requests: [{ method: 'DELETE', path: '/api/v01/draas/demo/tenants/acme' }],
      });
      recount(p);
    });
    refusedAndNothingSent(result, 'tenant/acme-corp: the plan would now do nothing here (saved: delete)');
  });

  it('a member this switchboard does not know, or a newer formatVersion: refused as not understood', async () => {
    const unknown = await applyForged(cwd, 'reviewed.json', (p) => {
      (changeAt(p, 'tenant/trust-edit') as unknown as Record<string, unknown>)['sendAlso'] = [{ method: 'DELETE' }];
    });
    refusedAndNothingSent(unknown, 'holds members this switchboard does not know (changes[0].sendAlso)');
    const newer = await applyForged(cwd, 'reviewed.json', (p) => ((p as Record<string, unknown>)['formatVersion'] = 3));
    refusedAndNothingSent(newer, 'made by a newer switchboard');
  });

  it('the file as it was made is applied', async () => {
    const result = await runCli(['apply', '--plan', 'reviewed.json', '--yes'], { env: simEnv(sim.url), cwd });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('Apply complete: 2 applied, 0 failed, 0 skipped');
  });
});
