/**
 * `policies`: what checking 20 policy rules adds to a plan of examples/ plus a
 * 1,000,000-row routing table and 20,000 tenants (docs/policies.md "Cost"). The estate lives
 * in one simulator process (this file run with `--serve`: platform and routing engine, the
 * same latency); the real CLI plans it twice, without the Policy documents and with them
 * (examples/policies.yaml's 9 rules, a coverage rule over the examples' few subscriptions
 * among them, and 12 more over the tenants and the big table), and
 * reports the CPU the rules took (`plan --stats`: `policies.cpuMs`) against the 1 s target,
 * with the whole plan's CPU with and without them. The drift (1 % of the tenants and of the
 * rows) passes every rule, so the plans are the ordinary ones.
 */
import { fork } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { cp, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsYaml from 'js-yaml';
import { ROOT, runCli, simEnv } from '../lib/cli.mjs';
import { number, priority, route } from '../routing-data.mjs';

const TENANTS = 20_000;
const CARRIERS = 40; // route(i) is trunk-(i % 40)
const TARGET_CPU_S = 1;

/** Every 100th tenant and row changes: 1 %, below every threshold. */
const drifted = (i) => i % 100 === 0;

/** The simulator process: the default data set, 20,000 more tenants under north, the big table and its carriers. */
async function serve(rows, latencyMs) {
  const { defaultSeed, startSimulator } = await import(join(ROOT, 'dist/sim/index.js'));
  const { defaultRoutingSeed } = await import(join(ROOT, 'dist/sim/routing/index.js'));
  const seed = defaultSeed();
  for (let i = 0; i < TENANTS; i++)
    seed.tenants.push({ name: `bench-${i}`, billingId: `T-BENCH-${i}`, owner: { reseller: 'north' }, markup: 1 });
  const routing = defaultRoutingSeed();
  const active = routing.services.draas.active;
  active.numbers = {
    fields: {
      number: { type: 'string', unique: true, nullable: false },
      route: { type: 'string', nullable: false },
      priority: { type: 'integer', nullable: true },
    },
    rows: Array.from({ length: rows }, (_, i) => ({ number: number(i), route: route(i), priority: priority(i) })),
  };
  active.carriers.rows = Array.from({ length: CARRIERS }, (_, i) => ({
    prefix: `+32${i}`,
    carrier: `trunk-${i}`,
    weight: 1,
  }));
  seed.routing = routing;
  const sim = await startSimulator({ port: 0, host: '127.0.0.1', seed, latencyMs });
  process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
  process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
}

/** Rules of the Policy documents of a manifest file. */
async function rulesIn(file) {
  const docs = jsYaml.loadAll(await readFile(file, 'utf8'));
  return docs.reduce((n, doc) => n + (doc?.kind === 'Policy' ? (doc.spec?.rules?.length ?? 0) : 0), 0);
}

/** The 12 rules over the big estate; with examples/policies.yaml's own, at least the 20 the target names. */
const BENCH_POLICY = `apiVersion: switchboard/v1
kind: Policy
metadata: { name: bench }
spec:
  rules:
    - id: tenant-markup
      match: { kind: Tenant }
      limit: { field: markup, min: 0, max: 50 }
    - id: tenant-names
      match: { kind: Tenant }
      require: { field: name, pattern: "^[a-z0-9-]+$" }
    - id: no-tenant-deletes
      match: { kind: Tenant }
      forbid: [delete]
    - id: numbers-carriers
      match: { kind: RoutingRow, table: draas/active/numbers }
      reference: { field: route, table: draas/active/carriers, key: carrier }
    - id: numbers-e164
      match: { kind: RoutingRow, table: draas/active/numbers }
      require: { field: number, pattern: "^\\\\+32[0-9]{9}$" }
    - id: numbers-priority
      match: { kind: RoutingRow, table: draas/active/numbers }
      limit: { field: priority, min: 0, max: 9 }
    - id: trunk-one-priority
      match: { kind: RoutingRow, table: draas/active/numbers, where: { route: { pattern: "^trunk-1" } } }
      require: { field: priority }
    - id: no-number-deletes
      match: { kind: RoutingRow, table: draas/active/numbers }
      forbid: [delete]
    - id: numbers-share
      match: { kind: RoutingRow, table: draas/active/numbers }
      threshold: { update: 5%, delete: 1% }
    - id: rows-route
      match: { kind: RoutingRow, where: { route: { not: null } } }
      require: { field: route, pattern: "^[a-z]" }
    - id: entitlement-sane
      match: { kind: Entitlement }
      limit: { field: entitlement, min: 0, max: 100000 }
    - id: keep-addresses
      match: { kind: Address }
      forbid: [delete]
`;

async function writeManifests(dir, rows) {
  await cp(join(ROOT, 'examples'), dir, { recursive: true });
  const tenants = Array.from(
    { length: TENANTS },
    (_, i) =>
      `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: bench-${i}, reseller: north }\nspec: { billingId: T-BENCH-${i}, markup: ${drifted(i) ? 2 : 1} }\n`,
  );
  await writeFile(join(dir, 'bench-tenants.yaml'), tenants.join('---\n'));
  await writeFile(
    join(dir, 'numbers.yaml'),
    'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: numbers, service: draas, version: active }\nspec:\n  key: [number]\n  fields: { priority: integer }\n  recordsFrom: numbers.csv\n',
  );
  const out = createWriteStream(join(dir, 'numbers.csv'));
  let chunk = 'number,route,priority\n';
  for (let i = 0; i < rows; i++) {
    // A re-route to the next carrier: still one the carriers table has.
    chunk += `${number(i)},${drifted(i) ? `trunk-${(i + 1) % CARRIERS}` : route(i)},${priority(i)}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  await writeFile(join(dir, 'bench-policy.yaml'), BENCH_POLICY);
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const rows = ctx.routingRows;
  const child = fork(fileURLToPath(import.meta.url), ['--serve', String(rows), String(ctx.latencyMs)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  try {
    const begin = performance.now();
    const { url } = await new Promise((resolve, reject) => {
      child.stdout.once('data', (b) => resolve(JSON.parse(String(b))));
      child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
    });
    const dir = join(ctx.workDir, `policies-${Date.now()}`);
    const manifests = join(dir, 'manifests');
    const aside = join(dir, 'aside');
    await mkdir(aside, { recursive: true });
    await writeManifests(manifests, rows);
    ctx.log(
      `  estate: examples/ + ${TENANTS.toLocaleString('en')} tenants + a ${rows.toLocaleString('en')}-row table, 1% drift (set up in ${((performance.now() - begin) / 1000).toFixed(1)} s)`,
    );
    const env = {
      ...simEnv(url),
      SWITCHBOARD_RE_URL: url,
      SWITCHBOARD_RE_USERNAME: 'routing',
      SWITCHBOARD_RE_PASSWORD: 'routing',
    };
    const plan = async () => {
      await fetch(`${url}/_sim/stats`, { method: 'DELETE' });
      const cli = await runCli(
        [
          'plan',
          manifests,
          '--stats',
          '--concurrency',
          String(ctx.concurrency),
          '--state-dir',
          join(dir, '.switchboard'),
        ],
        { cwd: dir, env, nodeArgs: ctx.nodeArgs },
      );
      if (cli.code !== 0)
        throw new Error(`plan exited ${cli.code}: ${cli.stdout.slice(-1500)} ${cli.stderr.slice(-1500)}`);
      const stats = JSON.parse(
        cli.stderr
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .at(-1) ?? '{}',
      );
      // The simulator counts both APIs' requests (the routing engine's as `GET routing-engine`, …).
      const served = await (await fetch(`${url}/_sim/stats`)).json();
      return { cli, stats, requests: served.total, byRoute: served.byRoute };
    };
    const policyFiles = ['policies.yaml', 'bench-policy.yaml'];
    for (const f of policyFiles) await rename(join(manifests, f), join(aside, f));
    const without = await plan();
    for (const f of policyFiles) await rename(join(aside, f), join(manifests, f));
    const withRules = await plan();
    const cost = withRules.stats.policies;
    // The bench policy's rules and the examples' own, counted from the files the plan read.
    const expectedRules = (await Promise.all(policyFiles.map((f) => rulesIn(join(manifests, f))))).reduce(
      (a, b) => a + b,
    );
    if (expectedRules < 20) throw new Error(`the scenario checks ${expectedRules} rules: the target names at least 20`);
    if (!cost || cost.rules !== expectedRules)
      throw new Error(`expected ${expectedRules} rules checked, --stats says ${JSON.stringify(cost)}`);
    const policyCpuS = cost.cpuMs / 1000;
    const addedCpuS = withRules.cli.cpuS - without.cli.cpuS;
    ctx.log(
      `  policies  ${cost.rules} rules checked in ${policyCpuS.toFixed(2)} s of CPU; the plan's CPU ${withRules.cli.cpuS.toFixed(2)} s with them, ${without.cli.cpuS.toFixed(2)} s without (${addedCpuS >= 0 ? '+' : ''}${addedCpuS.toFixed(2)} s)`,
    );
    ctx.log(
      `  ${policyCpuS <= TARGET_CPU_S ? 'PASS' : 'FAIL'}      policy evaluation CPU: ${policyCpuS.toFixed(2)} ≤ ${TARGET_CPU_S} s`,
    );
    const summary = withRules.cli.stdout.split('\n').find((l) => l.startsWith('Plan:')) ?? '';
    return {
      requests: withRules.requests,
      byRoute: withRules.byRoute,
      // What the plan reads without policies, measured, and the one page the reference rule reads.
      bound: { 'the same plan without policies': without.requests, 'draas/active/carriers (one page)': 1 },
      wallS: withRules.cli.wallS,
      cpuS: withRules.cli.cpuS,
      cpuSystemS: withRules.cli.cpuSystemS,
      peakRssMB: withRules.cli.peakRssMB,
      concurrency: ctx.concurrency,
      note: `${cost.rules} rules checked in ${policyCpuS.toFixed(2)} s of CPU (target ≤ ${TARGET_CPU_S} s); plan CPU ${withRules.cli.cpuS.toFixed(2)} s with the rules, ${without.cli.cpuS.toFixed(2)} s without; ${summary}`,
    };
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv[2] === '--serve') await serve(Number(process.argv[3]), Number(process.argv[4] ?? 0));
