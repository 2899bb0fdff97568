/**
 * `routing-vectors`: what 1,000 RoutingTest vectors add to a plan of the `routing` scenario's
 * manifests (a 1,000,000-row table with 1% drift, docs/assurance.md "Routing tests"): the
 * vectors are checked against the declared rows while the manifests load, and answered by
 * the live rows for the plan's "answers this plan changes". The same plan runs without the
 * RoutingTest and with it against one routing-engine simulator process (a plan changes
 * nothing), each twice, alternating; the fewest CPU seconds of each are compared against
 * the 1.10 × target (lib/report.mjs). The vectors add no request: the plan with them is held to the plan
 * without them as its lower bound.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../lib/cli.mjs';
import { desiredRows } from '../routing-data.mjs';
import { routingEnv, startRoutingSim, writeManifests } from './routing.mjs';

const VECTORS = 1000;
const RUNS = 2;

/** A RoutingTest of `VECTORS` rows spread over the declared table, each expecting its declared route. */
function routingTest(rows) {
  const every = Math.max(1, Math.floor(rows / VECTORS));
  const lines = [];
  let i = 0;
  for (const [number, route] of desiredRows(rows)) {
    if (i++ % every === 0 && lines.length < VECTORS)
      lines.push(`    - { lookup: { number: "${number}" }, expect: { route: ${route} } }`);
  }
  return `apiVersion: switchboard/v1\nkind: RoutingTest\nmetadata: { name: bench }\nspec:\n  table: bench/active/numbers\n  vectors:\n${lines.join('\n')}\n`;
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const rows = ctx.routingRows;
  const begin = performance.now();
  const sim = await startRoutingSim(rows, ctx.latencyMs);
  try {
    const dir = join(ctx.workDir, `routing-vectors-${Date.now()}`);
    const manifests = join(dir, 'manifests');
    await writeManifests(manifests, rows);
    const test = routingTest(rows);
    ctx.log(
      `  table: ${rows.toLocaleString('en')} live rows; manifests with 1% drift and ${VECTORS.toLocaleString('en')} vectors (set up in ${((performance.now() - begin) / 1000).toFixed(1)} s)`,
    );
    const env = routingEnv(sim.url);
    const plan = async (withVectors) => {
      if (withVectors) await writeFile(join(manifests, 'vectors.yaml'), test);
      else await rm(join(manifests, 'vectors.yaml'), { force: true });
      const before = (await sim.served()).stats;
      const cli = await runCli(
        ['plan', manifests, '--concurrency', String(ctx.concurrency), '--state-dir', join(dir, '.switchboard')],
        { cwd: dir, env, nodeArgs: ctx.nodeArgs },
      );
      // Exit 2 is not asked for (no --detailed-exitcode): a plan with changes exits 0.
      if (cli.code !== 0)
        throw new Error(`plan exited ${cli.code}: ${cli.stdout.slice(-1500)} ${cli.stderr.slice(-1500)}`);
      const after = (await sim.served()).stats;
      const byRoute = Object.fromEntries(Object.entries(after).map(([k, n]) => [k, n - (before[k] ?? 0)]));
      return { cli, byRoute, requests: Object.values(byRoute).reduce((a, b) => a + b, 0) };
    };
    const without = [];
    const withVectors = [];
    for (let i = 0; i < RUNS; i++) {
      without.push(await plan(false));
      withVectors.push(await plan(true));
    }
    const least = (runs) => runs.reduce((a, b) => (b.cli.cpuS < a.cli.cpuS ? b : a));
    const base = least(without);
    const best = least(withVectors);
    const ratio = best.cli.cpuS / base.cli.cpuS;
    const line = best.cli.stdout.split('\n').find((l) => l.startsWith('Routing tests:')) ?? '';
    if (!line.includes(`${VECTORS.toLocaleString('en')} vectors pass`))
      throw new Error(`expected ${VECTORS} vectors to pass, the plan says: ${line || best.cli.stdout.slice(-500)}`);
    ctx.log(
      `  vectors   plan CPU ${best.cli.cpuS.toFixed(2)} s with ${VECTORS.toLocaleString('en')} vectors, ${base.cli.cpuS.toFixed(2)} s without (fewest of ${RUNS} runs each)`,
    );
    return {
      requests: best.requests,
      byRoute: best.byRoute,
      bound: { 'the same plan without vectors': base.requests },
      wallS: best.cli.wallS,
      cpuS: best.cli.cpuS,
      cpuSystemS: best.cli.cpuSystemS,
      baseCpuS: base.cli.cpuS,
      peakRssMB: best.cli.peakRssMB,
      concurrency: ctx.concurrency,
      note: `plan CPU ${best.cli.cpuS.toFixed(2)} s with ${VECTORS} vectors, ${base.cli.cpuS.toFixed(2)} s without: ${ratio.toFixed(3)} ×; ${line}`,
    };
  } finally {
    await sim.close();
  }
}
