/**
 * The e2e and reliability projects' setup file checkout-guard.ts: a test that starts the CLI
 * in the checkout, or with an environment that would put the cache key in the real home,
 * fails at the call, before any process starts.
 */
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI } from '../e2e/cli-helpers.js';
import { insideCheckout, runsCli } from './checkout-guard.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the checkout guard', () => {
  it('knows the checkout and the folders inside it from their neighbours', () => {
    expect(insideCheckout(ROOT)).toBe(true);
    expect(insideCheckout(join(ROOT, 'examples'))).toBe(true);
    expect(insideCheckout(tmpdir())).toBe(false);
    expect(insideCheckout(`${ROOT}-other`)).toBe(false);
    expect(insideCheckout(join(ROOT, '..'))).toBe(false);
    expect(insideCheckout(join(ROOT, '..foo'))).toBe(true); // a folder of the checkout named "..foo"
  });

  it('knows a CLI run: the built entry or an installed bin, never another program', () => {
    expect(runsCli(process.execPath, [CLI, 'plan'])).toBe(true);
    expect(runsCli('/tmp/x/node_modules/.bin/switchboard', ['sim'])).toBe(true);
    expect(runsCli('git', ['status'])).toBe(false);
    expect(runsCli(process.execPath, ['-e', '0'])).toBe(false);
    // A checkout cloned into a folder named switchboard, given as an argument to another script.
    expect(runsCli(process.execPath, ['scripts/docs/generate.mjs', '--root', '/ci/switchboard'])).toBe(false);
    expect(runsCli('/ci/switchboard', [])).toBe(false);
  });

  // `version`, which writes nothing: were the guard ever broken, these would not run a plan in the checkout.
  it('refuses a CLI started in the checkout, whichever launcher, before a process starts', () => {
    expect(() => spawn(process.execPath, [CLI, 'version'])).toThrow(/working folder in the checkout/);
    expect(() => spawnSync(process.execPath, [CLI, 'version'], { cwd: join(ROOT, 'examples') })).toThrow(
      /working folder in the checkout/,
    );
    expect(() => execFileSync(process.execPath, [CLI, 'version'], { cwd: ROOT })).toThrow(/scratchDir\(\)/);
  });

  it('refuses a CLI given an environment without XDG_CACHE_HOME', () => {
    expect(() => spawn(process.execPath, [CLI, 'version'], { cwd: tmpdir(), env: { PATH: '' } })).toThrow(
      /no XDG_CACHE_HOME/,
    );
  });

  it('keeps promisify(execFile) resolving to stdout and stderr, and guards it too', async () => {
    const run = promisify(execFile);
    await expect(run(process.execPath, ['-e', 'console.log(1)'])).resolves.toEqual({ stdout: '1\n', stderr: '' });
    expect(() => run(process.execPath, [CLI, 'version'])).toThrow(/working folder in the checkout/);
  });

  it('lets every other process through', () => {
    expect(execFileSync(process.execPath, ['-e', 'process.stdout.write("ok")'], { encoding: 'utf8' })).toBe('ok');
  });
});
