/**
 * package.json's `engines.node` is a promise to the teams that pin switchboard: it must
 * hold. Every runtime dependency installed with it must run on the oldest Node.js it
 * names, CI must run the suite on exactly that version, and `init` must pass it on.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageJson } from '../../src/init/templates.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string };
}

describe('engines.node holds', async () => {
  const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const range = pkg.engines.node;
  const oldest = semver.minVersion(range)?.version ?? '';

  it('is a range with a minimum, which the Node.js running the tests satisfies', () => {
    expect(range).toBe('>=20.19');
    expect(oldest).toBe('20.19.0');
    expect(semver.satisfies(process.version, range), process.version).toBe(true);
  });

  it('every runtime dependency of the lockfile runs on the oldest version it names', async () => {
    const lock = JSON.parse(await readFile(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockEntry>;
    };
    const runtime = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && entry.dev !== true);
    expect(runtime.length).toBeGreaterThan(10);
    const broken = runtime
      .filter(([, entry]) => entry.engines?.node !== undefined && !semver.satisfies(oldest, entry.engines.node))
      .map(([path, entry]) => `${path}@${entry.version}: engines.node ${entry.engines?.node}`);
    expect(broken).toEqual([]);
  });

  it('CI runs the suite on that oldest version, and init pins the same range in a new repository', async () => {
    const ci = parse(await readFile(join(REPO_ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
      jobs: { test: { strategy: { matrix: { node: (string | number)[] } } } };
    };
    expect(ci.jobs.test.strategy.matrix.node.map(String)).toContain(oldest);
    expect((JSON.parse(packageJson('x')) as { engines: { node: string } }).engines.node).toBe(range);
  });
});
