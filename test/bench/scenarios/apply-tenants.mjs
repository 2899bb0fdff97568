/**
 * `apply-tenants`: issue #6's target. `switchboard apply` creating 2,000 tenants with one
 * subscription each in an empty group, against `switchboard sim --latency`. The apply
 * phase (the executor's requests, from the CLI's summary) is held to 1.3× its requests ×
 * latency ÷ concurrency; the whole command's wall is reported against the same ideal, and
 * the same POSTs from a bare loop give this machine's floor.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, simEnv } from '../lib/cli.mjs';
import { EMPTY_GROUP, emptyGroupSeed, writeApplyManifests } from '../lib/estate.mjs';
import { bareCreateSeconds } from '../lib/floor.mjs';
import { startPlatformSim } from '../lib/sim.mjs';

const TENANTS = 2000;

/** What the apply cannot do without: the reads that find the empty group, then one POST per object. */
export function applyTenantsBound() {
  return {
    'login + profile': 2,
    'groups (to find the group by name)': 1,
    'tenants of the group (empty)': 1,
    'tenant POSTs': TENANTS,
    'subscription POSTs': TENANTS,
  };
}

/**
 * The apply phase, read from the run's journal in `stateDir`: from its `run start` line to
 * its `run end` line (millisecond timestamps), and the requests it journalled.
 */
export async function applyPhase(stateDir) {
  const [file] = (await readdir(stateDir)).filter((f) => f.startsWith('journal-'));
  if (!file) return {};
  const lines = (await readFile(join(stateDir, file), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  const start = lines.find((l) => l.type === 'run' && l.event === 'start');
  const end = lines.find((l) => l.type === 'run' && l.event === 'end');
  if (!start || !end) return {};
  return { applyS: (Date.parse(end.at) - Date.parse(start.at)) / 1000, applyRequests: lines.filter((l) => l.type === 'intent').length };
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { defaultSeed } = await import('../../../dist/sim/index.js');
  const sim = await startPlatformSim({ latencyMs: ctx.latencyMs, nodeArgs: ctx.simNodeArgs });
  try {
    const seed = emptyGroupSeed(defaultSeed());
    await sim.reset(seed);
    const dir = join(ctx.workDir, `apply-tenants-${Date.now()}`);
    await writeApplyManifests(join(dir, 'manifests'), TENANTS, 0);
    await sim.clearStats();
    const cli = await runCli(['apply', join(dir, 'manifests'), '--yes', '--concurrency', String(ctx.concurrency), '--state-dir', join(dir, '.switchboard')], { cwd: dir, env: simEnv(sim.url), nodeArgs: ctx.nodeArgs });
    if (cli.code !== 0) throw new Error(`apply exited ${cli.code}: ${cli.stdout.slice(-1500)} ${cli.stderr.slice(-1500)}`);
    const stats = await sim.stats();
    const summary = cli.stdout.split('\n').find((l) => l.startsWith('Apply complete')) ?? '';
    await sim.reset(seed);
    const group = (await sim.state()).tables.groups.find((g) => g.name === EMPTY_GROUP);
    const floorS = await bareCreateSeconds(sim.url, group.uuid, TENANTS, ctx.concurrency);
    return {
      requests: stats.total,
      byRoute: stats.byRoute,
      bound: applyTenantsBound(),
      wallS: cli.wallS,
      ...(await applyPhase(join(dir, '.switchboard'))),
      floorS,
      cpuS: cli.cpuS,
      cpuSystemS: cli.cpuSystemS,
      peakRssMB: cli.peakRssMB,
      concurrency: ctx.concurrency,
      note: summary,
    };
  } finally {
    await sim.close();
  }
}
