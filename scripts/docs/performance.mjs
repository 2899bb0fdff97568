import { applyTargets, fixedOutcome, limitText } from '../../test/bench/lib/report.mjs';

/**
 * The figures of docs/performance.md, rendered from test/bench/results.json (written by
 * `npm run bench`): the results table, the targets with PASS/FAIL, the lower bounds and
 * the comparisons with the bare-loop floor. Figures are never typed into the page by hand.
 */

/** Scenarios in the order the page discusses them; others follow alphabetically. */
const ORDER = [
  'plan-org',
  'naive',
  'apply-tenants',
  'apply-org',
  'routing',
  'national',
  'adaptive',
  'changed-since',
  'national-changed-since',
  'national-export',
];

const dash = '–';

/** `10025` → `10,025`; `8.6` stays `8.6`; null → `–`. */
function num(value) {
  if (value === null || value === undefined || Number.isNaN(value)) return dash;
  return Number(value).toLocaleString('en-US', { maximumFractionDigits: 4 });
}

const ratio = (a, b) => (a && b ? Math.round((a / b) * 100) / 100 : null);

/** @param {{ scenarios: Record<string, any> }} results */
function scenarios(results) {
  const all = Object.values(results.scenarios);
  const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
  return all.sort((a, b) => rank(a.scenario) - rank(b.scenario) || a.scenario.localeCompare(b.scenario));
}

function context(list) {
  const dates = list
    .map((r) => r.at)
    .filter(Boolean)
    .sort();
  const day = (iso) => iso.slice(0, 16).replace('T', ' ');
  const when = dates.length === 0 ? 'at an unrecorded date' : `between ${day(dates[0])} and ${day(dates.at(-1))} UTC`;
  const machines = [...new Set(list.map((r) => r.machine).filter(Boolean))].join('; ') || 'an unrecorded machine';
  // Scenarios that send no request (version) have no latency and no concurrency to state.
  const sending = list.filter((r) => r.latencyMs !== undefined);
  const counts = new Map();
  for (const r of sending) counts.set(r.latencyMs, (counts.get(r.latencyMs) ?? 0) + 1);
  const usual = [...counts].sort((x, y) => y[1] - x[1])[0]?.[0];
  const others = sending.filter((r) => r.latencyMs !== usual).map((r) => `${r.scenario}: ${r.latencyMs} ms`);
  const latencies = `${usual} ms per request${others.length > 0 ? ` (${others.join(', ')})` : ''}`;
  const concurrencies = sending
    .map((r) => `${r.scenario} ${r.kind === 'adaptive' ? `auto against ${r.concurrency}` : r.concurrency}`)
    .join(', ');
  return (
    `Measured ${when} on ${machines}, with a simulated latency of ${latencies} ` +
    `and the concurrency of each scenario (${concurrencies}). Each row is the fastest of the ` +
    "scenario's runs (the last column counts them)."
  );
}

function figuresTable(list) {
  const head =
    '| scenario | requests | lower bound | ratio | wall (s) | ideal (s) | ratio | apply phase (s) | ratio | ' +
    'bare-loop floor (s) | wall ÷ floor | CLI CPU (s) | peak RSS (MB) | runs |';
  const rule = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const rows = list
    .filter((r) => r.kind !== 'adaptive')
    .map((r) => {
      const ideal = r.concurrency === 1 ? `${num(r.idealS)} (sequential)` : num(r.idealS);
      const cells = [
        r.scenario,
        num(r.requests),
        num(r.lowerBound),
        num(r.requestRatio),
        num(r.wallS),
        ideal,
        num(r.wallRatio),
        num(r.applyS),
        num(r.applyRatio),
        num(r.floorS),
        num(r.floorS ? ratio(r.wallS, r.floorS) : null),
        num(r.cpuS),
        num(r.peakRssMB),
        num(r.runsWallS?.length),
      ];
      return `| ${cells.join(' | ')} |`;
    });
  return [head, rule, ...rows].join('\n');
}

/**
 * The targets each scenario is held to. plan-org's speed-up over naive needs both runs; when
 * they ran separately, its targets are worked out again as the bench does (report.mjs).
 */
