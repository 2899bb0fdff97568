/**
 * `changed-since`: the `plan-org` estate (2,000 tenants in 20 manifest files, 22,000 objects)
 * in a git repository, one tenant's markup edited, and `switchboard plan --changed-since HEAD`
 * against `switchboard sim --latency`. The plan reads one tenant's subtree; the whole
 * manifest set is still loaded and checked, from the manifest cache where it can. Three
 * plans of the same edit: with the cache a plan of the base commit left (what a pull
 * request's CI job restores: every file but the edited one is in it), the row's figures;
 * without the cache (`--no-cache`); and with an empty cache, which it writes.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { planSummaryOf, runCli, simEnv } from '../lib/cli.mjs';
import { ORG } from '../lib/estate.mjs';
import { round } from '../lib/report.mjs';

/** The tenant edited: no drift was generated in it (estate.mjs), so the plan holds exactly the edit. */
const TENANT = 'bench-t0001';

/** What the plan cannot do without: the edited tenant, its ancestors, and its subscriptions' declared lists. */
export function changedSinceBound(pageCap, size = ORG) {
  return {
    'login + profile + logout': 3,
    'groups (to find demo-group by name)': 1,
    'resellers of the group': Math.ceil((size.resellers + 1) / pageCap),
    "tenants of the tenant's reseller": Math.ceil(size.tenantsPerReseller / pageCap),
    'subscriptions of the tenant': 1,
    'entitlements, per subscription': size.subscriptionsPerTenant,
    ...(size.addressesPerSubscription > 0 ? { 'addresses, per subscription': size.subscriptionsPerTenant } : {}),
  };
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  return changedSinceScenario(ctx, await ctx.shared.org(), ORG);
}

/**
 * One tenant's markup edited in a git repository of `estate`'s manifests, then
 * `switchboard plan --changed-since HEAD`: the figures of `changed-since` and `national-changed-since`.
 * @param {import('../run.mjs').ScenarioContext} ctx
 * @param {import('../run.mjs').Estate} estate
 * @param {typeof ORG} size the estate's shape (its lower bound of requests)
 */
export async function changedSinceScenario(ctx, { sim, dir: estateDir }, size) {
  // A repository of its own per run (--runs N): each starts from the committed estate.
  const dir = await mkdtemp(join(ctx.workDir, 'changed-since-'));
  await cp(join(estateDir, 'manifests'), join(dir, 'manifests'), { recursive: true });
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], { cwd: dir });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'estate');
  const plan = async (...options) => {
    await sim.clearStats();
    const cli = await runCli(
      [
        'plan',
        'manifests',
        '--changed-since',
        'HEAD',
        '--detailed-exitcode',
        '--concurrency',
        String(ctx.concurrency),
        ...options,
      ],
      // The cache's user key in the run's folder: never the machine's home.
      { cwd: dir, env: { ...simEnv(sim.url), XDG_CACHE_HOME: join(dir, '.xdg') }, nodeArgs: ctx.nodeArgs },
    );
    return { cli, stats: await sim.stats() };
  };
  // The base commit's plan (nothing changed: exit 0) leaves the cache a pull request's job restores.
  const base = await plan();
  if (base.cli.code !== 0)
    throw new Error(`the base commit's plan exited ${base.cli.code}: ${base.cli.stderr.slice(-2000)}`);
  const file = join(dir, 'manifests', 'tenants', 'bench-r00.yaml');
  const text = await readFile(file, 'utf8');
  const edited = text.replace(
    new RegExp(`(name: ${TENANT},[^\\n]*\\nspec:\\n  billingId: [^\\n]*\\n  markup: )(\\d+)`),
    '$199',
  );
  if (edited === text) throw new Error(`could not edit ${TENANT}'s markup in ${file}`);
  await writeFile(file, edited);
  const warm = await plan();
  const uncached = await plan('--no-cache');
  await rm(join(dir, '.switchboard', 'cache'), { recursive: true, force: true });
  const cold = await plan();
  const [summary] = [warm, uncached, cold].map(({ cli }) => {
    const planned = planSummaryOf(cli);
    if (!/^Plan: 0 to create, 1 to update, 0 to replace, 0 to delete\.$/.test(planned))
      throw new Error(`expected one update (${TENANT}'s markup), got: ${planned}\n${cli.stdout.slice(0, 3000)}`);
    return planned;
  });
  const { cli, stats } = warm;
  const scoped = /scoped to \d+ of \d+ documents/.exec(cli.stdout)?.[0] ?? 'no scope line';
  return {
    requests: stats.total,
    byRoute: stats.byRoute,
    bound: changedSinceBound(ctx.pageCap, size),
    wallS: cli.wallS,
    cpuS: cli.cpuS,
    cpuSystemS: cli.cpuSystemS,
    peakRssMB: cli.peakRssMB,
    concurrency: ctx.concurrency,
    cache: {
      uncachedWallS: round(uncached.cli.wallS),
      uncachedCpuS: round(uncached.cli.cpuS),
      coldWallS: round(cold.cli.wallS),
      coldCpuS: round(cold.cli.cpuS),
    },
    note: `${summary} (${scoped})`,
  };
}
