/**
 * Figures of a scenario run and the targets they are held to (docs/performance.md).
 */

/**
 * @typedef {{ what: string, value: number, limit: number, unit: string, pass: boolean }} Target
 * @typedef {{ scenario: string, requests: number, lowerBound: number, boundParts: Record<string, number>, requestRatio: number,
 *   wallS: number, idealS: number, wallRatio: number, concurrency: number, cpuS: number | null, peakRssMB: number | null,
 *   floorS: number | null, cpuSystemS: number | null, runsWallS: number[], note: string, byRoute: Record<string, number>, targets: Target[],
 *   applyS?: number, applyRequests?: number, applyIdealS?: number, applyRatio?: number }} ScenarioResult
 */

const round = (n, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

/**
 * @param {string} scenario
 * @param {{ requests: number, bound: Record<string, number>, wallS: number, applyS?: number, applyRequests?: number, floorS?: number, cpuS?: number, cpuSystemS?: number, peakRssMB?: number, concurrency: number, latencyMs: number, note?: string, byRoute?: Record<string, number> }} m
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
    floorS: m.floorS === undefined ? null : round(m.floorS),
    cpuS: m.cpuS === undefined ? null : round(m.cpuS),
    cpuSystemS: m.cpuSystemS === undefined ? null : round(m.cpuSystemS),
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

/** The targets of one scenario; `naive` (this run's, if any) for the speed-up. */
export function applyTargets(r, naive) {
  if (r.scenario === 'naive') return r;
  if (r.scenario === 'changed-since') {
    // A dozen requests: their ideal is a few milliseconds, so the wall is held to its own limit.
    r.targets.push(target('requests ÷ lower bound', r.requestRatio, 1.05, '×'));
    r.targets.push(target('wall (one tenant edited in 2,000)', r.wallS, 1, 's'));
    return r;
  }
  r.targets.push(target('requests ÷ lower bound', r.requestRatio, 1.05, '×'));
  r.targets.push(target(`wall ÷ ideal at concurrency ${r.concurrency}`, r.wallRatio, 1.3, '×'));
  if (r.scenario === 'plan-org') {
    r.targets.push(target('CLI CPU', r.cpuS, 3, 's'));
    r.targets.push(target('peak RSS', r.peakRssMB, 500, 'MB'));
    if (naive) {
      const speedup = round(naive.wallS / r.wallS, 1);
      r.targets.push({
        what: 'naive wall ÷ plan-org wall',
        value: speedup,
        limit: 20,
        unit: '× (at least)',
        pass: speedup >= 20,
      });
    }
  }
  if (r.scenario === 'apply-tenants' && r.applyRatio !== undefined)
    r.targets.push(target(`apply phase ÷ ideal at concurrency ${r.concurrency}`, r.applyRatio, 1.3, '×'));
  if (r.scenario === 'routing') r.targets.push(target('peak RSS', r.peakRssMB, 1536, 'MB'));
  return r;
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
  if (r.floorS !== null && r.applyS !== undefined)
    lines.push(
      `  floor     the same ${r.applyRequests} POSTs from a bare undici loop at concurrency ${r.concurrency}: ${r.floorS} s (${round(r.floorS / r.applyIdealS)}× the ideal: the simulator and the machine); apply phase ÷ floor ${round(r.applyS / r.floorS)}×`,
    );
  else if (r.floorS !== null)
    lines.push(
      `  floor     the same reads from a bare undici loop at concurrency ${r.concurrency}: ${r.floorS} s (${round(r.floorS / r.idealS)}× the ideal: the simulator's own time per request on this machine); CLI wall ÷ floor ${round(r.wallS / r.floorS)}×`,
    );
  if (r.cpuS !== null)
    lines.push(`  CLI       CPU ${r.cpuS} s (of which system ${r.cpuSystemS} s), peak RSS ${r.peakRssMB} MB`);
  if (r.note) lines.push(`  note      ${r.note}`);
  for (const t of r.targets)
    lines.push(
      `  ${t.pass ? 'PASS' : 'FAIL'}      ${t.what}: ${t.value} ${t.unit === '× (at least)' ? '≥' : '≤'} ${t.limit} ${t.unit.replace(' (at least)', '')}`,
    );
  return lines.join('\n');
}
