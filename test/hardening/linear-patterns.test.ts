/**
 * Regular expressions from manifests run in linear time (RE2 semantics), and long CPU steps
 * hear signals. A Policy pattern written to backtrack (`^(a+)+$` against `aaa…a!`, hours
 * with a backtracking engine) is checked over many rows at once; `validate` refuses what RE2
 * cannot compile (backreferences, lookaround) at its file:line:col, in `require.pattern` and
 * in `where`. The policy check and the manifest load (documents and CSV rows, quoted or not)
 * stop with the run's interrupt when it fires in the middle of them; and a SIGTERM sent
 * while `plan` is checking policies after its last read exits 143, not with the plan's code.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/commands/validate.js';
import { SwitchboardError } from '../../src/core/errors.js';
import { setRunInterrupt } from '../../src/core/pacer.js';
import { loadManifests } from '../../src/manifest/index.js';
import { evaluatePolicies } from '../../src/plan/policy/evaluate.js';
import type { PolicyFacts } from '../../src/plan/policy/facts.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { CLI, cliEnv, manifestDir, simEnv } from '../e2e/cli-helpers.js';
import { startHookProxy, type HookProxy } from './support/hook-proxy.js';

const BACKTRACKING = '^(a+)+$';
const EVIL_VALUE = `${'a'.repeat(40)}!`;

const table = (rows: number, csv: string) =>
  `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby }
spec:
  key: [number]
  fields: { number: string, route: string }
  recordsFrom: ${csv}
`;
const csvRows = (rows: number, quoted = false) =>
  `number,route\n${Array.from({ length: rows }, (_, i) => (quoted ? `"+32${i}","${EVIL_VALUE}"` : `+32${i},${EVIL_VALUE}`)).join('\n')}\n`;
const policy = (rules: number, pattern = BACKTRACKING) =>
  `apiVersion: switchboard/v1
kind: Policy
metadata: { name: patterns }
spec:
  rules:
${Array.from(
  { length: rules },
  (_, i) => `    - id: backtracking-${i}
      match: { kind: RoutingRow, table: draas/standby/routes, where: { route: { pattern: "${pattern}" } } }
      require: { field: number, pattern: "^\\\\+32${i}" }
`,
).join('')}`;

function facts(loaded: Awaited<ReturnType<typeof loadManifests>>): PolicyFacts {
  return {
    declared: [],
    tables: loaded.set.routingTables,
    changes: [],
    liveCounts: new Map(),
    tableLiveCounts: new Map(),
    capacity: [],
    references: new Map(),
    sourceOf: () => undefined,
  };
}

/** The run's interrupt, fired by a timer: it can only fire if the step gives the event loop a turn. */
function interruptSoon(): AbortController {
  const controller = new AbortController();
  setRunInterrupt(controller.signal);
  setTimeout(() => controller.abort(new SwitchboardError('SB_INTERRUPTED', 'interrupted by the test')), 5);
  return controller;
}

afterEach(() => setRunInterrupt(undefined));

