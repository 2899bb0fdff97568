/**
 * Figures of a scenario run and the targets they are held to (docs/performance.md).
 */

/**
 * @typedef {{ what: string, value: number, limit: number, unit: string, pass: boolean, cmp?: '≤' | '<' | '≥' }} Target
 * @typedef {{ scenario: string, requests: number, lowerBound: number, boundParts: Record<string, number>, requestRatio: number,
 *   wallS: number, idealS: number, wallRatio: number, concurrency: number, cpuS: number | null, peakRssMB: number | null,
 *   floorS: number | null, floorRatio: number | null, floorCpuS: number | null, cpuRatio: number | null, floorRssMB: number | null, latencyMs: number, cpuSystemS: number | null, runsWallS: number[], note: string, byRoute: Record<string, number>, targets: Target[],
 *   applyS?: number, applyRequests?: number, applyIdealS?: number, applyRatio?: number }} ScenarioResult
 */

export const round = (n, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

/**
 * @param {string} scenario
 * @param {{ requests: number, bound: Record<string, number>, wallS: number, applyS?: number, applyRequests?: number, floorS?: number, floorCpuS?: number, floorRssMB?: number, cpuS?: number, cpuSystemS?: number, baseCpuS?: number, peakRssMB?: number, concurrency: number, latencyMs: number, note?: string, byRoute?: Record<string, number> }} m
 * @param {number[]} runsWallS
 * @returns {ScenarioResult}
 */
export function figures(scenario, m, runsWallS) {
  const lowerBound = Object.values(m.bound).reduce((a, b) => a + b, 0);
  const idealS = (m.requests * m.latencyMs) / m.concurrency / 1000;
  return {
    scenario,
    requests: m.requests,
    lowerBound,
    boundParts: m.bound,
    requestRatio: round(m.requests / lowerBound, 3),
    wallS: round(m.wallS),
    idealS: round(idealS),
    wallRatio: round(m.wallS / idealS),
    ...(m.applyS === undefined || !m.applyRequests
      ? {}
      : applyFigures(m.applyS, m.applyRequests, m.latencyMs, m.concurrency)),
    concurrency: m.concurrency,
    latencyMs: m.latencyMs,
    floorS: m.floorS === undefined ? null : round(m.floorS),
    // Three digits: judged at two, 1.253 passed a limit of 1.25.
    floorRatio: m.floorS === undefined ? null : round(m.wallS / m.floorS, 3),
    floorCpuS: m.floorCpuS === undefined ? null : round(m.floorCpuS),
    floorRssMB: m.floorRssMB === undefined ? null : Math.round(m.floorRssMB),
    cpuRatio: m.floorCpuS === undefined || m.cpuS === undefined ? null : round(m.cpuS / m.floorCpuS),
    cpuS: m.cpuS === undefined ? null : round(m.cpuS),
    cpuSystemS: m.cpuSystemS === undefined ? null : round(m.cpuSystemS),
    // The CPU of the same command without what the scenario adds (routing-vectors: the vectors).
    ...(m.baseCpuS === undefined || m.cpuS === undefined
      ? {}
      : { baseCpuS: round(m.baseCpuS), cpuRatio: round(m.cpuS / m.baseCpuS, 3) }),
    peakRssMB: m.peakRssMB === undefined ? null : Math.round(m.peakRssMB),
    runsWallS: runsWallS.map((w) => round(w)),
    note: m.note ?? '',
    byRoute: m.byRoute ?? {},
    ...(m.cache ? { cache: m.cache } : {}),
    targets: [],
  };
}

/** An apply's executor phase (from its summary line) against the ideal of the requests it sent. */
function applyFigures(applyS, applyRequests, latencyMs, concurrency) {
  const applyIdealS = (applyRequests * latencyMs) / concurrency / 1000;
  return {
    applyS: round(applyS),
    applyRequests,
    applyIdealS: round(applyIdealS),
    applyRatio: round(applyS / applyIdealS),
  };
}

const target = (what, value, limit, unit) => ({ what, value, limit, unit, pass: value !== null && value <= limit });

/**
 * The limits each scenario is held to besides the requests' lower bound (docs/performance.md).
 * Every limit is a ratio of two figures of the same run on the same machine, or a size:
 * `floorRatio`, the wall against the bare-loop floor of the same requests; `cpuRatio`, the
 * CLI's CPU against the bare loop's (its own process, the same requests and concurrency);
 * peak RSS. A scenario not listed gets the requests' target alone.
 */
const LIMITS = {
  'plan-org': { floorRatio: 1.1, cpuRatio: 1.5, peakRssMB: 500 },
  'apply-tenants': { floorRatio: 1.1, cpuRatio: 1.5, applyRatio: 1.3 },
  'apply-org': { floorRatio: 1.1, cpuRatio: 1.5 },
  routing: { floorRatio: 1.25, cpuRatio: 2, peakRssMB: 800 },
  // Its cpuRatio is the plan's CPU with the vectors ÷ without them (its own figures), not against a bare loop.
  'routing-vectors': { cpuRatio: 1.1, cpuRatioWhat: 'plan CPU with ÷ without 1,000 vectors' },
  national: { floorRatio: 1.25, peakRssMB: 600 },
  'national-export': { floorRatio: 1.25, peakRssMB: 1024 },
  'small-estate': { floorRatio: 1.5 },
};

/**
 * The targets of one scenario. `others`: the other scenarios of the same run, for the
 * targets that compare two (plan-org's speed-up over naive, national-changed-since's wall
 * against changed-since's).
 * @param {ScenarioResult} r
 * @param {ScenarioResult[]} others
 */
export function applyTargets(r, others = []) {
  if (r.scenario === 'naive' || r.kind) return r;
  const sameRun = (name) => others.find((x) => x.scenario === name && (!r.runId || x.runId === r.runId));
  r.targets = [];
  const limits = LIMITS[r.scenario] ?? {};
  r.targets.push(target('requests ÷ lower bound', r.requestRatio, 1.05, '×'));
  if (r.floorS && limits.floorRatio)
    // The ratio of the unrounded times (floorRatio), as the scenario's own line prints it: the
    // rounded ones could pass a run that is 1 % over its limit.
    r.targets.push(target('wall ÷ bare-loop floor', r.floorRatio, limits.floorRatio, '×'));
  if (limits.applyRatio && r.applyRatio !== undefined)
    r.targets.push(target(`apply phase ÷ ideal at concurrency ${r.concurrency}`, r.applyRatio, limits.applyRatio, '×'));
  if (limits.cpuRatio && r.cpuRatio !== undefined && r.cpuRatio !== null)
    r.targets.push(target(limits.cpuRatioWhat ?? 'CLI CPU ÷ bare-loop CPU', r.cpuRatio, limits.cpuRatio, '×'));
  if (limits.peakRssMB) r.targets.push(target('peak RSS', r.peakRssMB, limits.peakRssMB, 'MB'));
  if (r.scenario === 'national-changed-since') cacheTargets(r, sameRun('changed-since'));
  const naive = sameRun('naive');
  if (r.scenario === 'plan-org' && naive) {
    const speedup = round(naive.wallS / r.wallS, 1);
    r.targets.push({
      what: 'naive wall ÷ plan-org wall',
      value: speedup,
      limit: 20,
      unit: '×',
      cmp: '≥',
      pass: speedup >= 20,
    });
  }
  return r;
}

/**
 * A pull request's plan at 50,000 tenants with the manifest cache of the base commit held
 * to 1.5 × the same plan at 2,000 tenants (its `wallS` is the warm run's, as changed-since's
 * is); the same plan with an empty cache (it writes one) held to 1.1 × the plan without the
 * cache (`--no-cache`), both of this run.
 */
function cacheTargets(r, changedSince) {
  const warm = changedSince ? round(r.wallS / changedSince.wallS) : null;
  r.targets.push(target("warm cache: wall ÷ changed-since's wall (2,000 tenants)", warm, 1.5, '×'));
  const cold = r.cache ? round(r.cache.coldWallS / r.cache.uncachedWallS) : null;
  r.targets.push(target('cold cache: wall ÷ wall without the cache', cold, 1.1, '×'));
}

/** `≤ 1.1 ×`, `≥ 20 ×`, `< 1 %`: how a target's limit reads. */
export function limitText(t) {
  const unit = t.unit.replace(' (at least)', '');
  const cmp = t.cmp ?? (t.unit.endsWith('(at least)') ? '≥' : '≤');
  return `${cmp} ${t.limit} ${unit}`;
}

/** The lines printed after a scenario: its figures, then PASS/FAIL per target. */
export function describe(r) {
  const lines = [
    `  requests  ${r.requests} issued; lower bound ${r.lowerBound} (${Object.entries(r.boundParts)
      .map(([k, v]) => `${v} ${k}`)
      .join(' + ')}) → ${r.requestRatio}×`,
    `  wall      ${r.wallS} s; ideal ${r.requests} × latency ÷ ${r.concurrency} = ${r.idealS} s → ${r.wallRatio}×${r.runsWallS.length > 1 ? ` (best of ${r.runsWallS.length} runs: ${r.runsWallS.join(', ')} s)` : ''}`,
  ];
  if (r.applyS !== undefined)
    lines.push(
      `  apply     the executor's phase: ${r.applyS} s for ${r.applyRequests} requests; ideal ${r.applyRequests} × latency ÷ ${r.concurrency} = ${r.applyIdealS} s → ${r.applyRatio}×; the rest of the wall is the CLI's start, manifest load and plan`,
    );
  if (r.floorS !== null)
    lines.push(
      `  floor     the same requests from a bare undici loop at concurrency ${r.concurrency}: ${r.floorS} s (${round(r.floorS / r.idealS)}× the ideal: the simulator's own time per request on this machine); CLI wall ÷ floor ${r.floorRatio}×` +
        (r.applyS === undefined ? '' : `, apply phase ÷ floor ${round(r.applyS / r.floorS)}×`),
    );
  if (r.cpuS !== null)
    lines.push(`  CLI       CPU ${r.cpuS} s (of which system ${r.cpuSystemS} s), peak RSS ${r.peakRssMB} MB`);
  if (r.floorCpuS !== null)
    lines.push(
      `  bare loop CPU ${r.floorCpuS} s, peak RSS ${r.floorRssMB} MB (its own process); CLI CPU ÷ bare-loop CPU ${r.cpuRatio}×`,
    );
  if (r.cache)
    lines.push(
      // CPU too: on a shared machine the walls measure the neighbours as much as the cache.
      `  cache     without the cache (--no-cache) wall ${r.cache.uncachedWallS} s, CPU ${r.cache.uncachedCpuS} s; ` +
        `with an empty cache (written) ${r.cache.coldWallS} s, CPU ${r.cache.coldCpuS} s; ` +
        `with the base commit's cache ${r.wallS} s, CPU ${r.cpuS} s`,
    );
  if (r.note) lines.push(`  note      ${r.note}`);
  return [...lines, ...targetLines(r.targets)].join('\n');
}

/** PASS/FAIL, one line per target. */
export function targetLines(targets) {
  return targets.map((t) => `  ${t.pass ? 'PASS' : 'FAIL'}      ${t.what}: ${t.value} ${limitText(t)}`);
}

/** How `adaptive`'s run of a fixed number against the rate limit ended. */
export function fixedOutcome(f) {
  if (f.exitCode === 2) return 'planned';
  const why = f.retriesSpent ? `: a request was still answered 429 after ${f.retriesSpent} retries` : '';
  return `failed (exit ${f.exitCode}${why})`;
}
