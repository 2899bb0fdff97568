/**
 * The routing engine going away (docs/routing.md "When the engine goes away", docs/connecting.md
 * "Retries"): an engine that dies mid-apply or stops answering ends the run with one line for
 * what was not sent, after one request spent its retries instead of each row its own (counted
 * in requests and connections, not in seconds: test/bench/engine-away.mjs measures the time);
 * routing requests have the platform's timeout and retry budget, configurable; progress,
 * summary and journal count routing work; the `_bulk` fallback is said once per table, and the
 * plan shows the requests really sent.
 *
 * The silent engines' tests draw the backoff's jitter at 0 (support/no-jitter.mjs): they are
 * about the number of attempts and their timeout, which stay those of a real run.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startRoutingEngineSim, type RoutingSimServer } from '../../src/sim/routing/index.js';
import type { RoutingSeed } from '../../src/sim/routing/types.js';
import { manifestDir, runCli } from '../e2e/cli-helpers.js';
import { startHookProxy, type HookProxy, type ProxyHook } from './support/hook-proxy.js';

const FIELDS = {
  number: { type: 'string' as const, unique: true, nullable: false },
  route: { type: 'string' as const },
};
const number = (i: number) => `+3229${String(i).padStart(6, '0')}`;

function seed(tables: Record<string, number>, quirks: RoutingSeed['quirks'] = {}): RoutingSeed {
  return {
    credentials: { basic: [{ username: 'routing', password: 'routing' }] },
    quirks,
    services: {
      uc: {
        active: Object.fromEntries(
          Object.entries(tables).map(([name, rows]) => [
            name,
            { fields: FIELDS, rows: Array.from({ length: rows }, (_, i) => ({ number: number(i), route: 'old' })) },
          ]),
        ),
      },
    },
  };
}

/** A table document: `records` declared, prune on (every live row not declared is deleted). */
const tableDoc = (name: string, records: string[] = []) => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: ${name}, service: uc, version: active, prune: true }
spec:
  key: [number]
  fields: { number: string, route: string }
  records: [${records.join(', ')}]
