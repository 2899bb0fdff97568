#!/usr/bin/env node
/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, or `npm run bench -- --profile DIR`):
 * self time per function and per file, heaviest first.
 * Usage: node test/bench/profile-top.mjs FILE.cpuprofile [N=25]
 */
import { readFileSync } from 'node:fs';

const [file, top = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node test/bench/profile-top.mjs FILE.cpuprofile [N]');
  process.exit(1);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
}
const byFunction = new Map();
const byFile = new Map();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id);
  const where = f.url.replace(/^file:\/\/.*?\/(dist|node_modules)\//, '$1/') || '(native)';
  const key = `${f.functionName || '(anonymous)'}  ${where}:${f.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  byFile.set(where, (byFile.get(where) ?? 0) + us);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const show = (title, map) => {
  console.log(`${title} (of ${(total / 1e6).toFixed(2)} s sampled)`);
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
    console.log(`${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
};
show('self time by function', byFunction);
console.log();
show('self time by file', byFile);
