/**
 * The live searches of `switchboard verify` (docs/assurance.md "Routing tests") where an empty answer
 * could pass a vector it should not: a table that cannot be shown to exist (a typo in `table:`,
 * whose 404 is the same as a missing row's), and a longest-prefix search of a table whose key
 * is more than the prefix (several rows per prefix: the longest must not hide on page 2, and
 * two rows of the longest prefix are no answer).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { defaultRoutingSeed } from '../../src/sim/routing/index.js';
import { manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';

/** A prefix table keyed by (tenant, prefix) that no manifest declares, in the active version. */
function seed() {
  const routing = defaultRoutingSeed();
  const active = routing.services['draas']?.active ?? {};
  const shortRows = Array.from({ length: 12 }, (_, i) => ({ tenant: `t${i}`, prefix: '+32', carrier: 'national' }));
  active['tenant_prefixes'] = {
    fields: { tenant: { type: 'string' }, prefix: { type: 'string' }, carrier: { type: 'string' } },
    unique: [['tenant', 'prefix']],
    rows: [
      // Twelve rows of +32 first: by id, the longer prefix below comes after a page of twelve.
      ...shortRows,
      { tenant: 'acme', prefix: '+3221', carrier: 'long' },
      { tenant: 'acme', prefix: '+3222', carrier: 'a' },
      { tenant: 'beta', prefix: '+3222', carrier: 'b' },
    ],
  };
  return { ...defaultSeed(), routing };
}

const test = (name: string, table: string, vectors: string, match = '') => `apiVersion: switchboard/v1
kind: RoutingTest
metadata: { name: ${name} }
spec:
  table: ${table}
${match ? `  match: ${match}\n` : ''}  vectors:
${vectors}`;

describe('switchboard verify against the live engine', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: seed() });
  });
  afterAll(async () => {
    await sim.close();
  });

  const verify = async (files: Record<string, string>) => {
    const dir = await manifestDir(files);
    return runCli(['verify', dir, '--state-dir', join(dir, '.switchboard')], { env: simEnv(sim.url), cwd: dir });
  };

  it('an absent vector does not pass against a table that cannot be shown to exist', async () => {
    const absent = '    - { lookup: { number: "+3290012345" }, expect: absent }\n';
    const out = await verify({
      'tests.yaml': [
        test('typo', 'draas/active/routez', absent),
        test('no-service', 'nosuch/active/routes', absent),
        test('exists', 'draas/active/routes', absent),
      ].join('---\n'),
    });
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('Verification failed: 2 of 3 vectors of 3 RoutingTests did not pass');
    expect(out.stdout).toContain(
      '✗ +3290012345 (typo, tests.yaml:7:7): search failed: GET /draas/active/routez (a list of its rows) answered 404: ' +
        'routing/draas/active/routez does not exist or holds no row, and no vector passes against a table not shown to exist',
    );
    expect(out.stdout).toContain(
      '✗ +3290012345 (no-service, tests.yaml:15:7): search failed: GET /nosuch/active/routes',
    );
    expect(out.stdout).not.toContain('(exists,');
  });

  it('one list per tested table, then one search per vector', async () => {
    const vectors = [
      '    - { lookup: { number: "+3221234560" }, expect: { route: trunk-7 } }',
      '    - { lookup: { number: "+3290012345" }, expect: absent }',
      '',
    ].join('\n');
    const out = await verify({
      'tests.yaml': [test('one', 'draas/active/routes', vectors), test('two', 'draas/active/routes', vectors)].join(
        '---\n',
      ),
    });
    expect(out.stdout).toContain('Verification passed: 4 vectors of 2 RoutingTests');
    expect(out.stdout).toContain('(5 requests)');
    expect(out.code).toBe(0);
  });

  it('longest prefix over several rows per prefix: the longest answers from past the first page; a tie is no answer', async () => {
    const out = await verify({
      'tests.yaml': test(
        'tenant-prefixes',
        'draas/active/tenant_prefixes',
        [
          '    - { lookup: { number: "+3221234567" }, expect: { carrier: long } }',
          '    - { lookup: { number: "+3222000000" }, expect: { carrier: a } }',
          '',
        ].join('\n'),
        'longest-prefix(prefix)',
      ),
    });
    expect(out.stdout).toContain('Verification failed: 1 of 2 vectors of 1 RoutingTest did not pass');
    expect(out.stdout).not.toContain('+3221234567 (tenant-prefixes');
    expect(out.stdout).toContain(
      '✗ +3222000000 (tenant-prefixes, tests.yaml:9:7): search failed: several rows answer with prefix=+3222: ' +
        'the lookup is no key of the table (name its other key fields)',
    );
    expect(out.code).toBe(1);
  });
});
