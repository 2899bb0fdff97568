/**
 * `version`: the fixed cost of starting switchboard. `switchboard version` (Node's start,
 * the CLI's modules, the command line) against `node -e 0` (Node's start alone), each run
 * RUNS times, alternated, from the same process, so that both see the same machine; the
 * fastest run of each counts. Held to 2.5 × Node's own start.
 */
import { ROOT, runCli, runMeasured } from '../lib/cli.mjs';
import { round, targetLines } from '../lib/report.mjs';

const RUNS = 9;
const LIMIT = 2.5;

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const node = [];
  const version = [];
  for (let i = 0; i < RUNS; i++) {
    const bare = await runMeasured(undefined, ['-e', '0'], { cwd: ROOT, env: {}, nodeArgs: ctx.nodeArgs });
    const cli = await runCli(['version'], { cwd: ROOT, env: {}, nodeArgs: ctx.nodeArgs });
    if (bare.code !== 0 || cli.code !== 0) throw new Error(`node -e 0 exited ${bare.code}, version ${cli.code}`);
    node.push(bare);
    version.push(cli);
  }
  const fastest = (runs) => runs.reduce((a, b) => (b.wallS < a.wallS ? b : a));
  return {
    node: fastest(node),
    version: fastest(version),
    nodeWalls: node.map((r) => r.wallS),
    versionWalls: version.map((r) => r.wallS),
  };
}

/** The figures of the run (one attempt per `--runs`, all kept: the fastest of all counts). */
export function figures(attempts) {
  const node = attempts.map((a) => a.node).reduce((a, b) => (b.wallS < a.wallS ? b : a));
  const version = attempts.map((a) => a.version).reduce((a, b) => (b.wallS < a.wallS ? b : a));
  const ratio = round(version.wallS / node.wallS);
  return {
    scenario: 'version',
    kind: 'startup',
    runs: attempts.length * RUNS,
    wallS: round(version.wallS),
    cpuS: round(version.cpuS),
    peakRssMB: Math.round(version.peakRssMB),
    nodeWallS: round(node.wallS, 3),
    nodeCpuS: round(node.cpuS, 3),
    versionWallS: round(version.wallS, 3),
    ratio,
    runsWallS: attempts.flatMap((a) => a.versionWalls.map((w) => round(w, 3))),
    nodeRunsWallS: attempts.flatMap((a) => a.nodeWalls.map((w) => round(w, 3))),
    targets: [
      {
        what: 'switchboard version wall ÷ node -e 0 wall',
        value: ratio,
        limit: LIMIT,
        unit: '×',
        pass: ratio <= LIMIT,
      },
    ],
  };
}

export function describe(r) {
  return [
    `  start     switchboard version ${r.versionWallS} s (CPU ${r.cpuS} s, RSS ${r.peakRssMB} MB); node -e 0 ${r.nodeWallS} s (CPU ${r.nodeCpuS} s); the fastest of ${r.runs} alternated runs each → ${r.ratio}×`,
    ...targetLines(r.targets),
  ].join('\n');
}
