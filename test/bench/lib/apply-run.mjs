/**
 * The apply scenarios (`apply-tenants`, `apply-org`): `switchboard apply` creating new
 * tenants, each with one subscription and some entitlements, in an empty group, against
 * `switchboard sim --latency`; the whole command and the executor's phase are measured.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, simEnv } from './cli.mjs';
import { EMPTY_GROUP, ENTITLEMENT_TYPES, emptyGroupSeed, writeApplyManifests } from './estate.mjs';
import { bareLoop } from './floor.mjs';
import { startPlatformSim } from './sim.mjs';

/**
 * The apply phase, read from the run's journal in `stateDir`: from its `run start` line to
 * its `run end` line (millisecond timestamps), and the requests it journalled.
 */
export async function applyPhase(stateDir) {
  const [file] = (await readdir(stateDir)).filter((f) => f.startsWith('journal-'));
  if (!file) return {};
  const lines = (await readFile(join(stateDir, file), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const start = lines.find((l) => l.type === 'run' && l.event === 'start');
  const end = lines.find((l) => l.type === 'run' && l.event === 'end');
  if (!start || !end) return {};
  return {
    applyS: (Date.parse(end.at) - Date.parse(start.at)) / 1000,
    applyRequests: lines.filter((l) => l.type === 'intent').length,
  };
}

/**
 * @param {import('../run.mjs').ScenarioContext} ctx
 * @param {{ name: string, tenants: number, entitlements: number, bound: Record<string, number>, floor: boolean }} scenario
 *   `floor`: also send the same POSTs from a bare loop
 */
export async function runApplyScenario(ctx, scenario) {
  const { defaultSeed } = await import('../../../dist/sim/index.js');
  const sim = await startPlatformSim({ latencyMs: ctx.latencyMs, nodeArgs: ctx.simNodeArgs });
  try {
    const seed = emptyGroupSeed(defaultSeed());
    await sim.reset(seed);
    const dir = join(ctx.workDir, `${scenario.name}-${Date.now()}`);
    await writeApplyManifests(join(dir, 'manifests'), scenario.tenants, scenario.entitlements);
    await sim.clearStats();
    const cli = await runCli(
      [
        'apply',
        join(dir, 'manifests'),
        '--yes',
        '--concurrency',
        String(ctx.concurrency),
        '--state-dir',
        join(dir, '.switchboard'),
      ],
      { cwd: dir, env: simEnv(sim.url), nodeArgs: ctx.nodeArgs },
    );
    if (cli.code !== 0)
      throw new Error(`apply exited ${cli.code}: ${cli.stdout.slice(-1500)} ${cli.stderr.slice(-1500)}`);
    const stats = await sim.stats();
    let floor = {};
    if (scenario.floor) {
      await sim.reset(seed);
      const { tables } = await sim.state();
      const group = tables.groups.find((g) => g.name === EMPTY_GROUP);
      const typeIds = ENTITLEMENT_TYPES.slice(0, scenario.entitlements).map(
        (name) => tables.entitlementTypes.find((t) => t.name === name).id,
      );
      floor = await bareLoop({
        loop: 'create',
        url: sim.url,
        groupUuid: group.uuid,
        tenants: scenario.tenants,
        concurrency: ctx.concurrency,
        typeIds,
      });
    }
    return {
      requests: stats.total,
      byRoute: stats.byRoute,
      bound: scenario.bound,
      wallS: cli.wallS,
      ...(await applyPhase(join(dir, '.switchboard'))),
      ...floor,
      cpuS: cli.cpuS,
      cpuSystemS: cli.cpuSystemS,
      peakRssMB: cli.peakRssMB,
      concurrency: ctx.concurrency,
      note: cli.stdout.split('\n').find((l) => l.startsWith('Apply complete')) ?? '',
    };
  } finally {
    await sim.close();
  }
}
