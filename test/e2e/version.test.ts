import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

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
});
