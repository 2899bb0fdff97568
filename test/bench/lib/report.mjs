/**
 * Figures of a scenario run and the targets they are held to (docs/performance.md).
 */

/**
 * @typedef {{ what: string, value: number, limit: number, unit: string, pass: boolean, cmp?: '≤' | '<' | '≥' }} Target
 * @typedef {{ scenario: string, requests: number, lowerBound: number, boundParts: Record<string, number>, requestRatio: number,
 *   wallS: number, idealS: number, wallRatio: number, concurrency: number, cpuS: number | null, peakRssMB: number | null,
 *   floorS: number | null, floorRatio: number | null, latencyMs: number, cpuSystemS: number | null, runsWallS: number[], note: string, byRoute: Record<string, number>, targets: Target[],
 *   applyS?: number, applyRequests?: number, applyIdealS?: number, applyRatio?: number }} ScenarioResult
 */

export const round = (n, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

/**
 * @param {string} scenario
 * @param {{ requests: number, bound: Record<string, number>, wallS: number, applyS?: number, applyRequests?: number, floorS?: number, cpuS?: number, cpuSystemS?: number, baseCpuS?: number, peakRssMB?: number, concurrency: number, latencyMs: number, note?: string, byRoute?: Record<string, number> }} m
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
    floorRatio: m.floorS === undefined ? null : round(m.wallS / m.floorS),
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
 * The limits each scenario is held to besides the requests' lower bound (docs/performance.md):
 * its wall against the bare-loop floor of the same requests (1.10 × unless it says otherwise),
 * the CLI's CPU and peak RSS. A scenario not listed gets the common targets.
 */
const LIMITS = {
  'plan-org': { cpuS: 1.5, peakRssMB: 500 },
  'apply-tenants': { applyRatio: 1.3 },
  'apply-org': { cpuS: 1.5 },
  routing: { cpuS: 2.5, peakRssMB: 1536 },
  'routing-vectors': { cpuRatio: 1.1, cpuRatioWhat: 'plan CPU with ÷ without 1,000 vectors' },
  national: { floorRatio: 1.15, peakRssMB: 1024 },
  'national-export': { floorRatio: 1.25, peakRssMB: 1024 },
  // A dozen requests, without a floor run: the wall of the whole command is held to its own limit.
  'changed-since': { wallS: 1, wallWhat: 'wall (one tenant edited in 2,000)' },
  'national-changed-since': { wallS: 1, wallWhat: 'wall (one tenant edited in 50,000)' },
};

/** The targets of one scenario; `naive` (this run's, if any) for the speed-up. */
export function applyTargets(r, naive) {
  if (r.scenario === 'naive' || r.kind === 'adaptive') return r;
  r.targets = [];
  const limits = LIMITS[r.scenario] ?? {};
  r.targets.push(target('requests ÷ lower bound', r.requestRatio, 1.05, '×'));
  if (r.floorS)
    r.targets.push(target('wall ÷ bare-loop floor', round(r.wallS / r.floorS), limits.floorRatio ?? 1.1, '×'));
  if (limits.applyRatio && r.applyRatio !== undefined)
    r.targets.push(target(`apply phase ÷ ideal at concurrency ${r.concurrency}`, r.applyRatio, limits.applyRatio, '×'));
  if (limits.wallS) r.targets.push(target(limits.wallWhat, r.wallS, limits.wallS, 's'));
  if (limits.cpuS) r.targets.push(target('CLI CPU', r.cpuS, limits.cpuS, 's'));
  if (limits.cpuRatio && r.cpuRatio !== undefined)
    r.targets.push(target(limits.cpuRatioWhat, r.cpuRatio, limits.cpuRatio, '×'));
  if (limits.peakRssMB) r.targets.push(target('peak RSS', r.peakRssMB, limits.peakRssMB, 'MB'));
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
