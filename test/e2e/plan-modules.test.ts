/**
 * What a plain `plan` loads is its start (docs/performance.md): the run layer's modules it
 * uses, not export's or apply's run; no HTML report; re2js, csv-parse and pino only when a
 * pattern, a quoted CSV file or a line to log asks for them.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv } from './cli-helpers.js';

/**
 * Preloaded with `node --import`: reports on stderr, at exit, every ES module the process
 * resolved (a resolve hook, off the main thread, sends them over a port) and every CommonJS
 * module it required (`createRequire` loads re2js, pino and undici's Pool that way).
 */
const RECORD_MODULES = `
import { register, Module } from 'node:module';
const { port1, port2 } = new MessageChannel();
const urls = new Set();
port1.on('message', (url) => urls.add(url));
port1.unref();
const hook = 'let port; export function initialize(data) { port = data.port; }' +
  'export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }';
register('data:text/javascript,' + encodeURIComponent(hook), { data: { port: port2 }, transferList: [port2] });
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  try { urls.add('file://' + Module._resolveFilename(request, parent, isMain)); } catch {}
  return loaded;
};
process.on('exit', () => process.stderr.write('\\n' + JSON.stringify([...urls])));
`;

const TENANT = `apiVersion: switchboard/v1
kind: Tenant
metadata:
  name: solo-corp
  reseller: north
spec:
  billingId: SOLO-1
  markup: 1
`;

/** The source files (`src/…`) bundled into these chunks, from their source maps. */
async function sourcesOf(chunks: string[]): Promise<string[]> {
  const all = new Set<string>();
  for (const chunk of chunks) {
    const map = JSON.parse(await readFile(`${fileURLToPath(chunk)}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) all.add(source.replace(/^(\.\.\/)+/, ''));
  }
  return [...all].sort();
}

describe('what plan loads', () => {
  it('leaves out export, apply runs, the HTML report, re2js, csv-parse and pino when nothing asks for them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-plan-modules-'));
    try {
      await mkdir(join(dir, 'manifests'));
      await writeFile(join(dir, 'manifests', 'tenant.yaml'), TENANT);
      const hook = join(dir, 'record-modules.mjs');
      await writeFile(hook, RECORD_MODULES);
      const args = ['--import', hook, CLI, 'plan', 'manifests', '--sim', '--no-cache'];
      const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: dir, env: cliEnv() });
      expect(stdout).toContain('Plan: 1 to create');
      const urls = JSON.parse(stderr.slice(stderr.lastIndexOf('\n') + 1)) as string[];
      // From the package's root: the first dist/ or node_modules/ of the path.
      const loaded = urls.map((u) => u.replace(/^.*?\/(dist|node_modules)\//, '$1/'));
      const sources = await sourcesOf(urls.filter((u) => /\/dist\/cli\/bundle\/[^/]+\.js$/.test(u)));
      // The plan ran from the bundle; what the validators require and undici's Pool, as CommonJS (the hook sees those).
      expect(sources).toContain('src/run/plan.ts');
      expect(loaded).toContain('node_modules/ajv/dist/runtime/equal.js');
      expect(loaded).toContain('node_modules/undici/lib/dispatcher/pool.js');
      expect(
        sources.filter((f) => /^src\/(export\/|run\/(export|apply|baselines)\.ts|plan\/(render-html|html\/))/.test(f)),
      ).toEqual([]);
      expect(loaded.filter((u) => /^node_modules\/(re2js|csv-parse|pino)\//.test(u))).toEqual([]);
      expect(loaded.filter((u) => /^dist\/plan\/html\//.test(u))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
