/**
 * `adaptive`: `switchboard plan --concurrency auto` of the `plan-org` estate (10,025
 * requests), first against the simulator limited to 500 requests per second (it answers 429
 * with Retry-After beyond that), then with no limit next to `--concurrency 16`. Auto must
 * serve at least 90 % of the limit with under 1 % of its requests answered 429, and without a
 * limit take no more than 1.1 × the wall of `--concurrency 16`.
 */
import { join } from 'node:path';
import { runCli, simEnv } from '../lib/cli.mjs';
import { fixedOutcome, round, targetLines } from '../lib/report.mjs';

const RATE_LIMIT = 500;

/** The CLI's `--stats` line (stderr): the platform client's counts and what auto did. */
function statsOf(stderr) {
  const line = stderr.split('\n').find((l) => l.startsWith('{"platform"'));
  return line ? JSON.parse(line).platform : undefined;
}

/** `expectFailure`: a fixed number against the limit may run out of retries (exit 1); that is a figure, not an error. */
async function plan(ctx, org, concurrency, expectFailure = false) {
  const { sim, dir } = org;
  await sim.clearStats();
  const cli = await runCli(
    ['plan', join(dir, 'manifests'), '--detailed-exitcode', '--concurrency', String(concurrency), '--stats'],
    { cwd: dir, env: simEnv(sim.url), nodeArgs: ctx.nodeArgs },
  );
  if (cli.code !== 2 && !(expectFailure && cli.code === 1))
    throw new Error(`plan exited ${cli.code} (expected 2: changes): ${cli.stderr.slice(-2000)}`);
  return { cli, served: await sim.stats(), client: statsOf(cli.stderr) };
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const org = await ctx.shared.org();
  const live = await org.sim.state();
  const withLimit = (rateLimit) => ({
    ...live,
    settings: { ...live.settings, ...(rateLimit ? { rateLimit } : {}) },
  });
  try {
    await org.sim.reset(withLimit(RATE_LIMIT));
    const limited = await plan(ctx, org, 'auto');
    await org.sim.reset(withLimit(RATE_LIMIT));
    const limitedFixed = await plan(ctx, org, ctx.concurrency, true);
    await org.sim.reset(withLimit(undefined));
    const fixed = await plan(ctx, org, ctx.concurrency);
    const auto = await plan(ctx, org, 'auto');
    const { served } = limited;
    const windowS = (served.lastRequestAt - served.firstRequestAt) / 1000;
    const refused = served.rateLimited.platform;
    return {
      wallS: limited.cli.wallS,
      latencyMs: ctx.latencyMs,
      limited: {
        wallS: round(limited.cli.wallS),
        served: served.total,
        rateLimited: refused,
        windowS: round(windowS),
        ratePerS: Math.round(served.total / windowS),
        share429: round((100 * refused) / (served.total + refused), 2),
        cpuS: round(limited.cli.cpuS),
        concurrency: limited.client?.concurrency,
      },
      // For comparison, not a target: a fixed number against the same limit.
      limitedFixed: {
        wallS: round(limitedFixed.cli.wallS),
        exitCode: limitedFixed.cli.code,
        retriesSpent: Number(
          /→ 429: rate limited by the platform \(gave up after (\d+) retries\)/.exec(limitedFixed.cli.stderr)?.[1] ?? 0,
        ),
        rateLimited: limitedFixed.served.rateLimited.platform,
        share429: round(
          (100 * limitedFixed.served.rateLimited.platform) /
            (limitedFixed.served.total + limitedFixed.served.rateLimited.platform),
          2,
        ),
      },
      unlimited: {
        fixedWallS: round(fixed.cli.wallS),
        autoWallS: round(auto.cli.wallS),
        ratio: round(auto.cli.wallS / fixed.cli.wallS),
        concurrency: auto.client?.concurrency,
      },
    };
  } finally {
    await org.sim.reset(live);
  }
}

/** The result kept: the run that met the most targets, then the one serving the highest rate. */
export function figures(attempts, ctx) {
  const judged = attempts.map((a) => ({ ...a, targets: targetsOf(a, ctx) }));
  const passes = (a) => a.targets.filter((t) => t.pass).length;
  const best = judged.reduce((a, b) =>
    passes(b) > passes(a) || (passes(b) === passes(a) && b.limited.ratePerS > a.limited.ratePerS) ? b : a,
  );
  return {
    scenario: 'adaptive',
    kind: 'adaptive',
    rateLimit: RATE_LIMIT,
    concurrency: ctx.concurrency,
    latencyMs: best.latencyMs,
    limited: best.limited,
    limitedFixed: best.limitedFixed,
    unlimited: best.unlimited,
    runsWallS: attempts.map((a) => round(a.wallS)),
    targets: best.targets,
  };
}

function targetsOf(a, ctx) {
  const rate = a.limited.ratePerS;
  const floor = 0.9 * RATE_LIMIT;
  return [
    {
      what: `rate served under a limit of ${RATE_LIMIT} requests/s`,
      value: rate,
      limit: floor,
      unit: 'requests/s',
      cmp: '≥',
      pass: rate >= floor,
    },
    {
      what: 'requests answered 429',
      value: a.limited.share429,
      limit: 1,
      unit: '%',
      cmp: '<',
      pass: a.limited.share429 < 1,
    },
    {
      what: `no limit: auto wall ÷ --concurrency ${ctx.concurrency} wall`,
      value: a.unlimited.ratio,
      limit: 1.1,
      unit: '×',
      pass: a.unlimited.ratio <= 1.1,
    },
  ];
}

export function describe(r) {
  const { limited: l, unlimited: u } = r;
  const did = (c) =>
    c
      ? `limit ${c.lowest}–${c.highest}, ended at ${c.limit}; ${c.overloadDecreases} backs-off on 429, ${c.latencyDecreases} on answer times`
      : '';
  return [
    `  limited   ${r.rateLimit} requests/s: ${l.served} served in ${l.windowS} s from the first request to the last → ${l.ratePerS}/s; ${l.rateLimited} answered 429 (${l.share429} %); wall ${l.wallS} s; ${did(l.concurrency)}`,
    `  fixed     --concurrency ${r.concurrency} against the same limit: ${r.limitedFixed.rateLimited} answered 429 (${r.limitedFixed.share429} %), wall ${r.limitedFixed.wallS} s, ${fixedOutcome(r.limitedFixed)}`,
    `  no limit  auto ${u.autoWallS} s, --concurrency ${r.concurrency} ${u.fixedWallS} s → ${u.ratio}×; ${did(u.concurrency)}`,
    ...targetLines(r.targets),
  ].join('\n');
}
