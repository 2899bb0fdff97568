/**
 * `routing`: `switchboard apply` of a RoutingTable manifest whose CSV holds the 1,000,000
 * rows of the routing engine issue with 1% drift (routing-data.mjs: 10,000 re-routed, 1,000
 * new, 1,000 removed), against the routing-engine simulator in its own process with the
 * same latency. (routing.mjs, by the routing engineer, measures the library alone.)
 */
import { fork } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { runCli } from '../lib/cli.mjs';
import { bareLoop } from '../lib/floor.mjs';
import { desiredRows, drift } from '../routing-data.mjs';

const BULK = 1000; // records per _bulk create and ids per collection PATCH (docs/routing.md)

/** Pages at the cap, `_bulk` chunks, one PATCH per group of identical change and 1,000 ids, one DELETE per removed row (Doc 3 has no bulk delete). */
export function routingBound(rows, pageCap) {
  const { changed, added, removed } = drift(rows);
  const perRoute = new Map();
  const step = Math.floor((rows - removed) / changed);
  for (let k = 0; k < changed; k++) {
    const target = `moved-${(removed + k * step) % 8}`;
    perRoute.set(target, (perRoute.get(target) ?? 0) + 1);
  }
  return {
    [`pages at cap ${pageCap}`]: Math.ceil(rows / pageCap),
    '_bulk creates': Math.ceil(added / BULK),
    [`PATCHes (${perRoute.size} groups)`]: [...perRoute.values()].reduce((n, c) => n + Math.ceil(c / BULK), 0),
    DELETEs: removed,
  };
}

export async function writeManifests(dir, rows) {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'numbers.yaml'),
    'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: numbers, service: bench, version: active, prune: true }\nspec:\n  key: [number]\n  fields: { priority: integer }\n  recordsFrom: numbers.csv\n',
  );
  const out = createWriteStream(join(dir, 'numbers.csv'));
  let chunk = 'number,route,priority\n';
  for (const cells of desiredRows(rows)) {
    chunk += `${cells.join(',')}\n`;
    if (chunk.length > 1 << 16 && !out.write(chunk)) await once(out, 'drain');
    if (chunk.length > 1 << 16) chunk = '';
  }
  out.end(chunk);
  await once(out, 'finish');
}

/** The routing-engine simulator in its own process, holding `rows` rows of routing-data.mjs. */
export async function startRoutingSim(rows, latencyMs) {
  const child = fork(join(import.meta.dirname, '../routing-sim.mjs'), [String(rows), String(latencyMs)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  try {
    const { url } = await new Promise((resolve, reject) => {
      child.stdout.once('data', (b) => resolve(JSON.parse(String(b))));
      child.once('exit', (code) => reject(new Error(`routing simulator exited with ${code}`)));
    });
    return {
      url,
      /** @returns {Promise<{ stats: Record<string, number>, maxRssMB: number }>} */
      served: () =>
        new Promise((resolve) => {
          child.once('message', resolve);
          child.send('stats');
        }),
      async close() {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
}

/**
 * The CLI's environment against the routing simulator (a table alone is declared: the
 * platform's credentials are never used).
 * @param {string} url
 */
export function routingEnv(url) {
  return {
    SWITCHBOARD_URL: url,
    SWITCHBOARD_USERNAME: 'unused',
    SWITCHBOARD_PASSWORD: 'unused',
    SWITCHBOARD_RE_URL: url,
    SWITCHBOARD_RE_USERNAME: 'bench',
    SWITCHBOARD_RE_PASSWORD: 'bench',
    NO_COLOR: '1',
  };
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const rows = ctx.routingRows;
  const begin = performance.now();
  const sim = await startRoutingSim(rows, ctx.latencyMs);
  let cli;
  let served;
  try {
    const dir = join(ctx.workDir, `routing-${Date.now()}`);
    await writeManifests(join(dir, 'manifests'), rows);
    ctx.log(
      `  table: ${rows.toLocaleString('en')} live rows; manifests with 1% drift (set up in ${((performance.now() - begin) / 1000).toFixed(1)} s)`,
    );
    const env = routingEnv(sim.url);
    cli = await runCli(
      [
        'apply',
        join(dir, 'manifests'),
        '--yes',
        '--concurrency',
        String(ctx.concurrency),
        '--state-dir',
        join(dir, '.switchboard'),
      ],
      { cwd: dir, env, nodeArgs: ctx.nodeArgs },
    );
    if (cli.code !== 0)
      throw new Error(`apply exited ${cli.code}: ${cli.stdout.slice(-1500)} ${cli.stderr.slice(-1500)}`);
    served = await sim.served();
  } finally {
    await sim.close();
  }
  // The apply changed the table: the bare loop gets a fresh one.
  const fresh = await startRoutingSim(rows, ctx.latencyMs);
  let floor;
  try {
    floor = await bareLoop({ loop: 'routing', url: fresh.url, rows, concurrency: ctx.concurrency });
  } finally {
    await fresh.close();
  }
  const byRoute = served.stats;
  const summary = cli.stdout.split('\n').find((l) => l.startsWith('Apply complete')) ?? cli.stdout.slice(-300);
  return {
    requests: Object.values(byRoute).reduce((a, b) => a + b, 0),
    byRoute,
    bound: routingBound(rows, ctx.pageCap),
    wallS: cli.wallS,
    ...floor,
    cpuS: cli.cpuS,
    cpuSystemS: cli.cpuSystemS,
    peakRssMB: cli.peakRssMB,
    concurrency: ctx.concurrency,
    note: `${summary.replace(/\.$/, '')}; simulator peak RSS ${served.maxRssMB} MB`,
  };
}