describe('patterns from manifests', () => {
  it('validate refuses what RE2 cannot compile, in require and in where, at file:line:col', async () => {
    const dir = await manifestDir({
      'p.yaml': `apiVersion: switchboard/v1
kind: Policy
metadata: { name: p }
spec:
  rules:
    - id: backreference
      match: { kind: Tenant }
      require: { field: billingId, pattern: "^(T)-\\\\1$" }
    - id: lookahead
      match: { kind: Tenant, where: { name: { pattern: "^(?=acme)" } } }
      require: { field: billingId }
    - id: case-insensitive-is-fine
      match: { kind: Tenant, where: { name: { pattern: "(?i)^ACME" } } }
      require: { field: billingId, pattern: "^T-\\\\d+$" }
`,
    });
    const { output, exitCode } = await runValidate([dir], { format: 'text', cwd: dir, env: {} });
    expect(exitCode).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^p\.yaml:8:45: error SB_POLICY_RULE: "\^\(T\)-\\1\$" is not a regular expression RE2 accepts .*`\\1`$/,
      ),
      expect.stringMatching(
        /^p\.yaml:10:56: error SB_POLICY_RULE: "\^\(\?=acme\)" is not a regular expression RE2 accepts/,
      ),
      expect.stringMatching(/^FAILED: 1 file, 0 objects, 1 policy rule: 2 errors/),
    ]);
  });

  it('a pattern written to backtrack is checked over 20,000 rows (a backtracking engine would take hours)', async () => {
    const dir = await manifestDir({ 't.yaml': table(20_000, 'rows.csv'), 'p.yaml': policy(2) });
    await writeFile(join(dir, 'rows.csv'), csvRows(20_000));
    const loaded = await loadManifests([dir], { cwd: dir, env: {} });
    expect(loaded.diagnostics).toEqual([]);
    const outcome = await evaluatePolicies(loaded.policies, facts(loaded), { allowPolicy: [] });
    // The pattern does not match `aaa…a!`: no row is selected, no violation.
    expect(outcome).toEqual({ errors: [], warnings: [] });
  }, 60_000);
});

describe('long CPU steps stop on the run interrupt', () => {
  it('the policy check over 200,000 rows', async () => {
    const dir = await manifestDir({ 't.yaml': table(200_000, 'rows.csv'), 'p.yaml': policy(5, '^a+!$') });
    await writeFile(join(dir, 'rows.csv'), csvRows(200_000));
    const loaded = await loadManifests([dir], { cwd: dir, env: {} });
    interruptSoon();
    await expect((async () => evaluatePolicies(loaded.policies, facts(loaded), { allowPolicy: [] }))()).rejects.toThrow(
      'interrupted by the test',
    );
  }, 60_000);

  it.each([
    ['plain', false],
    ['quoted', true],
  ])(
    'the manifest load of 300,000 %s CSV rows',
    async (_name, quoted) => {
      const dir = await manifestDir({ 't.yaml': table(300_000, 'rows.csv') });
      await writeFile(join(dir, 'rows.csv'), csvRows(300_000, quoted));
      interruptSoon();
      await expect(loadManifests([dir], { cwd: dir, env: {} })).rejects.toThrow('interrupted by the test');
    },
    60_000,
  );

  it('the manifest load of 20,000 documents', async () => {
    const tenants = Array.from(
      { length: 20_000 },
      (_, i) =>
        `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t-${i}, reseller: north }\nspec: { markup: 1 }\n`,
    ).join('---\n');
    const dir = await manifestDir({ 't.yaml': tenants });
    interruptSoon();
    await expect(loadManifests([dir], { cwd: dir, env: {} })).rejects.toThrow('interrupted by the test');
  }, 60_000);
});

describe('SIGTERM while plan checks policies, after its last read', () => {
  let sim: RunningSimulator;
  let proxy: HookProxy;
  let onAnswer: (path: string) => void = () => undefined;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    proxy = await startHookProxy(
      sim.url,
      () => undefined,
      (request) => onAnswer(request.path),
    );
  });
  afterAll(async () => {
    await proxy.close();
    await sim.close();
  });

  it("exits 143 and says so, instead of the plan's own exit code", async () => {
    const dir = await manifestDir({ 't.yaml': table(100_000, 'rows.csv'), 'p.yaml': policy(20, '^a+!$') });
    await writeFile(join(dir, 'rows.csv'), csvRows(100_000));
    const child = spawn(process.execPath, [CLI, 'plan', '.'], {
      cwd: dir,
      env: cliEnv(simEnv(proxy.url)),
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.resume();
    // The routing table's rows are the last read: the policies are checked after it.
    onAnswer = (path) => {
      if (path.endsWith('/draas/standby/routes')) setTimeout(() => child.kill('SIGTERM'), 300);
    };
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    onAnswer = () => undefined;
    expect(stderr).toContain('Interrupted (SIGTERM) while planning: nothing was changed');
    expect(code).toBe(143);
  }, 120_000);
});
