#!/usr/bin/env node
/**
 * The benchmarks of docs/performance.md: `npm run bench [-- SCENARIO… --latency MS --concurrency N --runs N]`.
 * Each scenario generates its estate, seeds a simulator process that adds `--latency` to
 * every request, runs the real CLI (dist/) and compares what it did with the lower bound
 * and the latency-bound ideal. Prints PASS/FAIL per target and a table, and writes
 * test/bench/results.json (merged: a scenario run alone replaces only its own entry).
 * It never fails on a missed target: exit 1 means a scenario could not run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/cli.mjs';
import { figuresTable, targetsTable } from '../../scripts/docs/performance.mjs';
import { applyTargets, describe, figures } from './lib/report.mjs';

/** The scenarios, one module each in scenarios/ (run in this order): one line registers one. */
const SCENARIOS = [
  'version',
  'small-estate',
  'plan-org',
  'naive',
  'apply-tenants',
  'apply-org',
  'routing',
  'routing-vectors',
  'policies',
  'adaptive',
  'national',
  'changed-since',
  'national-changed-since',
  'national-export',
  'baselines',
];
const RESULTS = join(import.meta.dirname, 'results.json');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    latency: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    runs: { type: 'string', default: '1' },
    'routing-rows': { type: 'string', default: '1000000' },
    profile: { type: 'string' },
  },
});
const unknown = positionals.filter((p) => !SCENARIOS.includes(p));
if (unknown.length > 0) {
  console.error(`unknown scenario ${unknown.join(', ')}; scenarios: ${SCENARIOS.join(', ')}`);
  process.exit(1);
}
const selected = positionals.length > 0 ? SCENARIOS.filter((s) => positionals.includes(s)) : SCENARIOS;

if (!existsSync(join(ROOT, 'dist/cli/main.js'))) {
  console.log('dist/ is missing: building it (npm run build)');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/**
 * @typedef {{ latencyMs: number, concurrency: number, pageCap: number, routingRows: number, nodeArgs: string[], simNodeArgs: string[], workDir: string,
 *   log: (line: string) => void, shared: { org: () => Promise<Estate>, small: () => Promise<Estate>, national: () => Promise<Estate> } }} ScenarioContext
 * @typedef {{ sim: Awaited<ReturnType<typeof import('./lib/sim.mjs').startPlatformSim>>, dir: string, changes: number }} Estate
 */
const workDir = await mkdtemp(join(os.tmpdir(), 'sb-bench-'));
let org;
let small;
let national;
/** @type {ScenarioContext} */
const ctx = {
  latencyMs: Number(values.latency),
  concurrency: Number(values.concurrency),
  pageCap: 100, // the simulator's page_size cap (docs/simulator.md), as a real platform's would be read from its answers
  routingRows: Number(values['routing-rows']),
  // --profile DIR: the measured CLI runs under `node --cpu-prof` (CPU figures then include the profiler's cost),
  // writing to DIR/cli; the simulator process to DIR/sim.
  nodeArgs: values.profile ? ['--cpu-prof', '--cpu-prof-dir', join(values.profile, 'cli')] : [],
  simNodeArgs: values.profile ? ['--cpu-prof', '--cpu-prof-dir', join(values.profile, 'sim')] : [],
  workDir,
  log: (line) => console.log(line),
  shared: {
    org: () => (org ??= import('./lib/org-fixture.mjs').then((m) => m.setUpOrg(ctx))),
    small: () => (small ??= import('./lib/org-fixture.mjs').then((m) => m.setUpSmall(ctx))),
    national: () => (national ??= import('./lib/national-fixture.mjs').then((m) => m.setUpNational(ctx))),
  },
};
const runs = Math.max(1, Number(values.runs));

console.log(
  `switchboard benchmarks: ${selected.join(', ')}; latency ${ctx.latencyMs} ms per request, concurrency ${ctx.concurrency}, best of ${runs} run(s)`,
);
console.log(`machine: ${machine().summary}\n`);

const results = [];
// Targets that compare two scenarios hold them to figures of the same run: each result carries its run.
const runId = new Date().toISOString();
let failed = false;
try {
  for (const name of selected) {
    console.log(`${name}`);
    try {
      const scenario = await import(`./scenarios/${name}.mjs`);
      const attempts = [];
      for (let i = 0; i < runs; i++) attempts.push(await scenario.run(ctx));
      // A scenario of its own kind (adaptive) chooses its run and sets its targets itself.
      if (scenario.figures) results.push({ ...scenario.figures(attempts, ctx), runId });
      else {
        const best = attempts.reduce((a, b) => (b.wallS < a.wallS ? b : a));
        results.push({
          ...figures(
            name,
            { latencyMs: ctx.latencyMs, ...best },
            attempts.map((a) => a.wallS),
          ),
          runId,
        });
      }
    } catch (error) {
      failed = true;
      console.log(`  ERROR     ${error instanceof Error ? error.message : String(error)}`);
    }
    const last = results.at(-1);
    if (last?.scenario === name) {
      const own = await import(`./scenarios/${name}.mjs`);
      if (own.describe) console.log(`${own.describe(last)}\n`);
      else console.log(`${describe(applyTargets(last, results))}\n`);
    }
  }
} finally {
  if (org) await (await org).sim.close();
  if (small) await (await small).sim.close();
  if (national) await (await national).sim.close();
  await rm(workDir, { recursive: true, force: true });
}

// plan-org runs before naive: its speed-up target needs naive's figure of this run.
const planOrg = results.find((r) => r.scenario === 'plan-org');
if (planOrg && results.some((r) => r.scenario === 'naive')) {
  applyTargets(planOrg, results);
  const t = planOrg.targets.find((x) => x.what.startsWith('naive'));
  if (t) console.log(`plan-org vs naive\n  ${t.pass ? 'PASS' : 'FAIL'}      ${t.what}: ${t.value} ≥ ${t.limit} ×\n`);
}

console.log(`${figuresTable(results)}\n\n${targetsTable(results)}`);
const previous = existsSync(RESULTS) ? JSON.parse(await readFile(RESULTS, 'utf8')) : { scenarios: {} };
const scenarios = { ...previous.scenarios };
for (const r of results) scenarios[r.scenario] = { ...r, at: new Date().toISOString(), machine: machine().summary };
await writeFile(RESULTS, `${JSON.stringify({ formatVersion: 1, scenarios }, null, 2)}\n`);
console.log(`\nwritten to ${RESULTS}; npm run docs:generate puts the figures into docs/performance.md`);
process.exit(failed ? 1 : 0);

function machine() {
  const cpus = os.cpus();
  const summary = `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ${os.type()} ${os.release()}, Node ${process.versions.node}`;
  return { summary };
}
