/**
 * `national-export`: `switchboard export` of the `national` estate (50 resellers, 50,000
 * tenants, 50,000 subscriptions, 150,000 entitlements) at 1 ms of latency, into an empty
 * folder; then the same GETs from a bare loop at the same concurrency. Held to the lower
 * bound of requests, 1.25 × the floor's wall and 1 GB of CLI memory, and the CLI must show
 * its progress on stderr. Then `export --concurrency auto` of a 1,000-tenant estate
 * against a simulator limited to 500 requests per second: auto must serve at least 90 % of
 * the limit with under 1 % of its requests answered 429.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, simEnv } from '../lib/cli.mjs';
import { bareLoop } from '../lib/floor.mjs';
import { orgLive } from '../lib/estate.mjs';
import { NATIONAL_LATENCY_MS } from '../lib/national-fixture.mjs';
import {
  applyTargets,
  describe as describeFigures,
  figures as baseFigures,
  round,
  targetLines,
} from '../lib/report.mjs';
import { startPlatformSim } from '../lib/sim.mjs';

const P = '/api/v01/draas/demo';
/** The lists export reads under every subscription: the subscription's collections in the schema. */
const SUBSCRIPTION_LISTS = ['entitlements', 'addresses', 'locations', 'templates', 'numbers'];
const RATE_LIMIT = 500;
/** The rate-limited part: 1,000 tenants with a subscription and three entitlements each (about 6,000 requests). */
const LIMITED = {
  resellers: 2,
  tenantsPerReseller: 500,
  subscriptionsPerTenant: 1,
  entitlementsPerSubscription: 3,
  addressesPerSubscription: 0,
};

/**
 * The GETs an export of the whole platform cannot do without, from the simulator's state
 * (the national estate plus the default data set): the profile, the group list, the group's
 * resellers and tenants (its lists answer the whole subtree, Document 1 §4.3, §4.4), each
 * tenant's subscriptions, each subscription's five collections, and the group's own
 * collections (block list, enabled UC platforms, products and each product's detail, the
 * three branding types).
 */
export function exportReadPaths(state, pageCap) {
  const group = state.tables.groups[0];
  const G = `${P}/groups/${group.uuid}`;
  const pages = (n) => Math.max(1, Math.ceil(n / pageCap));
  const tenants = state.tables.tenants;
  const products = state.tables.products.filter((p) => p.groupUuid === group.uuid || p.owner?.uuid === group.uuid);
  const parts = {
    'login + profile': ['/api/v01/system/users/local'],
    groups: [`${P}/groups`],
    "resellers of the group (its subtree's)": Array.from(
      { length: pages(state.tables.resellers.length) },
      (_, i) => `${P}/resellers?parent=${group.uuid}&page_size=${pageCap}&page=${i + 1}`,
    ),
    "tenants of the group (its subtree's)": Array.from(
      { length: pages(tenants.length) },
      (_, i) => `${P}/tenants?parent=${group.uuid}&page_size=${pageCap}&page=${i + 1}`,
    ),
    'subscriptions, per tenant': tenants.map((t) => `${P}/tenants/${t.uuid}/subscriptions?page=1&page_size=1000`),
    [`${SUBSCRIPTION_LISTS.join(', ')}: per subscription`]: state.tables.subscriptions.flatMap((s) => {
      const T = `${P}/tenants/${s.tenantUuid}/subscriptions/${s.id}`;
      return SUBSCRIPTION_LISTS.map((list) =>
        list === 'templates' ? `${T}/uc_alpha/templates` : `${T}/${list}?page=1&page_size=1000`,
      );
    }),
    "the group's collections": [
      `${G}/block_list`,
      `${G}/enabled_ucs`,
      `${G}/products`,
      ...products.map((p) => `${P}/public/products/${p.id}?parent=${group.uuid}`),
      ...['font', 'image', 'theme'].map((type) => `${G}/configurations/pages?type=${type}`),
    ],
  };
  const bound = Object.fromEntries(Object.entries(parts).map(([what, list]) => [what, list.length]));
  bound['login + profile'] += 1; // the login itself
  return { paths: Object.values(parts).flat(), bound };
}

