#!/usr/bin/env node
/**
 * Applying N new tenants against `switchboard sim --latency L` with `--concurrency C`,
 * compared with the latency-bound ideal (requests × latency ÷ concurrency).
 * Run after `npm run build`: `node test/apply/bench-2k.mjs [N=2000] [L=10] [C=16]`.
 */
import { spawn, execFile } from 'node:child_process';
import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const [n = 2000, latency = 10, concurrency = 16] = process.argv.slice(2).map(Number);
const CLI = resolve(import.meta.dirname, '../../dist/cli/main.js');
const port = 20000 + Math.floor(Math.random() * 20000);
const dir = await mkdtemp(join(tmpdir(), 'sb-bench-apply-'));
await mkdir(join(dir, 'm'));
let docs = '';
for (let i = 0; i < n; i++) {
  docs += `---\napiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: bench-${String(i).padStart(5, '0')}, reseller: north }\nspec:\n  billingId: BENCH-${i}\n  markup: 1\n`;
}
await writeFile(join(dir, 'm', 'tenants.yaml'), docs);

const sim = spawn(process.execPath, [CLI, 'sim', '--port', String(port), '--latency', String(latency)], { stdio: 'ignore' });
const url = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  try {
    await fetch(`${url}/_sim/stats`);
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 100));
  }
}
const env = { PATH: process.env.PATH ?? '', SWITCHBOARD_URL: url, SWITCHBOARD_INSTANCE: 'demo', SWITCHBOARD_USERNAME: 'admin', SWITCHBOARD_PASSWORD: 'admin' };
try {
  const begin = performance.now();
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'apply', join(dir, 'm'), '--yes', '--concurrency', String(concurrency)], { cwd: dir, env, maxBuffer: 256 * 1024 * 1024 });
  const wall = (performance.now() - begin) / 1000;
  const summary = stdout.split('\n').find((l) => l.startsWith('Apply complete')) ?? stdout.slice(-500);
  const applySeconds = Number(/, ([\d.]+) s\)/.exec(summary)?.[1]);
  const stats = await (await fetch(`${url}/_sim/stats`)).json();
  const posts = stats.byRoute['POST /api/v01/draas/:instance/tenants'] ?? 0;
  const ideal = (posts * latency) / concurrency / 1000;
  console.log(summary);
  console.log(`tenants: ${n}, latency: ${latency} ms, concurrency: ${concurrency}`);
  console.log(`apply phase: ${applySeconds.toFixed(2)} s; whole command (load, plan, apply): ${wall.toFixed(2)} s`);
  console.log(`latency-bound ideal: ${posts} requests × ${latency} ms ÷ ${concurrency} = ${ideal.toFixed(2)} s (apply phase = ${(applySeconds / ideal).toFixed(2)}× ideal)`);
  console.log(`requests served by the simulator: ${stats.total}`);
} finally {
  sim.kill();
}
