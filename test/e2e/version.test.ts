import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv, runCli } from './cli-helpers.js';

/**
 * Preloaded with `node --import`: reports on stderr, at exit, every module the process
 * resolved (a resolve hook, which runs off the main thread, sends them over a port).
 */
const RECORD_MODULES = `
import { register } from 'node:module';
const { port1, port2 } = new MessageChannel();
const urls = new Set();
port1.on('message', (url) => urls.add(url));
port1.unref();
const hook = 'let port; export function initialize(data) { port = data.port; }' +
  'export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }';
register('data:text/javascript,' + encodeURIComponent(hook), { data: { port: port2 }, transferList: [port2] });
process.on('exit', () => process.stderr.write(JSON.stringify([...urls])));
`;

const pkg = JSON.parse(await readFile(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
};

/** The source files (`src/…`) bundled into these chunks, from their source maps. */
async function sourcesOf(chunks: string[]): Promise<string[]> {
  const all = new Set<string>();
  for (const chunk of chunks) {
    const map = JSON.parse(await readFile(`${fileURLToPath(chunk)}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) all.add(source.replace(/^(\.\.\/)+/, ''));
  }
  return [...all].sort();
}

describe('switchboard version / --version', () => {
  it('prints the package version; --format json adds the Node.js running it and the supported range', async () => {
    for (const args of [['version'], ['--version'], ['-V']]) {
      const text = await runCli(args);
      expect(text, args.join(' ')).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
    for (const args of [
      ['version', '--format', 'json'],
      ['--version', '--format', 'json'],
      ['--version', '--format=json'],
      // --version after the global options is the same request.
      ['--log-level', 'debug', '--version', '--format', 'json'],
      ['--log-level=error', '-V', '--format', 'json'],
    ]) {
      const json = await runCli(args);
      expect(json.code, args.join(' ')).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({
        name: 'switchboard',
        version: pkg.version,
        node: process.version,
        engines: { node: pkg.engines.node },
      });
    }
  });

  it('refuses an unknown format (exit 1)', async () => {
    const bad = await runCli(['version', '--format', 'yaml']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('Error: --format must be text or json, not yaml\n');
  });

  // What a command loads is its start: every command registers its options at each start, so
  // registering them must not load what the commands do (the run layer, the loader, pino).
  it('loads neither the run layer, the manifest loader, the kind table, the renderers nor pino', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-modules-'));
    try {
      const hook = join(dir, 'record-modules.mjs');
      await writeFile(hook, RECORD_MODULES);
      const { stderr } = await promisify(execFile)(process.execPath, ['--import', hook, CLI, 'version'], {
        cwd: dir,
        env: cliEnv(),
      });
      const urls = JSON.parse(stderr) as string[];
      const loaded = urls.map((u) => u.replace(/^.*\/(dist|node_modules)\//, '$1/'));
      // The CLI is a bundle (scripts/build/bundle.mjs): what it loaded is the sources of the chunks it read.
      const sources = await sourcesOf(urls.filter((u) => u.includes('/dist/cli/bundle/')));
      expect(sources.filter((f) => /^src\/(run|manifest|kinds|plan|state|apply|providers|compare)\//.test(f))).toEqual([
        'src/apply/audit-formats.ts',
      ]);
      expect(loaded.filter((u) => /^node_modules\/(pino|undici|ajv|yaml|js-yaml)\//.test(u))).toEqual([]);
      // Nothing of dist/ outside the bundle (the modules it keeps apart, the HTML reports' scripts, included).
      expect(loaded.filter((u) => u.startsWith('dist/') && !/^dist\/cli\/(main\.js|bundle\/)/.test(u))).toEqual([]);
      expect(sources.length).toBeGreaterThan(10);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
