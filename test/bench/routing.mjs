#!/usr/bin/env node
// Benchmark: a 1,000,000-row routing table with 1% drift (10,000 changed rows,
// 1,000 new, 1,000 removed), planned and applied through the built client (dist/).
// Usage: npm run build && node test/bench/routing.mjs [rows]   (or: npm run bench -- routing)
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { desiredRows as desiredCells, drift } from './routing-data.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
if (!existsSync(new URL('../../dist/routing/index.js', import.meta.url))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
const { RoutingClient, diffRows, executeRoutingChanges } = await import('../../dist/routing/index.js');

const ROWS = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const { changed: CHANGED, added: NEW, removed: REMOVED } = drift(ROWS);
const BULK = 1000;
const CHUNK = 1000;
const ref = { service: 'bench', version: 'active', table: 'numbers' };

const child = fork(`${here}routing-sim.mjs`, [String(ROWS)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const { url } = await new Promise((resolve, reject) => {
  child.stdout.once('data', (b) => resolve(JSON.parse(String(b))));
  child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
});
const serverStats = () =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send('stats');
  });

/** Desired rows as CSV cells (routing-data.mjs): 1% drift. */
function desiredRows() {
  return {
    columns: ['number', 'route', 'priority'],
    rows: [...desiredCells(ROWS)],
    sourceOf: (i) => `numbers.csv:${i + 2}`,
  };
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const count = (stats, methods) => methods.reduce((n, m) => n + (stats[m] ?? 0), 0);

const client = new RoutingClient({ url, auth: { username: 'bench', password: 'bench' }, concurrency: 8 });
const desired = desiredRows();
const wall0 = performance.now();
const cpu0 = cpu();

const read = await client.readAll(ref);
const tRead = performance.now();
const reads = count(client.stats, ['GET']);

const cpuDiff0 = cpu();
const diff = diffRows(desired, read.rows, { key: ['number'], prune: true });
const diffCpu = cpu() - cpuDiff0;
const tDiff = performance.now();

const report = await executeRoutingChanges(client, ref, diff, { bulkSize: BULK, updateChunkSize: CHUNK });
const tApply = performance.now();
const writes = count(client.stats, ['POST', 'PATCH', 'PUT', 'DELETE']);
const totalCpu = cpu() - cpu0;
const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);

const updateRequests = diff.updateGroups.reduce((n, g) => n + Math.ceil(g.rows.length / CHUNK), 0);
const bound = {
  pages: Math.ceil(ROWS / read.pageSize),
  bulkChunks: Math.ceil(diff.creates.length / BULK),
  updateGroups: updateRequests,
  deletes: diff.deletes.length,
};
const lowerBound = bound.pages + bound.bulkChunks + bound.updateGroups + bound.deletes;
const server = await serverStats();
const result = {
  rows: ROWS,
  drift: { changed: CHANGED, new: NEW, removed: REMOVED },
  plan: {
    creates: diff.creates.length,
    updates: diff.updateGroups.reduce((n, g) => n + g.rows.length, 0),
    updateGroups: diff.updateGroups.length,
    deletes: diff.deletes.length,
    noops: diff.noops,
    problems: diff.problems.length,
  },
  applied: {
    created: report.created,
    updated: report.updated,
    deleted: report.deleted,
    failures: report.failures.length,
  },
  requests: {
    read: reads,
    write: writes,
    total: reads + writes,
    lowerBound,
    bound,
    ratio: Number(((reads + writes) / lowerBound).toFixed(3)),
  },
  serverPageCap: read.pageSize,
  wallSeconds: { read: s(tRead - wall0), diff: s(tDiff - tRead), apply: s(tApply - tDiff), total: s(tApply - wall0) },
  cpuSeconds: { diff: Number(diffCpu.toFixed(2)), total: Number(totalCpu.toFixed(2)) },
  peakRssMB,
  server: { requests: server.stats, peakRssMB: server.maxRssMB },
  targets: {
    requestsWithin1_1x: reads + writes <= 1.1 * lowerBound,
    diffCpuUnder3s: diffCpu < 3,
    peakRssUnder1_5GB: peakRssMB < 1536,
  },
};
function s(ms) {
  return Number((ms / 1000).toFixed(2));
}

console.log(`routing benchmark: ${ROWS.toLocaleString('en')} rows, ${CHANGED} changed, ${NEW} new, ${REMOVED} removed`);
console.log(
  `  requests  read ${reads}, write ${writes}, total ${reads + writes}; lower bound ${lowerBound} (${bound.pages} pages at cap ${read.pageSize} + ${bound.bulkChunks} bulk + ${bound.updateGroups} update PATCHes in ${diff.updateGroups.length} groups + ${bound.deletes} deletes) → ${result.requests.ratio}×`,
);
console.log(
  `  wall      read ${result.wallSeconds.read}s, diff ${result.wallSeconds.diff}s, apply ${result.wallSeconds.apply}s, total ${result.wallSeconds.total}s`,
);
console.log(`  cpu       diff ${result.cpuSeconds.diff}s, client total ${result.cpuSeconds.total}s`);
console.log(`  memory    client peak RSS ${peakRssMB} MB (simulator ${server.maxRssMB} MB)`);
console.log(
  `  targets   ${Object.entries(result.targets)
    .map(([k, v]) => `${k}: ${v ? 'ok' : 'MISSED'}`)
    .join(', ')}`,
);
console.log(JSON.stringify(result));

await client.close();
child.kill('SIGTERM');
const ok = Object.values(result.targets).every(Boolean) && report.failures.length === 0;
process.exit(ok ? 0 : 1);