function targets(list) {
  const naive = list.find((r) => r.scenario === 'naive');
  const rows = list.flatMap((r) => {
    const complete = r.scenario !== 'plan-org' || !naive || r.targets?.some((t) => t.what.startsWith('naive'));
    const own = complete ? r : applyTargets({ ...r, targets: [] }, list);
    return (own.targets ?? []).map((t) => ({ scenario: r.scenario, ...t }));
  });
  const lines = rows.map((t) => {
    const unit = t.unit.replace(' (at least)', '');
    const limit = limitText({ ...t, limit: num(t.limit) });
    return `| ${t.scenario} | ${t.what} | ${num(t.value)} ${unit} | ${limit} | ${t.pass ? 'PASS' : '**FAIL**'} |`;
  });
  return ['| scenario | target | measured | limit | |', '|---|---|---:|---:|---|', ...lines].join('\n');
}

function bounds(list) {
  const seen = new Map();
  const lines = [];
  for (const r of list.filter((x) => x.boundParts && Object.keys(x.boundParts).length > 0)) {
    const key = JSON.stringify(r.boundParts);
    const same = seen.get(key);
    const parts = Object.entries(r.boundParts).map(([what, n]) => `${what} ${num(n)}`);
    lines.push(
      `- \`${r.scenario}\`: ${num(r.lowerBound)}${same ? `, the same as \`${same}\`` : ` = ${parts.join('; ')}`}`,
    );
    seen.set(key, same ?? r.scenario);
  }
  return lines.join('\n');
}

/** How far each run with a bare-loop floor is from what the machine allows at all. */
function floors(list) {
  const lines = [];
  for (const r of list.filter((x) => x.floorS)) {
    const phase =
      r.applyS !== undefined
        ? `; switchboard's apply phase alone is ${num(ratio(r.applyS, r.floorS))} × that floor`
        : '';
    lines.push(
      `- \`${r.scenario}\`: the bare loop takes ${num(ratio(r.floorS, r.idealS))} × the ideal; ` +
        `the whole command (start and manifest load included) is ${num(ratio(r.wallS, r.floorS))} × that floor${phase}.`,
    );
  }
  return lines.join('\n');
}

/** `--concurrency auto` against a rate-limited simulator and against none (the `adaptive` scenario). */
function adaptive(list) {
  const r = list.find((x) => x.kind === 'adaptive');
  if (!r) return [];
  const { limited: l, unlimited: u } = r;
  const did = (c) => (c ? `${num(c.lowest)}–${num(c.highest)}, ended at ${num(c.limit)}` : dash);
  return [
    '',
    '`--concurrency auto` (the `adaptive` scenario: `plan` of the `plan-org` estate):',
    '',
    '| platform | requests served | answered 429 | rate (requests/s) | wall (s) | limit auto used |',
    '|---|---:|---:|---:|---:|---:|',
    `| limited to ${num(r.rateLimit)} requests/s | ${num(l.served)} | ${num(l.rateLimited)} (${num(l.share429)} %) | ` +
      `${num(l.ratePerS)} | ${num(l.wallS)} | ${did(l.concurrency)} |`,
    ...(r.limitedFixed
      ? [
          `| limited to ${num(r.rateLimit)} requests/s, \`--concurrency ${r.concurrency}\` | | ` +
            `${num(r.limitedFixed.rateLimited)} (${num(r.limitedFixed.share429)} %) | | ${num(r.limitedFixed.wallS)}, ` +
            `${fixedOutcome(r.limitedFixed)} | ${num(r.concurrency)} |`,
        ]
      : []),
    `| no limit, auto | | | | ${num(u.autoWallS)} | ${did(u.concurrency)} |`,
    `| no limit, \`--concurrency ${r.concurrency}\` | | | | ${num(u.fixedWallS)} | ${num(r.concurrency)} |`,
  ];
}

/** The generated part of docs/performance.md (between its markers). */
export function renderPerformance(results) {
  const list = scenarios(results);
  return [
    context(list),
    '',
    figuresTable(list),
    '',
    'Targets:',
    '',
    targets(list),
    '',
    "Lower bounds of requests, counted from each scenario's estate:",
    '',
    bounds(list),
    '',
    'Against the bare-loop floor (the same requests sent with no switchboard code, at the same concurrency):',
    '',
    floors(list),
    ...adaptive(list),
  ].join('\n');
}

export { figuresTable, targets as targetsTable };
