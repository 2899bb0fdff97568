/**
 * Signals (docs/apply.md "Interrupting an apply"): SIGTERM (what GitLab, Kubernetes and `docker stop`
 * send) during apply is handled like Ctrl-C: the requests in flight finish, the summary is
 * printed, the journal is synced, the lock released, exit 1. A signal while planning (of
 * plan or of apply) says so, releases the lock and exits 130 (SIGINT) or 143 (SIGTERM).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { CLI, cliEnv, manifestDir, simEnv } from '../e2e/cli-helpers.js';
import { startHookProxy, type HookProxy, type ProxiedRequest } from './support/hook-proxy.js';

const P = '/api/v01/draas/demo';
let sim: RunningSimulator;
let proxy: HookProxy;
/** What the proxy does with a request before forwarding it (set per test). */
let onRequest: (request: ProxiedRequest) => Promise<void> = async () => undefined;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  proxy = await startHookProxy(sim.url, async (request) => {
    await onRequest(request);
    return undefined;
  });
});
afterAll(async () => {
  await proxy.close();
  await sim.close();
});

const tenants = (prefix: string, count: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: ${prefix}-${i}, reseller: north }\nspec: { billingId: T-${prefix.toUpperCase()}-${i} }\n`,
  ).join('---\n');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; `when` resolves with the signal(s) to send, when to send them. */
function runWithSignal(args: string[], cwd: string, when: (child: { kill: (s: NodeJS.Signals) => void }) => void) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: cliEnv(simEnv(proxy.url)),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  when({ kill: (s) => child.kill(s) });
  return new Promise<Run>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

const hold = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Holds requests until released: "at once" is said without a clock, as the run having ended
 * while the request it must not wait for was still held. A run that waits for it anyway gets
 * it after 30 s, and then fails on `held()`, not on the test's time limit.
 */
function holding(): { hold: () => Promise<void>; held: () => number; release: () => void } {
  const waiting: (() => void)[] = [];
  return {
    hold: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        const giveUp = () => {
          const at = waiting.indexOf(resolve);
          if (at >= 0) waiting.splice(at, 1);
          resolve();
        };
        setTimeout(giveUp, 30_000).unref();
      }),
    held: () => waiting.length,
    release: () => waiting.splice(0).forEach((resolve) => resolve()),
  };
}

async function journalLines(cwd: string): Promise<Record<string, unknown>[]> {
  const file = (await readdir(join(cwd, '.switchboard'))).find((f) => f.startsWith('journal-'));
  if (!file) return [];
  const text = await readFile(join(cwd, '.switchboard', file), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('SIGTERM during apply', () => {
  it('finishes what is in flight, prints the summary, syncs the journal, releases the lock, exits 1', async () => {
    const cwd = await manifestDir({ 't.yaml': tenants('term', 30) });
    let kill: ((s: NodeJS.Signals) => void) | undefined;
    let creates = 0;
    onRequest = async (request) => {
      if (request.method !== 'POST' || request.path !== `${P}/tenants`) return;
      if (++creates === 3) kill?.('SIGTERM');
      await hold(300); // the creates in flight when the signal comes
    };
    const run = await runWithSignal(['apply', '.', '--yes', '--concurrency', '2'], cwd, (child) => {
      kill = child.kill;
    });
    onRequest = async () => undefined;
    expect(run.signal, 'not killed by the signal').toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Interrupted (SIGTERM): finishing the requests in flight');
    expect(run.stdout).toContain('not started: the run was interrupted');
    const applied = Number(/Apply incomplete: (\d+) applied, 0 failed, (\d+) skipped/.exec(run.stdout)?.[1]);
    expect(applied).toBeGreaterThanOrEqual(3); // the ones in flight finished
    expect(applied).toBeLessThan(30);
    expect(existsSync(join(cwd, '.switchboard', 'apply.lock'))).toBe(false);
    const lines = await journalLines(cwd);
    expect(lines.at(-1)).toMatchObject({ type: 'run', event: 'end', summary: { applied } });
    const state = (await (await fetch(`${sim.url}/_sim/state`)).json()) as { tables: { tenants?: { name: string }[] } };
    expect((state.tables.tenants ?? []).filter((t) => t.name.startsWith('term-'))).toHaveLength(applied);
  }, 60_000);

  it('a second signal quits at once (exit 143) and still releases the lock', async () => {
    const cwd = await manifestDir({ 't.yaml': tenants('twice', 10) });
    let kill: ((s: NodeJS.Signals) => void) | undefined;
    let creates = 0;
    onRequest = async (request) => {
      if (request.method !== 'POST' || request.path !== `${P}/tenants`) return;
      if (++creates === 1) {
        kill?.('SIGTERM');
        setTimeout(() => kill?.('SIGTERM'), 200);
      }
      await requests.hold(); // in flight until the run has ended: only the second signal ends it
    };
    const requests = holding();
    const run = await runWithSignal(['apply', '.', '--yes', '--concurrency', '1'], cwd, (child) => {
      kill = child.kill;
    });
    const stillHeld = requests.held();
    requests.release();
    onRequest = async () => undefined;
    expect(run.code).toBe(143);
    expect(stillHeld, 'the run ended without waiting for the request in flight').toBe(1);
    expect(run.stderr).toContain('Interrupted again (SIGTERM): quitting now');
    expect(existsSync(join(cwd, '.switchboard', 'apply.lock'))).toBe(false);
  }, 60_000);
});

describe('a second signal with --format json', () => {
  it('stdout still gets one document: outcome error, SB_INTERRUPTED (exit 143)', async () => {
    const cwd = await manifestDir({ 't.yaml': tenants('twicejson', 4) });
    let kill: ((s: NodeJS.Signals) => void) | undefined;
    let creates = 0;
    onRequest = async (request) => {
      if (request.method !== 'POST' || request.path !== `${P}/tenants`) return;
      if (++creates === 1) {
        kill?.('SIGINT');
        setTimeout(() => kill?.('SIGTERM'), 200);
      }
      await requests.hold(); // in flight until the run has ended: only the second signal ends it
    };
    const requests = holding();
    const args = ['apply', '.', '--yes', '--concurrency', '1', '--format', 'json'];
    const run = await runWithSignal(args, cwd, (child) => {
      kill = child.kill;
    });
    requests.release();
    onRequest = async () => undefined;
    expect(run.code).toBe(143);
    const summary = JSON.parse(run.stdout) as { outcome: string; errors: { code: string; message: string }[] };
    expect(summary).toMatchObject({ outcome: 'error', applied: 0, journal: null, plan: null });
    expect(summary.errors).toEqual([
      {
        code: 'SB_INTERRUPTED',
        message: 'Interrupted again (SIGTERM): quitting now; what was in flight may or may not have been applied.',
      },
    ]);
  }, 60_000);
});

describe('a signal while planning', () => {
  const planning = (signal: NodeJS.Signals) => async (cwd: string, args: string[]) => {
    let kill: ((s: NodeJS.Signals) => void) | undefined;
    const lists = holding();
    onRequest = async (request) => {
      if (request.method === 'GET' && request.path === `${P}/tenants`) {
        kill?.(signal);
        await lists.hold(); // a list that never ends: the run must not wait for it
      }
    };
    const run = await runWithSignal(args, cwd, (child) => {
      kill = child.kill;
    });
    const stillHeld = lists.held();
    lists.release();
    onRequest = async () => undefined;
    return { ...run, stillHeld };
  };

  it('apply, SIGTERM: says so, nothing sent, the lock released, exit 143, at once', async () => {
    const cwd = await manifestDir({ 't.yaml': tenants('plant', 3) });
    const run = await planning('SIGTERM')(cwd, ['apply', '.', '--yes']);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(143);
    expect(run.stillHeld, 'ended while the list was still held').toBeGreaterThan(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Interrupted (SIGTERM) while planning: nothing was changed');
    expect(existsSync(join(cwd, '.switchboard', 'apply.lock'))).toBe(false);
  }, 60_000);

  it('plan, SIGINT (Ctrl-C): says so, exit 130', async () => {
    const cwd = await manifestDir({ 't.yaml': tenants('plani', 3) });
    const run = await planning('SIGINT')(cwd, ['plan', '.']);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(130);
    expect(run.stillHeld, 'ended while the list was still held').toBeGreaterThan(0);
    expect(run.stderr).toContain('Interrupted (SIGINT) while planning: nothing was changed');
  }, 60_000);
});

/**
 * A RoutingTest of `count` vectors that pass on the seeded active routes (its rows answer none of them; a
 * table must be shown to exist, so not an empty one): only a signal stops them.
 */
const absentVectors = (count: number) =>
  `apiVersion: switchboard/v1\nkind: RoutingTest\nmetadata: { name: never-routed }\nspec:\n  table: draas/active/routes\n  vectors:\n${Array.from(
    { length: count },
    (_, i) => `    - { lookup: { number: "+329000000${i}" }, expect: absent }\n`,
  ).join('')}`;

describe('a signal while verifying', () => {
  /**
   * Runs `args`; the second vector's search (after the table's list and the first vector's) sends `signal`
   * and is held until the run has ended.
   */
  const verifying = (signal: NodeJS.Signals) => async (cwd: string, args: string[]) => {
    let kill: ((s: NodeJS.Signals) => void) | undefined;
    const searches = holding();
    let seen = 0;
    onRequest = async (request) => {
      if (request.method !== 'GET' || request.path !== '/draas/active/routes') return;
      if (++seen !== 3) return;
      kill?.(signal);
      await searches.hold(); // a search that never ends: the run must not wait for it
    };
    const run = await runWithSignal(args, cwd, (child) => {
      kill = child.kill;
    });
    const stillHeld = searches.held();
    searches.release();
    onRequest = async () => undefined;
    return { ...run, stillHeld };
  };

  it('verify, SIGINT: what was searched is printed and journalled, the rest neither passed nor failed, exit 130', async () => {
    const cwd = await manifestDir({ 'tests.yaml': absentVectors(4) });
    const run = await verifying('SIGINT')(cwd, ['verify', '.', '--concurrency', '1']);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(130);
    expect(run.stillHeld, 'ended while the search was still held').toBe(1);
    expect(run.stderr).toContain('Interrupted (SIGINT): stopping the verification…');
    expect(run.stderr).toContain('Interrupted (SIGINT) while verifying: nothing was changed');
    expect(run.stdout).toContain(
      'Verification interrupted: of 4 vectors of 1 RoutingTest, 1 passed, 0 did not pass and 3 were not searched',
    );
    expect(run.stdout).not.toContain('✗');
    const lines = await journalLines(cwd);
    expect(
      lines.filter((l) => l['type'] === 'verify'),
      'a test not searched whole attests nothing',
    ).toEqual([]);
    expect(lines.at(-1)).toMatchObject({
      type: 'run',
      event: 'end',
      summary: { verified: 1, verifyFailed: 0, verifyNotSearched: 3 },
    });
  }, 60_000);

  it('verify --format json, SIGTERM: outcome interrupted, exit 143', async () => {
    const cwd = await manifestDir({ 'tests.yaml': absentVectors(3) });
    const run = await verifying('SIGTERM')(cwd, ['verify', '.', '--concurrency', '1', '--format', 'json']);
    expect(run.code).toBe(143);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'interrupted', vectors: 3, passed: 1, notSearched: 2 });
    expect(JSON.parse(run.stdout).failures).toEqual([]);
  }, 60_000);

  it('apply --verify, SIGTERM during the searches: the apply summary, then exit 143', async () => {
    const cwd = await manifestDir({ 't.yaml': tenants('verterm', 1), 'tests.yaml': absentVectors(3) });
    const run = await verifying('SIGTERM')(cwd, [
      'apply',
      '.',
      '--yes',
      '--verify',
      '--concurrency',
      '1',
      '--format',
      'json',
    ]);
    expect(run.code).toBe(143);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ outcome: 'complete', applied: 1 });
    expect(summary['verification']).toMatchObject({ outcome: 'interrupted', passed: 1, notSearched: 2, failures: [] });
    expect(run.stderr).toContain('Interrupted (SIGTERM) while verifying: every change was applied; 2 of 3 vectors');
  }, 60_000);
});
