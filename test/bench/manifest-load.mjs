#!/usr/bin/env node
// Loading and validating manifests at scale: a generated estate of 20,000 tenants (220,003
// objects, 18 MB of YAML; test/manifest/generate.mjs) through the build's loadManifests, best
// of --runs runs, against the 3 s target (docs/design-decisions.md "Two YAML parsers, one
// meaning"). A benchmark, not a test: the figure depends on the machine and on what else runs.
// Usage: npm run build && node test/bench/manifest-load.mjs [tenants] [--runs N] [--budget-ms MS]
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateEstate } from '../manifest/generate.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '2' }, 'budget-ms': { type: 'string', default: '3000' } },
});
const TENANTS = Number(positionals[0] ?? 20_000);
const RUNS = Math.max(1, Number(values.runs));
const BUDGET_MS = Number(values['budget-ms']);

if (!existsSync(new URL('../../dist/manifest/index.js', import.meta.url))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
const { loadManifests, schemaSet } = await import('../../dist/manifest/index.js');

const dir = await mkdtemp(join(tmpdir(), 'sb-bench-manifests-'));
try {
  await generateEstate(dir, TENANTS);
  const compileStart = performance.now();
  Object.values(schemaSet().validators); // each kind's validator compiles on first use
  const compileMs = performance.now() - compileStart;
  const runs = [];
  let objects = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const result = await loadManifests([dir], { cwd: dir, env: {} });
    runs.push(performance.now() - start);
    if (result.diagnostics.length > 0) {
      console.error(`the generated estate is not valid: ${JSON.stringify(result.diagnostics.slice(0, 3))}`);
      process.exit(1);
    }
    objects = result.set.objects.length;
  }
  const best = Math.min(...runs);
  console.log(
    `manifest load+validate: ${TENANTS} tenants, ${objects} objects: runs ${runs.map((r) => r.toFixed(0)).join(' ms, ')} ms ` +
      `(schema compile ${compileMs.toFixed(0)} ms); best ${best.toFixed(0)} ms, target ${BUDGET_MS} ms: ${best < BUDGET_MS ? 'PASS' : 'FAIL'}`,
  );
  process.exitCode = best < BUDGET_MS ? 0 : 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