/** The CLI's `--stats` line (stderr): the platform client's counts and what auto did. */
function statsOf(stderr) {
  const line = stderr.split('\n').find((l) => l.startsWith('{"platform"'));
  return line ? JSON.parse(line).platform : undefined;
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { sim, dir } = await ctx.shared.national();
  const out = join(ctx.workDir, 'national-export');
  await rm(out, { recursive: true, force: true });
  await sim.clearStats();
  const cli = await runCli(['export', '--out', out, '--concurrency', String(ctx.concurrency), '--stats'], {
    cwd: dir,
    env: { ...simEnv(sim.url), SWITCHBOARD_PROGRESS_INTERVAL_MS: '5000' },
    nodeArgs: ctx.nodeArgs,
  });
  if (cli.code !== 0) throw new Error(`export exited ${cli.code}: ${cli.stderr.slice(-2000)}`);
  ctx.log(
    `  export: exit ${cli.code}, wall ${round(cli.wallS)} s, CPU ${round(cli.cpuS)} s, peak RSS ${Math.round(cli.peakRssMB)} MB`,
  );
  const progressLines = cli.stderr.split('\n').filter((l) => /^export: read \d+ objects/.test(l)).length;
  const stats = await sim.stats();
  const { paths, bound } = exportReadPaths(await sim.state(), ctx.pageCap);
  await rm(out, { recursive: true, force: true });
  // An empty block list answers 404 (read as empty, Document 2 §4.10).
  // Its own process, as every scenario's floor: its CPU is measured like the CLI's.
  const floor = await bareLoop({
    loop: 'read',
    url: sim.url,
    paths,
    concurrency: ctx.concurrency,
    answered: [200, 404],
  });
  const limited = await rateLimited(ctx);
  return {
    ...floor,
    requests: stats.total,
    byRoute: stats.byRoute,
    bound,
    wallS: cli.wallS,
    cpuS: cli.cpuS,
    cpuSystemS: cli.cpuSystemS,
    peakRssMB: cli.peakRssMB,
    concurrency: ctx.concurrency,
    latencyMs: NATIONAL_LATENCY_MS,
    progressLines,
    limited,
    note: `${cli.stdout.trim()} ${progressLines} progress lines on stderr`,
  };
}

/** `export --concurrency auto` against a simulator serving at most RATE_LIMIT requests per second. */
async function rateLimited(ctx) {
  const { defaultSeed } = await import('../../../dist/sim/index.js');
  const sim = await startPlatformSim({
    latencyMs: NATIONAL_LATENCY_MS,
    rateLimit: RATE_LIMIT,
    nodeArgs: ctx.simNodeArgs,
  });
  const out = join(ctx.workDir, 'national-export-limited');
  try {
    await sim.reset({ ...orgLive(defaultSeed(), LIMITED).seed, rateLimit: RATE_LIMIT });
    await rm(out, { recursive: true, force: true });
    const cli = await runCli(['export', '--out', out, '--concurrency', 'auto', '--stats'], {
      cwd: ctx.workDir,
      env: simEnv(sim.url),
      nodeArgs: ctx.nodeArgs,
    });
    if (cli.code !== 0) throw new Error(`export --concurrency auto exited ${cli.code}: ${cli.stderr.slice(-2000)}`);
    const served = await sim.stats();
    const windowS = (served.lastRequestAt - served.firstRequestAt) / 1000;
    const refused = served.rateLimited.platform;
    return {
      served: served.total,
      rateLimited: refused,
      windowS: round(windowS),
      ratePerS: Math.round(served.total / windowS),
      share429: round((100 * refused) / (served.total + refused), 2),
      wallS: round(cli.wallS),
      concurrency: statsOf(cli.stderr)?.concurrency,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
    await sim.close();
  }
}

/** The figures of the best run, held to the common targets (report.mjs) and the rate limit's. */
export function figures(attempts) {
  const best = attempts.reduce((a, b) => (b.wallS < a.wallS ? b : a));
  const r = applyTargets(
    baseFigures(
      'national-export',
      best,
      attempts.map((a) => a.wallS),
    ),
    undefined,
  );
  const l = best.limited;
  r.limited = { ...l, rateLimit: RATE_LIMIT };
  r.targets.push(
    {
      what: 'progress lines on stderr',
      value: best.progressLines,
      limit: 1,
      unit: 'lines',
      cmp: '≥',
      pass: best.progressLines >= 1,
    },
    {
      what: `auto: rate served under a limit of ${RATE_LIMIT} requests/s`,
      value: l.ratePerS,
      limit: 0.9 * RATE_LIMIT,
      unit: 'requests/s',
      cmp: '≥',
      pass: l.ratePerS >= 0.9 * RATE_LIMIT,
    },
    { what: 'auto: requests answered 429', value: l.share429, limit: 1, unit: '%', cmp: '<', pass: l.share429 < 1 },
  );
  return r;
}

export function describe(r) {
  const l = r.limited;
  const did = (c) => (c ? `; auto's limit ${c.lowest}–${c.highest}, ended at ${c.limit}` : '');
  return [
    describeFigures({ ...r, targets: [] }),
    `  limited   export --concurrency auto of 1,000 tenants, ${l.rateLimit} requests/s: ${l.served} served in ${l.windowS} s → ${l.ratePerS}/s; ${l.rateLimited} answered 429 (${l.share429} %); wall ${l.wallS} s${did(l.concurrency)}`,
    ...targetLines(r.targets),
  ].join('\n');
}