`;
const record = (i: number, route = 'new') => `{ number: "${number(i)}", route: ${route} }`;

const NO_JITTER = {
  NODE_OPTIONS: `--import=${pathToFileURL(join(import.meta.dirname, 'support/no-jitter.mjs')).href}`,
};

const env = (url: string, extra: Record<string, string> = {}) => ({
  SWITCHBOARD_RE_URL: url,
  SWITCHBOARD_RE_USERNAME: 'routing',
  SWITCHBOARD_RE_PASSWORD: 'routing',
  ...extra,
});

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

async function engineWith(s: RoutingSeed, latencyMs = 0): Promise<RoutingSimServer> {
  const engine = await startRoutingEngineSim({ seed: s, latencyMs });
  cleanup.push(() => engine.close());
  return engine;
}

async function proxyFor(upstream: string, hook: ProxyHook): Promise<HookProxy> {
  const proxy = await startHookProxy(upstream, hook);
  cleanup.push(() => proxy.close());
  return proxy;
}

/** `✗` lines of the summary: one per failed change listed, plus one per group not sent. */
const failedLines = (stdout: string) => stdout.split('\n').filter((l) => l.trimStart().startsWith('✗'));

describe('an engine that dies mid-apply (connection refused)', () => {
  it('700 pending deletes: the run ends after fewer requests than rows, with one line for what was not sent', async () => {
    const engine = await engineWith(seed({ routes: 720 }));
    let deletes = 0;
    let closing: Promise<void> | undefined;
    const proxy = await proxyFor(engine.url, (request) => {
      if (request.method === 'DELETE' && ++deletes === 20) closing ??= proxy.close(); // the engine's port closes
      return undefined;
    });
    const dir = await manifestDir({ 'routes.yaml': tableDoc('routes') });
    const result = await runCli(['apply', dir, '--yes', '--max-delete-percent', '100'], {
      env: env(proxy.url),
      cwd: dir,
    });
    await closing;
    expect(result.code).toBe(1);
    // Fewer requests than rows left: before, every remaining delete went through its own
    // retries (4,130 requests, 554 s); now the reads, the deletes sent and those in flight.
    const sent = Number(/\((\d+) requests,/.exec(result.stdout)?.[1]);
    expect(sent, result.stdout).toBeLessThan(700);
    const lines = failedLines(result.stdout);
    expect(lines.length, result.stdout).toBeLessThanOrEqual(10);
    expect(result.stdout).toMatch(
      /✗ \d{3} routing row changes not sent\n\s+the routing engine at http:\/\/127\.0\.0\.1:\d+ is unreachable/,
    );
    expect(result.stdout).toContain('the next apply finishes what is left');
    expect(result.stdout).toMatch(
      /Apply incomplete: \d+ applied, 7\d\d failed|Apply incomplete: \d+ applied, \d+ failed/,
    );
    const applied = Number(/Apply incomplete: (\d+) applied/.exec(result.stdout)?.[1]);
    const failed = Number(/Apply incomplete: \d+ applied, (\d+) failed/.exec(result.stdout)?.[1]);
    expect(applied + failed).toBe(720);
  }, 60_000);
});

describe('an engine that accepts connections and never answers', () => {
  let silent: Server | undefined;
  const sockets: Socket[] = [];
  /** Connections the silent engine was opened: one per attempt, as a timed-out one is not used again. */
  let connections = 0;
  async function silentEngine(): Promise<string> {
    connections = 0;
    silent = createServer((socket) => {
      connections++;
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
    cleanup.push(async () => {
      for (const s of sockets.splice(0)) s.destroy();
      await new Promise<void>((resolve) => silent!.close(() => resolve()));
    });
    return `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  }

  it('plan: gives up after the documented budget with SWITCHBOARD_RE_TIMEOUT_MS per attempt, naming the timeout', async () => {
    const url = await silentEngine();
    const dir = await manifestDir({ 'routes.yaml': tableDoc('routes', [record(1)]) });
    const result = await runCli(['plan', dir], { env: env(url, { SWITCHBOARD_RE_TIMEOUT_MS: '300', ...NO_JITTER }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no answer within 300 ms');
    expect(result.stderr).toContain('gave up after 5 retries');
    // One request's 6 attempts, then nothing more: the engine is gone for the rest of the run.
    expect(connections).toBe(6);
  }, 60_000);

  it('the same from the config file (routingEngine.timeoutMs), and a bad value is an error naming the setting', async () => {
    const url = await silentEngine();
    const dir = await manifestDir({ 'routes.yaml': tableDoc('routes', [record(1)]) });
    const config = (timeout: string) =>
      `environments:\n  lab:\n    routingEngine:\n      url: ${url}\n      auth: { username: routing, password: routing }\n      timeoutMs: ${timeout}\n`;
    const configDir = await manifestDir({ 'switchboard.config.yaml': config('300') });
    const result = await runCli(['plan', dir], { cwd: configDir, env: NO_JITTER });
    expect(result.stderr).toContain('no answer within 300 ms');
    expect(result.code).toBe(1);
    const bad = await runCli(['plan', dir], { env: env(url, { SWITCHBOARD_RE_TIMEOUT_MS: '30s' }) });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('SWITCHBOARD_RE_TIMEOUT_MS: expected a whole number of milliseconds');
    await writeFile(join(configDir, 'switchboard.config.yaml'), config('soon'));
    const badFile = await runCli(['plan', dir], { cwd: configDir });
    expect(badFile.stderr).toContain('environments.lab.routingEngine.timeoutMs: expected a whole number');
  }, 60_000);

  it('apply: an engine that stops answering mid-apply ends the run after one request spent its budget', async () => {
    const engine = await engineWith(seed({ routes: 300 }));
    let deletes = 0;
    const proxy = await proxyFor(engine.url, (request) => {
      if (request.method !== 'DELETE') return undefined;
      deletes++;
      return new Promise<never>(() => undefined);
    });
    const dir = await manifestDir({ 'routes.yaml': tableDoc('routes') });
    // A fixed concurrency: how many deletes are in flight when the engine falls silent does not
    // depend on where the adaptive limit stands.
    const result = await runCli(['apply', dir, '--yes', '--max-delete-percent', '100', '--concurrency', '4'], {
      env: env(proxy.url, { SWITCHBOARD_RE_TIMEOUT_MS: '300', ...NO_JITTER }),
      cwd: dir,
    });
    expect(result.code).toBe(1);
    // The deletes in flight when one of them spent its 6 attempts, not 6 attempts for each of 300 rows.
    expect(deletes).toBeLessThan(300);
    expect(failedLines(result.stdout).length, result.stdout).toBeLessThanOrEqual(10);
    expect(result.stdout).toMatch(/✗ \d+ routing row changes not sent/);
    expect(result.stdout).toContain('no answer within 300 ms');
  }, 60_000);
});

describe('routing work in the progress line, the summary and the journal', () => {
  it('counts rows as they settle, and requests sent, in the summary and the journal', async () => {
    const engine = await engineWith(seed({ routes: 400 }), 15);
    const dir = await manifestDir({ 'routes.yaml': tableDoc('routes', [record(1), record(2)]) });
    const before = engine.sim.requests().length;
    // A fixed concurrency keeps the apply long enough (400 × 15 ms ÷ 8 ≈ 0.75 s) for several
    // progress lines; `auto` may go up to 32 requests at once and finish within two.
    const result = await runCli(['apply', dir, '--yes', '--max-delete-percent', '100', '--concurrency', '8'], {
      env: env(engine.url, { SWITCHBOARD_PROGRESS_INTERVAL_MS: '100' }),
      cwd: dir,
    });
    expect(result.code, result.stderr).toBe(0);
    const sent = engine.sim.requests().length - before;
    const progress = [...result.stderr.matchAll(/apply: (\d+)\/400 changes/g)].map((m) => Number(m[1]));
    expect(progress.length, result.stderr).toBeGreaterThan(2);
    expect(
      progress.some((n) => n > 0 && n < 400),
      `rows counted while they go: ${progress.join(', ')}`,
    ).toBe(true);
    const requests = Number(/\((\d+) requests,/.exec(result.stdout)?.[1]);
    expect(requests).toBeGreaterThanOrEqual(398 + 1); // 398 deletes, 1 collection PATCH
    expect(requests).toBeLessThanOrEqual(sent);
    const journalFile = (await readdir(join(dir, '.switchboard'))).find((f) => f.startsWith('journal-'))!;
    const lines = (await readFile(join(dir, '.switchboard', journalFile), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; event?: string; summary?: Record<string, number> });
    const end = lines.find((l) => l.type === 'run' && l.event === 'end');
    expect(end?.summary).toMatchObject({ applied: 400, failed: 0, requests });
  }, 60_000);
});

describe('an engine without _bulk', () => {
  it('known to the plan (OPTIONS): the plan JSON shows one POST per record and warns; apply never tries _bulk', async () => {
    const engine = await engineWith(seed({ routes: 0, carriers: 0 }, { bulkStatus: 405 }));
    const dir = await manifestDir({ 'routes.yaml': tableDoc('routes', [record(1), record(2), record(3)]) });
    const plan = JSON.parse((await runCli(['plan', dir, '--format', 'json'], { env: env(engine.url) })).stdout) as {
      changes: { requests: { method: string; path: string }[] }[];
      warnings: { code: string; message: string }[];
    };
    expect(plan.changes.map((c) => c.requests)).toEqual(
      Array.from({ length: 3 }, () => [{ method: 'POST', path: '/uc/active/routes' }]),
    );
    expect(plan.warnings).toEqual([expect.objectContaining({ code: 'SB_ROUTING_NO_BULK' })]);
    const before = engine.sim.requests().length;
    const applied = await runCli(['apply', dir, '--yes'], { env: env(engine.url), cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(
      engine.sim
        .requests()
        .slice(before)
        .filter((r) => r.path.endsWith('/_bulk') && r.method === 'POST'),
    ).toEqual([]);
    expect(applied.stderr.match(/Note: routing\/uc\/active\/routes: .*no bulk create/g)).toHaveLength(1);
    expect(applied.stdout).toMatch(
      /Notes:\n {2}routing\/uc\/active\/routes: the plan found none: this engine has no bulk create/,
    );
  }, 60_000);

  it('found at apply (404 to _bulk): said once per table on stderr and in the summary', async () => {
    const engine = await engineWith(seed({ routes: 0, carriers: 0 }, { bulkStatus: 404 }));
    // An engine whose OPTIONS says nothing: the plan cannot know.
    const proxy = await proxyFor(engine.url, (request) =>
      request.method === 'OPTIONS' ? { status: 501, body: '{"code":"501","message":"not implemented"}' } : undefined,
    );
    const rows = Array.from({ length: 30 }, (_, i) => record(i));
    const dir = await manifestDir({
      'routes.yaml': tableDoc('routes', rows),
      'carriers.yaml': tableDoc('carriers', rows),
    });
    const plan = JSON.parse((await runCli(['plan', dir, '--format', 'json'], { env: env(proxy.url) })).stdout) as {
      changes: { requests: { path: string }[] }[];
    };
    expect(plan.changes.every((c) => c.requests[0]?.path.endsWith('/_bulk'))).toBe(true);
    const applied = await runCli(['apply', dir, '--yes'], { env: env(proxy.url), cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    const notes = applied.stderr.match(
      /Note: routing\/uc\/active\/\w+: POST …\/_bulk answered 404: this engine has no bulk create.*/g,
    );
    expect(notes?.map((n) => n.split(':')[1]?.trim()).sort()).toEqual([
      'routing/uc/active/carriers',
      'routing/uc/active/routes',
    ]);
    expect(applied.stdout).toMatch(
      /Notes:\n {2}routing\/uc\/active\/\w+: POST …\/_bulk answered 404[^\n]*\n {2}routing\/uc\/active\/\w+: POST/,
    );
    expect(applied.stdout).toContain('Apply complete: 60 applied, 0 failed, 0 skipped');
  }, 60_000);
});
