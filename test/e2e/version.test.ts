import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';
import { cliModules, sourcesOf } from './loaded-modules.js';

const pkg = JSON.parse(await readFile(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
};

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
  // Seen in the ES modules' chunks (the CommonJS bundle is one file: test/e2e/cli-code-cache.test.ts).
  it('loads neither the run layer, the manifest loader, the kind table, the renderers nor pino', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-modules-'));
    try {
      const { urls } = await cliModules(dir, ['version'], { SWITCHBOARD_NO_CODE_CACHE: '1' });
      const loaded = urls.map((u) => u.replace(/^.*\/(dist|node_modules)\//, '$1/'));
      // The CLI is a bundle (scripts/build/bundle.mjs): what it loaded is the sources of the chunks it read.
      const sources = await sourcesOf(urls.filter((u) => u.includes('/dist/cli/bundle/')));
      expect(sources.filter((f) => /^src\/(run|manifest|kinds|plan|state|apply|providers|compare)\//.test(f))).toEqual([
        'src/apply/audit-formats.ts',
      ]);
      expect(loaded.filter((u) => /^node_modules\/(pino|undici|ajv|yaml|js-yaml)\//.test(u))).toEqual([]);
      // Nothing of dist/ outside the bundle (the modules it keeps apart, the HTML reports' scripts, included)
      // but what main.js reads the code cache with.
      const outside = loaded.filter((u) => u.startsWith('dist/') && !/^dist\/cli\/(main\.js|bundle\/)/.test(u));
      expect(outside).toEqual(['dist/core/code-cache.js']);
      expect(sources.length).toBeGreaterThan(10);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
