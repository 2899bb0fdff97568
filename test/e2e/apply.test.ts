import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { CLI, EXAMPLES, adminApi, cliEnv, manifestDir, runCli, simEnv } from './cli-helpers.js';

const P = '/api/v01/draas/demo';

const tenantDoc = (name: string, billingId: string, spec = '') => `---
apiVersion: switchboard/v1
kind: Tenant
metadata: { name: ${name}, reseller: north }
spec:
  billingId: ${billingId}
${spec}`;

const withSubscription = (billingId: string) => `  subscriptions:
    - name: main
      billingId: ${billingId}-MAIN
      uc: uc_alpha
`;

let sim: RunningSimulator;
let api: Awaited<ReturnType<typeof adminApi>>;

interface SimState {
  tables: Record<string, Record<string, unknown>[]>;
}
async function simState(): Promise<SimState> {
  return (await (await fetch(`${sim.url}/_sim/state`)).json()) as SimState;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  api = await adminApi(sim.url);
});

afterAll(async () => {
  await sim.close();
});

describe('switchboard apply (end to end, real CLI over loopback HTTP)', () => {
  it('applies examples/ (Doc 2 §4.8: the 204 template creates find their ids), then plan --detailed-exitcode exits 0', async () => {
    const cwd = await manifestDir({});
    const applied = await runCli(['apply', EXAMPLES, '--yes'], { env: simEnv(sim.url), cwd });
    expect(applied.stdout).toMatch(/Apply complete: \d+ applied, 0 failed, 0 skipped/);
    expect(applied.code).toBe(0);
    const templates = (await simState()).tables['templates'] ?? [];
    expect(templates.map((t) => t['sku'])).toEqual(expect.arrayContaining(['TPL-STD', 'TPL-EXEC']));

    const again = await runCli(['plan', EXAMPLES, '--detailed-exitcode'], { env: simEnv(sim.url), cwd });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    // the journal: every request's intent and outcome, never a body; each change's fields as the plan shows them
    const [journalFile] = (await readdir(join(cwd, '.switchboard'))).filter((f) => f.startsWith('journal-'));
    const lines = (await readFile(join(cwd, '.switchboard', journalFile ?? ''), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const intents = lines.filter((l) => l['type'] === 'intent');
    expect(intents.length).toBeGreaterThan(10);
    expect(lines.filter((l) => l['type'] === 'outcome')).toHaveLength(intents.length);
    expect(lines.some((l) => 'body' in l)).toBe(false);
    const requestLines = lines.filter((l) => l['type'] === 'intent' || l['type'] === 'outcome');
    expect(requestLines.some((l) => JSON.stringify(l).includes('Lovelace'))).toBe(false);
    expect(
      lines.find((l) => l['type'] === 'change' && l['address'] === 'tenant/acme-corp/admin/it@acme.example'),
    ).toMatchObject({
      kind: 'Administrator',
      fields: expect.arrayContaining([{ field: 'lastName', after: 'Lovelace' }]),
    });
    expect(
      lines.find((l) => l['type'] === 'change' && String(l['address']).endsWith('/template/TPL-STD')),
    ).toMatchObject({ outcome: 'applied' });
    // the last-applied record keeps digests of the administrators' write-only fields
    const record = JSON.parse(await readFile(join(cwd, '.switchboard', 'last-applied.demo.json'), 'utf8')) as {
      entries: Record<string, { digests: Record<string, string> }>;
    };
    expect(record.entries['tenant/acme-corp/admin/it@acme.example']?.digests['firstName']).toMatch(/^scrypt:/);
  }, 60_000);

  it('refuses without --yes when stdin is not a terminal (exit 1), and a plan with errors (exit 3)', async () => {
    const cwd = await manifestDir({ 't.yaml': tenantDoc('needs-yes', 'T-NEEDS-YES') });
    const noYes = await runCli(['apply', cwd], { env: simEnv(sim.url), cwd });
    expect(noYes.code).toBe(1);
    expect(noYes.stderr).toContain('apply needs --yes');
    // the reader has only GET rules: the plan's permission check refuses every write
    const refused = await runCli(['apply', cwd, '--yes'], { env: simEnv(sim.url, 'reader'), cwd });
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain('Apply refused');
    const tenants = (await simState()).tables['tenants'] ?? [];
    expect(tenants.some((t) => t['name'] === 'needs-yes')).toBe(false);
    // --keep-going is the default and may be said; with --fail-fast it is a usage error
    const both = await runCli(['apply', cwd, '--yes', '--keep-going', '--fail-fast'], { env: simEnv(sim.url), cwd });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("option '--fail-fast' cannot be used with option '--keep-going'");
  });

  it('a failing tenant create (duplicate billingId, 400) skips only its subtree; the summary names it and its manifest line', async () => {
    const cwd = await manifestDir({
      'tenants.yaml':
        tenantDoc('fine-co', 'T-FINE', withSubscription('T-FINE')) +
        tenantDoc('clash-co', 'T-ACME', withSubscription('T-CLASH')),
    });
    const result = await runCli(['apply', cwd, '--yes'], { env: simEnv(sim.url), cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ create tenant\/clash-co \(.*tenants\.yaml:12:1\)/);
    expect(result.stdout).toContain('billingId T-ACME is already used');
    expect(result.stdout).toContain('- create tenant/clash-co/subscription/main: tenant/clash-co failed');
    expect(result.stdout).toContain('Apply incomplete: 2 applied, 1 failed, 1 skipped');
    const tenants = (await simState()).tables['tenants'] ?? [];
    expect(tenants.some((t) => t['name'] === 'fine-co')).toBe(true);
  });

  it('an address and a location whose house number holds a box ("16/2") are created and converge', async () => {
    const spec = `  subscriptions:
    - name: main
      billingId: T-BOX-MAIN
      uc: uc_alpha
      addresses:
        - { street: Rue Haute, number: "16/2", city: Brussels, postalCode: 1000, country: Belgium, isoCode: BE }
      locations:
        - { street: Rue Haute, number: "16/2", postalCode: "1000" }
`;
    const cwd = await manifestDir({ 'box.yaml': tenantDoc('box-co', 'T-BOX', spec) });
    const planned = await runCli(['plan', cwd], { env: simEnv(sim.url), cwd });
    expect(planned.stdout).toContain(
      '+ tenant/box-co/subscription/main/address/Rue Haute 16/2, 1000 Brussels, Belgium',
    );
    const applied = await runCli(['apply', cwd, '--yes'], { env: simEnv(sim.url), cwd });
    expect(applied.stdout).toContain('Apply complete: 4 applied, 0 failed, 0 skipped');
    const again = await runCli(['plan', cwd, '--detailed-exitcode'], { env: simEnv(sim.url), cwd });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  it(
    'a saved plan is applied exactly; a stale one is refused with exit 3 naming the address',
    { timeout: 60_000 },
    async () => {
      const cwd = await manifestDir({ 't.yaml': tenantDoc('saved-co', 'T-SAVED', '  markup: 2\n') });
      await runCli(['apply', cwd, '--yes'], { env: simEnv(sim.url), cwd });
      await writeFile(join(cwd, 't.yaml'), tenantDoc('saved-co', 'T-SAVED', '  markup: 3\n'));
      const planned = await runCli(['plan', cwd, '--out', join(cwd, 'plan.json')], { env: simEnv(sim.url), cwd });
      expect(planned.code).toBe(0);

      // an out-of-band change after the plan was made
      const tenant = ((await simState()).tables['tenants'] ?? []).find((t) => t['name'] === 'saved-co');
      expect((await api('PUT', `${P}/tenants/${String(tenant?.['uuid'])}`, { billingId: 'T-SAVED-2' })).status).toBe(
        200,
      );
      const stale = await runCli(['apply', cwd, '--plan', join(cwd, 'plan.json'), '--yes'], {
        env: simEnv(sim.url),
        cwd,
      });
      expect(stale.code).toBe(3);
      expect(stale.stderr).toContain('is stale');
      expect(stale.stderr).toContain('tenant/saved-co: the live object changed since the plan was made');

      // a fresh plan of the same manifests applies
      await api('PUT', `${P}/tenants/${String(tenant?.['uuid'])}`, { billingId: 'T-SAVED' });
      await runCli(['plan', cwd, '--out', join(cwd, 'plan.json')], { env: simEnv(sim.url), cwd });
      const ok = await runCli(['apply', cwd, '--plan', join(cwd, 'plan.json'), '--yes'], { env: simEnv(sim.url), cwd });
      expect(ok.stdout).toContain('Apply complete: 1 applied');
      expect(ok.code).toBe(0);

      // other manifests than the plan's are refused: the bodies come from them
      await writeFile(join(cwd, 't.yaml'), tenantDoc('saved-co', 'T-SAVED', '  markup: 4\n'));
      const other = await runCli(['apply', cwd, '--plan', join(cwd, 'plan.json'), '--yes'], {
        env: simEnv(sim.url),
        cwd,
      });
      expect(other.code).toBe(3);
      expect(other.stderr).toContain('was made from other manifests');
    },
  );

  it('a saved plan made with --prune --target is applied with its own options; a contradicting option is refused (exit 3)', async () => {
    const twoSubscriptions = `  subscriptions:
    - { name: keep, billingId: T-PRUNE-KEEP, uc: uc_alpha }
    - { name: drop, billingId: T-PRUNE-DROP, uc: uc_alpha }
`;
    const cwd = await manifestDir({
      't.yaml': tenantDoc('prune-co', 'T-PRUNE', twoSubscriptions) + tenantDoc('other-co', 'T-OTHER', '  markup: 1\n'),
    });
    expect((await runCli(['apply', cwd, '--yes'], { env: simEnv(sim.url), cwd })).code).toBe(0);
    await writeFile(
      join(cwd, 't.yaml'),
      tenantDoc(
        'prune-co',
        'T-PRUNE',
        '  subscriptions:\n    - { name: keep, billingId: T-PRUNE-KEEP, uc: uc_alpha }\n',
      ) + tenantDoc('other-co', 'T-OTHER', '  markup: 2\n'),
    );
    const plan = join(cwd, 'plan.json');
    const planned = await runCli(
      ['plan', cwd, '--prune', '--target', 'tenant/prune-co', '--max-delete-percent', '100', '--out', plan],
      { env: simEnv(sim.url), cwd },
    );
    expect(planned.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 1 to delete.');
    expect(JSON.parse(await readFile(plan, 'utf8'))).toMatchObject({
      options: { target: ['tenant/prune-co'], exclude: [], prune: true, allowReplace: false, maxDeletePercent: 100 },
    });

    const contradicted = await runCli(['apply', cwd, '--plan', plan, '--max-delete-percent', '10', '--yes'], {
      env: simEnv(sim.url),
      cwd,
    });
    expect(contradicted.code).toBe(3);
    expect(contradicted.stderr).toContain(
      '--max-delete-percent: the plan was made with --max-delete-percent 100, this command gives --max-delete-percent 10',
    );

    // The plan loosened a rail (--max-delete-percent 100): whoever applies gives it again.
    const unasked = await runCli(['apply', cwd, '--plan', plan, '--yes'], { env: simEnv(sim.url), cwd });
    expect(unasked.code).toBe(3);
    expect(unasked.stderr).toContain(
      'the plan was made with --max-delete-percent 100, which this command does not give',
    );
    const applied = await runCli(['apply', cwd, '--plan', plan, '--max-delete-percent', '100', '--yes'], {
      env: simEnv(sim.url),
      cwd,
    });
    expect(applied.stdout).toContain('Apply complete: 1 applied, 0 failed, 0 skipped');
    expect(applied.code).toBe(0);
    const subscriptions = (await simState()).tables['subscriptions'] ?? [];
    expect(subscriptions.filter((x) => String(x['billingId']).startsWith('T-PRUNE-')).map((x) => x['name'])).toEqual([
      'keep',
    ]);
    // other-co's markup change was outside the plan's --target: not applied
    const other = ((await simState()).tables['tenants'] ?? []).find((t) => t['name'] === 'other-co');
    expect((other?.['markups'] as { markup: number }[]).map((m) => m.markup)).toEqual([1]);
  });

  it(
    'apply --plan reads again everything the plan read: the rails count the same objects',
    { timeout: 60_000 },
    async () => {
      const names = Array.from({ length: 8 }, (_, i) => `reread-${i}`);
      const docs = (markup: (name: string) => number) =>
        names
          .map((n) =>
            tenantDoc(n, `T-${n.toUpperCase()}`, `  markup: ${markup(n)}\n${withSubscription(`T-${n.toUpperCase()}`)}`),
          )
          .join('');
      const cwd = await manifestDir({ 't.yaml': docs(() => 1) });
      expect((await runCli(['apply', cwd, '--yes'], { env: simEnv(sim.url), cwd })).code).toBe(0);
      await writeFile(
        join(cwd, 't.yaml'),
        docs((n) => (n === 'reread-3' ? 2 : 1)),
      );
      const plan = join(cwd, 'plan.json');
      await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
      expect((await runCli(['plan', cwd, '--out', plan], { env: simEnv(sim.url), cwd })).stdout).toContain(
        'Plan: 0 to create, 1 to update',
      );
      const subscriptionLists = async () => {
        const stats = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as { byRoute: Record<string, number> };
        await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
        return stats.byRoute['GET /api/v01/draas/:instance/tenants/:uuid/subscriptions'] ?? 0;
      };
      expect(await subscriptionLists()).toBe(names.length); // the plan reads every declared tenant
      const applied = await runCli(['apply', cwd, '--plan', plan, '--yes'], { env: simEnv(sim.url), cwd });
      expect(applied.stdout).toContain('Apply complete: 1 applied');
      expect(await subscriptionLists()).toBe(names.length); // and so does apply --plan (docs/apply.md "What it costs")
    },
  );

  it('a run killed with SIGKILL in the middle is finished by the next apply, with no duplicates', async () => {
    const count = 150;
    const docs = Array.from({ length: count }, (_, i) =>
      tenantDoc(`kill-${String(i).padStart(4, '0')}`, `T-KILL-${i}`),
    ).join('');
    const cwd = await manifestDir({ 'many.yaml': docs });
    await fetch(`${sim.url}/_sim/faults`, { method: 'POST', body: JSON.stringify({ rate: 0, latencyMs: 40 }) });
    try {
      const child = spawn(process.execPath, [CLI, 'apply', cwd, '--yes', '--concurrency', '4'], {
        cwd,
        env: cliEnv(simEnv(sim.url)),
        stdio: 'ignore',
      });
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      for (let i = 0; i < 400; i++) {
        const made = ((await simState()).tables['tenants'] ?? []).filter((t) =>
          String(t['name']).startsWith('kill-'),
        ).length;
        if (made >= 20) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill('SIGKILL');
      await exited;
      // requests already on the wire still land (the simulator handles a request on arrival and holds its answer)
      await new Promise((r) => setTimeout(r, 500));
      const partial = ((await simState()).tables['tenants'] ?? []).filter((t) =>
        String(t['name']).startsWith('kill-'),
      ).length;
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(count);

      const plan = await runCli(['plan', cwd], { env: simEnv(sim.url), cwd });
      expect(plan.stdout).toContain(`Plan: ${count - partial} to create, 0 to update`);
      const finish = await runCli(['apply', cwd, '--yes'], { env: simEnv(sim.url), cwd });
      expect(finish.stdout).toContain(`Apply complete: ${count - partial} applied, 0 failed`);
    } finally {
      await fetch(`${sim.url}/_sim/faults`, { method: 'POST', body: JSON.stringify({ rate: 0, latencyMs: 0 }) });
    }
    const names = ((await simState()).tables['tenants'] ?? [])
      .map((t) => String(t['name']))
      .filter((n) => n.startsWith('kill-'));
    expect(names).toHaveLength(count);
    expect(new Set(names).size).toBe(count);
    const again = await runCli(['plan', cwd, '--detailed-exitcode'], { env: simEnv(sim.url), cwd });
    expect(again.code).toBe(0);
  }, 120_000);
});

describe('switchboard apply interrupted with Ctrl-C (SIGINT)', () => {
  it('finishes the requests in flight, starts nothing more, prints the summary and exits 1', async () => {
    const slow = await startSimulator({ port: 0, latencyMs: 40 });
    try {
      const count = 80;
      const cwd = await manifestDir({
        'many.yaml': Array.from({ length: count }, (_, i) => tenantDoc(`int-${i}`, `T-INT-${i}`)).join(''),
      });
      const child = spawn(process.execPath, [CLI, 'apply', cwd, '--yes', '--concurrency', '2'], {
        cwd,
        env: cliEnv(simEnv(slow.url)),
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      for (let i = 0; i < 400; i++) {
        const state = (await (await fetch(`${slow.url}/_sim/state`)).json()) as SimState;
        if ((state.tables['tenants'] ?? []).filter((t) => String(t['name']).startsWith('int-')).length >= 5) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      child.kill('SIGINT');
      expect(await exited).toBe(1);
      expect(stdout).toContain('not started: the run was interrupted');
      const applied = Number(/Apply incomplete: (\d+) applied, 0 failed, (\d+) skipped/.exec(stdout)?.[1]);
      const state = (await (await fetch(`${slow.url}/_sim/state`)).json()) as SimState;
      expect((state.tables['tenants'] ?? []).filter((t) => String(t['name']).startsWith('int-'))).toHaveLength(applied);
    } finally {
      await slow.close();
    }
  }, 60_000);
});

describe('switchboard apply on a flaky platform (500, 503, connection resets)', () => {
  it('re-sends a create only after looking it up; runs until clean leave each tenant exactly once', async () => {
    const flaky = await startSimulator({ port: 0 });
    try {
      const count = 60;
      const cwd = await manifestDir({
        'many.yaml': Array.from({ length: count }, (_, i) => tenantDoc(`flaky-${i}`, `T-FLAKY-${i}`)).join(''),
      });
      await fetch(`${flaky.url}/_sim/faults`, {
        method: 'POST',
        body: JSON.stringify({ rate: 0.15, statuses: [500, 503], resetConnections: true }),
      });
      let code = -1;
      for (let run = 0; run < 5 && code !== 0; run++)
        code = (await runCli(['apply', cwd, '--yes'], { env: simEnv(flaky.url), cwd })).code;
      expect(code).toBe(0);
      const stats = (await (await fetch(`${flaky.url}/_sim/stats`)).json()) as { faults: Record<string, number> };
      expect(Object.values(stats.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      await fetch(`${flaky.url}/_sim/faults`, { method: 'POST', body: JSON.stringify({ rate: 0 }) });
      const state = (await (await fetch(`${flaky.url}/_sim/state`)).json()) as SimState;
      const names = (state.tables['tenants'] ?? []).map((t) => String(t['name'])).filter((n) => n.startsWith('flaky-'));
      expect(names).toHaveLength(count);
      expect(new Set(names).size).toBe(count);
      expect((await runCli(['plan', cwd, '--detailed-exitcode'], { env: simEnv(flaky.url), cwd })).code).toBe(0);
    } finally {
      await flaky.close();
    }
  }, 120_000);
});

describe('switchboard apply: Doc2 §4.5-4.6 bulk endpoints against the simulator', () => {
  let bulkSim: RunningSimulator;
  beforeAll(async () => {
    bulkSim = await startSimulator({ port: 0 });
  });
  afterAll(async () => {
    await bulkSim.close();
  });

  const csv = (rows: number) =>
    [
      'premises,city,country,isoCode,number,postalCode,state,street',
      ...Array.from({ length: rows }, (_, i) => `,Brussels,Belgium,BE,${i + 1},1000,,Rue Neuve`),
    ].join('\n') + '\n';
  const acme = `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme-corp, reseller: north }
spec:
  billingId: T-ACME
  subscriptions:
    - name: main
      billingId: T-ACME-MAIN
      uc: uc_alpha
      addressesFrom: addresses.csv
      numbers:
        "+3221234562": { address: "Rue Neuve 1, 1000 Brussels, Belgium" }
        "+3221234563": { address: "Rue Neuve 2, 1000 Brussels, Belgium" }
`;
  const stats = async () =>
    ((await (await fetch(`${bulkSim.url}/_sim/stats`)).json()) as { byRoute: Record<string, number> }).byRoute;

  it('25 addresses go through one PUT A/bulk, links through one PUT T/address_numbers/bulk; a failing item is reported against its CSV line', async () => {
    // an address that differs only in case exists already: the platform refuses the 7th as a duplicate
    const bulkApi = await adminApi(bulkSim.url);
    const state = (await (await fetch(`${bulkSim.url}/_sim/state`)).json()) as SimState;
    const acmeUuid = String(state.tables['tenants']?.find((t) => t['name'] === 'acme-corp')?.['uuid']);
    const subId = String(state.tables['subscriptions']?.find((t) => t['name'] === 'main')?.['id']);
    const A = `${P}/tenants/${acmeUuid}/subscriptions/${subId}/addresses`;
    const clash = await bulkApi('POST', A, {
      data: { street: 'RUE NEUVE', number: '7', postalCode: 1000, city: 'BRUSSELS', country: 'BELGIUM' },
    });
    expect(clash.status).toBe(201);
    const cwd = await manifestDir({ 'acme.yaml': acme, 'addresses.csv': csv(25) });
    const result = await runCli(['apply', cwd, '--yes'], { env: simEnv(bulkSim.url), cwd });
    const byRoute = await stats();
    expect(byRoute['PUT /api/v01/draas/:instance/tenants/:uuid/subscriptions/:subscription_id/addresses/bulk']).toBe(1);
    expect(
      byRoute['PUT /api/v01/draas/:instance/tenants/:uuid/subscriptions/:subscription_id/address_numbers/bulk'],
    ).toBe(1);
    expect(byRoute['POST /api/v01/draas/:instance/tenants/:uuid/subscriptions/:subscription_id/addresses']).toBe(1); // the test's own
    expect(result.stdout).toMatch(
      /✗ create tenant\/acme-corp\/subscription\/main\/address\/Rue Neuve 7, 1000 Brussels, Belgium \(.*addresses\.csv:8/,
    );
    expect(result.stdout).toContain('already exists');
    expect(result.stdout).toContain('Apply incomplete: 26 applied, 1 failed, 0 skipped');
    expect(result.code).toBe(1);

    // fixed: the one remaining address is a single POST, and the plan is then empty
    expect((await bulkApi('DELETE', `${A}/${String(clash.body.id)}`)).status).toBe(204);
    const fixed = await runCli(['apply', cwd, '--yes'], { env: simEnv(bulkSim.url), cwd });
    expect(fixed.stdout).toContain('Apply complete: 1 applied, 0 failed');
    expect(
      (await stats())['POST /api/v01/draas/:instance/tenants/:uuid/subscriptions/:subscription_id/addresses'],
    ).toBe(2);
    const plan = await runCli(['plan', cwd, '--detailed-exitcode'], { env: simEnv(bulkSim.url), cwd });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  }, 60_000);
});
