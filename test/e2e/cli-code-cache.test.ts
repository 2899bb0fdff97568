/**
 * The CLI's CommonJS bundle and the code cache `npm run build` writes for it (src/cli/main.ts,
 * scripts/build/cli-code-cache.mjs): V8 takes the cache in a fresh process; a plain run uses
 * the bundle, and the ES modules run instead where stack traces may be printed, when asked
 * to, and whenever the cache was not made from that bundle text on this Node.js. A cache V8
 * refuses leaves the bundle compiled afresh: the CLI works either way.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireAlone } from './code-cache-alone.js';
import { cliModules } from './loaded-modules.js';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
const ESM_ENTRY = /\/dist\/cli\/bundle\/switchboard\.js$/;

describe("the CLI's code cache, as built", () => {
  it('is taken by V8 for the bundle in a fresh process, whose export is startCli', () => {
    const { accepted, exports } = requireAlone(path.join(root, 'dist/cli/cached/switchboard.cjs'));
    expect(accepted).toBe(true);
    expect(exports).toEqual({ startCli: 'function' });
  });

  it('runs a plain command from the bundle; the ES modules with debug logs, other V8 flags or SWITCHBOARD_NO_CODE_CACHE', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-cli-cache-'));
    try {
      const plain = await cliModules(dir, ['version']);
      expect(plain.stdout).toBe(`${pkg.version}\n`);
      expect(plain.urls.filter((u) => u.includes('/dist/cli/bundle/'))).toEqual([]);
      for (const [args, env] of [
        [['version'], { SWITCHBOARD_NO_CODE_CACHE: '1' }],
        [['version', '--log-level', 'debug'], {}],
        [['version'], { SWITCHBOARD_LOG_LEVEL: 'trace' }],
        // Another V8 flag (a CI job's heap size): V8 would refuse the cache after compiling the whole bundle.
        [['version'], { NODE_OPTIONS: '--max-old-space-size=4096' }],
      ] as const) {
        const run = await cliModules(dir, [...args], env);
        expect(run.stdout, JSON.stringify([args, env])).toBe(`${pkg.version}\n`);
        expect(
          run.urls.some((u) => ESM_ENTRY.test(u)),
          JSON.stringify([args, env]),
        ).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the CLI's code cache, in a copy of the package", () => {
  let copy: string;
  let bundle: string;
  let cache: string;
  let built: { bundle: Buffer; cache: Buffer };

  beforeAll(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'switchboard-cli-cache-pkg-'));
    cpSync(path.join(root, 'dist'), path.join(copy, 'dist'), { recursive: true });
    cpSync(path.join(root, 'package.json'), path.join(copy, 'package.json'));
    cpSync(path.join(root, 'schemas'), path.join(copy, 'schemas'), { recursive: true });
    symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
    bundle = path.join(copy, 'dist/cli/cached/switchboard.cjs');
    cache = path.join(copy, 'dist/cli/cached/switchboard.v8cache');
    built = { bundle: readFileSync(bundle), cache: readFileSync(cache) };
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  /** `switchboard version` of the copy: its output, and whether it ran the ES modules. */
  async function versionOfCopy(): Promise<{ stdout: string; esm: boolean }> {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-cli-cache-run-'));
    try {
      const run = await cliModules(dir, ['version'], {}, path.join(copy, 'dist/cli/main.js'));
      return { stdout: run.stdout, esm: run.urls.some((u) => ESM_ENTRY.test(u)) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
      writeFileSync(bundle, built.bundle);
      writeFileSync(cache, built.cache);
    }
  }

  it('runs the bundle when nothing changed', async () => {
    expect(await versionOfCopy()).toEqual({ stdout: `${pkg.version}\n`, esm: false });
  });

  it('runs the ES modules when the bundle is not the text the cache was made from, even of the same length', async () => {
    // V8 would take the cache for any text of this length: what it ran would not be this text.
    const text = built.bundle.toString('latin1');
    const from = 'VERSION=manifest.version;';
    expect(text).toContain(from);
    const edited = text.replace(from, `VERSION=${JSON.stringify('x'.repeat(from.length - 11))};`);
    expect(edited.length).toBe(text.length);
    writeFileSync(bundle, edited, 'latin1');
    expect(await versionOfCopy()).toEqual({ stdout: `${pkg.version}\n`, esm: true });
  });

  it('runs the ES modules when the cache was made by another Node.js', async () => {
    const header = built.cache.toString('latin1', 0, built.cache.indexOf(10) + 1);
    const other = Buffer.from(header.replace(`node:${process.version} `, 'node:v0.0.1 '), 'latin1');
    expect(other.toString('latin1')).not.toBe(header);
    writeFileSync(cache, Buffer.concat([other, built.cache.subarray(header.length)]));
    expect(await versionOfCopy()).toEqual({ stdout: `${pkg.version}\n`, esm: true });
  });

  it("is written by the build's exercise with none of the builder's SWITCHBOARD_ settings, and taken", async () => {
    // A webhook the builder's environment names: the exercise's plans must not notify it.
    const heard: string[] = [];
    const server = createServer((req, res) => {
      heard.push(`${req.method ?? ''} ${req.url ?? ''}`);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      rmSync(cache);
      const script = path.join(root, 'scripts/build/cli-code-cache.mjs');
      const built = await promisify(execFile)(process.execPath, [script, bundle], {
        env: {
          PATH: process.env['PATH'] ?? '',
          SWITCHBOARD_NOTIFY_URL: `http://127.0.0.1:${port}/hook`,
          SWITCHBOARD_URL: `http://127.0.0.1:${port}`,
          SWITCHBOARD_LOG_LEVEL: 'debug',
          SWITCHBOARD_NO_CACHE: '1',
        },
      });
      expect(built.stderr).toBe('');
      expect(heard).toEqual([]);
      expect(requireAlone(bundle).accepted).toBe(true);
      expect(await versionOfCopy()).toEqual({ stdout: `${pkg.version}\n`, esm: false });
    } finally {
      server.close();
    }
  });

  it('runs the bundle compiled afresh when V8 refuses the cache (its payload length word is past its end)', async () => {
    // V8's header words (code-serializer.h): magic, version, source, flags, then the payload's length.
    const lengthWord = built.cache.indexOf(10) + 1 + 16;
    const refused = Buffer.from(built.cache);
    refused.fill(0xff, lengthWord, lengthWord + 4); // longer than the payload: V8 refuses it
    writeFileSync(cache, refused);
    expect(requireAlone(bundle).accepted).toBe(false);
    expect(await versionOfCopy()).toEqual({ stdout: `${pkg.version}\n`, esm: false });
  });
});
