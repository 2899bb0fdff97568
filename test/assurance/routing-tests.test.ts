/**
 * RoutingTest vectors: offline against the declared rows (exact key and longest prefix;
 * rows and vectors in YAML and CSV; a failing vector at its file:line naming the row that
 * answered), the vectors whose answer a plan changes, and the live verification: apply
 * --verify on the simulator, and against a table changed out of band (exit 1, journalled,
 * shown by audit).
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { renderHtml } from '../../src/plan/render-html.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import type { Json } from '../../src/plan/plan-problems.js';
import { unknownMembers } from '../../src/plan/plan-members.js';
import { planProblems } from '../../src/plan/plan-validate.js';
import type { Plan } from '../../src/plan/types.js';
import { defaultSeed, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';

const ROUTES = `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby, prune: true }
spec:
  key: [number]
  fields: { number: string, route: string, priority: integer }
  records:
    - { number: "+3221234560", route: trunk-7, priority: 10 }
    - { number: "+3221234561", route: trunk-8, priority: 20 }
  recordsFrom: routes.csv
---
apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: carriers, service: draas, version: standby }
spec:
  key: [prefix]
  fields: { weight: integer }
  records:
    - { prefix: "+32", carrier: national, weight: 1 }
    - { prefix: "+3221", carrier: trunk-7, weight: 10 }
    - { prefix: "+3222", carrier: trunk-8, weight: 10 }
`;
const ROUTES_CSV = 'number,route,priority\n+3223000000,carrier-a,30\n+3223000001,carrier-b,\n';

const TESTS = `apiVersion: switchboard/v1
kind: RoutingTest
metadata: { name: routes-behaviour }
spec:
  table: draas/standby/routes
  vectors:
    - { lookup: { number: "+3221234560" }, expect: { route: trunk-7, priority: 10 } }
    - { lookup: { number: "+3223000001" }, expect: { route: carrier-b } }
    - { lookup: { number: "+3290012345" }, expect: absent }
  vectorsFrom: route-vectors.csv
---
apiVersion: switchboard/v1
kind: RoutingTest
metadata: { name: carriers-behaviour }
spec:
  table: draas/standby/carriers
  match: longest-prefix(prefix)
  vectors:
    - { lookup: { number: "+3221234567" }, expect: { carrier: trunk-7 } }
    - { lookup: { number: "+3299000000" }, expect: { carrier: national } }
    - { lookup: { number: "+4420000000" }, expect: absent }
`;
const VECTORS_CSV = 'number,expect.route,expect\n+3221234561,trunk-8,\n+3223000000,carrier-a,\n+3299999999,,absent\n';

const files = (over: Record<string, string> = {}) => ({
  'routes.yaml': ROUTES,
  'routes.csv': ROUTES_CSV,
  'tests.yaml': TESTS,
  'route-vectors.csv': VECTORS_CSV,
  ...over,
});

async function load(over: Record<string, string> = {}) {
  const dir = await manifestDir(files(over));
  return loadManifests([dir], { cwd: dir, env: {} });
}

describe('vectors against the declared rows (validate, plan)', () => {
  it('pass: exact keys and longest prefixes, rows and vectors from YAML and CSV', async () => {
    const loaded = await load();
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.routingTests.map((t) => [t.name, t.vectors.length])).toEqual([
      ['routes-behaviour', 6],
      ['carriers-behaviour', 3],
    ]);
    expect(loaded.routingTests[0]?.vectors[3]).toEqual({
      lookup: { number: '+3221234561' },
      expect: { route: 'trunk-8' },
      source: 'route-vectors.csv:2:1',
    });
  });

  it('a failing YAML vector is an error at its line, naming the row that answered and where it is declared', async () => {
    const loaded = await load({
      'tests.yaml': TESTS.replace('expect: { carrier: trunk-7 }', 'expect: { carrier: trunk-9 }'),
    });
    expect(loaded.ok).toBe(false);
    expect(loaded.diagnostics).toEqual([
      expect.objectContaining({
        code: 'SB_ROUTING_TEST',
        source: expect.objectContaining({ file: 'tests.yaml', line: 19, column: 7 }),
        message:
          'vector +3221234567 of carriers-behaviour: expects carrier trunk-9; the row prefix=+3221 answered carrier trunk-7 (declared at routes.yaml:20:7)',
      }),
    ]);
  });

  it('a vector expecting a field no declared row has is an error, not a pass', async () => {
    const loaded = await load({
      'tests.yaml': TESTS.replace('expect: { route: carrier-b }', 'expect: { rotue: carrier-b }'),
    });
    expect(loaded.ok).toBe(false);
    expect(loaded.diagnostics.map((d) => d.message)).toEqual([
      expect.stringMatching(
        /^vector \+3223000001 of routes-behaviour: expects "rotue" \(did you mean "route"\?\), which no declared row of routing\/draas\/standby\/routes has/,
      ),
    ]);
  });

  it('a failing CSV vector is an error at its line; a CSV row answers with its own line', async () => {
    const loaded = await load({
      'route-vectors.csv': VECTORS_CSV.replace('+3223000000,carrier-a', '+3223000000,carrier-z'),
    });
    expect(loaded.diagnostics.map((d) => `${d.source?.file}:${d.source?.line} ${d.message}`)).toEqual([
      'route-vectors.csv:3 vector +3223000000 of routes-behaviour: expects route carrier-z; the row number=+3223000000 answered route carrier-a (declared at routes.csv:2:1)',
    ]);
  });

  it('expects absent: a row that answers fails it; a longer prefix answers before a shorter one', async () => {
    const loaded = await load({
      'tests.yaml': TESTS.replace(
        '{ lookup: { number: "+4420000000" }, expect: absent }',
        '{ lookup: { number: "+3222000" }, expect: absent }',
      ),
    });
    expect(loaded.diagnostics.map((d) => d.message)).toEqual([
      'vector +3222000 of carriers-behaviour: expects no row; the row prefix=+3222 answered (declared at routes.yaml:21:7)',
    ]);
  });

  it('says what does not fit the table: a lookup that is not its key, a prefix column outside it, a table no manifest declares', async () => {
    const loaded = await load({
      'tests.yaml': `${TESTS}---
apiVersion: switchboard/v1
kind: RoutingTest
metadata: { name: wrong-lookup }
spec:
  table: draas/standby/routes
  vectors: [ { lookup: { route: trunk-7 }, expect: absent } ]
---
apiVersion: switchboard/v1
kind: RoutingTest
metadata: { name: wrong-column }
spec:
  table: draas/standby/routes
  match: longest-prefix(route)
  vectors: [ { lookup: { number: "+32" }, expect: absent } ]
---
apiVersion: switchboard/v1
kind: RoutingTest
metadata: { name: elsewhere }
spec:
  table: draas/active/routes
  vectors: [ { lookup: { number: "+32" }, expect: absent } ]
`,
    });
    expect(loaded.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`)).toEqual([
      "error SB_ROUTING_TEST: vector trunk-7 of wrong-lookup: the lookup names route; match: exact looks a row up by the table's whole key (number)",
      'error SB_ROUTING_TEST: match: longest-prefix(route) needs route among the key fields of routing/draas/standby/routes (number): a prefix table is keyed by its prefix',
      'warning SB_ROUTING_TEST: no manifest declares the routing table routing/draas/active/routes: the 1 vectors of elsewhere are checked against the live engine only (switchboard verify, apply --verify)',
    ]);
  });

  it("validate exits 1 with the vector's file:line:col", async () => {
    const dir = await manifestDir(
      files({ 'tests.yaml': TESTS.replace('route: trunk-7, priority: 10', 'route: trunk-7, priority: 11') }),
    );
    const out = await runCli(['validate', dir], { cwd: dir });
    expect(out.code).toBe(1);
    expect(out.stdout).toContain(
      'tests.yaml:7:7: error SB_ROUTING_TEST: vector +3221234560 of routes-behaviour: expects route trunk-7, priority 11; the row number=+3221234560 answered priority 10 (declared at routes.yaml:8:7)',
    );
    expect(out.stdout).toContain('9 routing test vectors');
  });
});

describe('vectors against the live engine', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: defaultSeed() });
  });
  afterAll(async () => {
    await sim.close();
  });

  const cli = (dir: string, ...args: string[]) =>
    runCli([...args, '--state-dir', join(dir, '.switchboard')], { env: simEnv(sim.url), cwd: dir });

  it('a plan lists the vectors whose answer it changes; apply --verify passes and journals it', async () => {
    const dir = await manifestDir(files());
    const applied = await cli(dir, 'apply', dir, '--yes', '--verify');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(
      'Verification passed: 9 vectors of 2 RoutingTests, searched in the live routing engine (11 requests).',
    );

    const rerouted = await manifestDir(
      files({
        'routes.yaml': ROUTES.replace('route: trunk-7, priority: 10', 'route: trunk-9, priority: 10').replace(
          '{ prefix: "+3221", carrier: trunk-7, weight: 10 }',
          '{ prefix: "+3221", carrier: trunk-7, weight: 10 }\n    - { prefix: "+32212", carrier: trunk-9, weight: 10 }',
        ),
        'tests.yaml': TESTS.replace('expect: { route: trunk-7, priority: 10 }', 'expect: { route: trunk-9 }').replace(
          'expect: { carrier: trunk-7 }',
          'expect: { carrier: trunk-9 }',
        ),
      }),
    );
    const planned = await cli(rerouted, 'plan', rerouted, '--out', join(rerouted, 'plan.json'));
    expect(planned.stdout).toContain(
      'Routing tests: 9 vectors pass against the declared rows; this plan changes the answer of 2:',
    );
    expect(planned.stdout).toContain('~ +3221234560 (routes-behaviour): trunk-7 → trunk-9');
    expect(planned.stdout).toContain(
      '~ +3221234567 (carriers-behaviour): trunk-7 via prefix=+3221 → trunk-9 via prefix=+32212',
    );
    // The other formats render the plan file the same run wrote (one CLI process, not four).
    const json = JSON.parse(await readFile(join(rerouted, 'plan.json'), 'utf8')) as Plan;
    const markdown = renderMarkdown(json);
    expect(markdown).toContain('#### Routing tests');
    expect(markdown).toMatch(/<code>\+3221234560<\/code> \(routes-behaviour\): trunk-7 → trunk-9/);
    expect(json.routingTests).toMatchObject({ vectors: 9, changedCount: 2 });
    expect(json.routingTests?.changed[0]).toEqual({
      test: 'routes-behaviour',
      table: 'routing/draas/standby/routes',
      vector: '+3221234560',
      before: 'trunk-7',
      after: 'trunk-9',
      source: 'tests.yaml:7:7',
    });
    expect(renderHtml(json)).toContain(
      '<code>+3221234560</code> (routes-behaviour): trunk-7 → <strong>trunk-9</strong>',
    );
  });

  it('against a table changed out of band: apply --verify exits 1, the failure is journalled and audit shows it', async () => {
    const dir = await manifestDir(files());
    expect((await cli(dir, 'apply', dir, '--yes')).code).toBe(0);
    // A longer prefix nobody declared: carriers does not prune, so the apply leaves it.
    const rogue = await fetch(`${sim.url}/draas/standby/carriers`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('routing:routing').toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ prefix: '+322123', carrier: 'rogue', weight: 1 }),
    });
    expect(rogue.status).toBe(201);
    // The plan works out the answer after the apply: it says the vector will fail, never that all pass.
    const planned = await cli(dir, 'plan', dir, '--out', join(dir, 'plan.json'));
    expect(planned.stdout).toContain(
      'Routing tests: 1 of 9 vectors will fail once this plan is applied (live rows it keeps answer otherwise); this plan changes none of their answers:',
    );
    expect(planned.stdout).toContain(
      '✗ +3221234567 (carriers-behaviour): expects carrier trunk-7; the row prefix=+322123 answered carrier rogue',
    );
    expect(planned.stdout).toMatch(/SB_ROUTING_TEST_WILL_FAIL.*1 of 3 vectors of carriers-behaviour will fail/);
    const plan = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')) as Plan;
    expect(plan.routingTests).toMatchObject({
      failingCount: 1,
      failing: [{ vector: '+3221234567', source: 'tests.yaml:19:7' }],
    });
    // The file's new members are known to its reader, and checked: failing and failingCount go together.
    expect([...unknownMembers(plan as unknown as Json), ...planProblems(plan as unknown as Json)]).toEqual([]);
    const { failingCount: _dropped, ...halfTests } = plan.routingTests ?? {};
    expect(planProblems({ ...plan, routingTests: halfTests } as unknown as Json)).toContain(
      'routingTests.failingCount is missing',
    );
    expect(plan.warnings).toContainEqual(
      expect.objectContaining({ code: 'SB_ROUTING_TEST_WILL_FAIL', address: 'routing-test/carriers-behaviour' }),
    );
    expect(renderMarkdown(plan)).toContain('⚠️ 1 of 9 vectors will fail once this plan is applied');
    expect(renderHtml(plan)).toContain(
      '<code>+3221234567</code> (carriers-behaviour): <strong>expects carrier trunk-7;',
    );
    const out = await cli(dir, 'apply', dir, '--yes', '--verify', '--journal', join(dir, 'journal.jsonl'));
    expect(out.code).toBe(1);
    expect(out.stdout).toContain(
      'Verification failed: 1 of 9 vectors of 2 RoutingTests did not pass against the live routing engine:',
    );
    expect(out.stdout).toContain(
      '✗ +3221234567 (carriers-behaviour, tests.yaml:19:7): expects carrier trunk-7; the row prefix=+322123 answered carrier rogue',
    );
    const journal = (await readFile(join(dir, 'journal.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(journal.filter((l) => l.type === 'verify')).toEqual([
      expect.objectContaining({ address: 'routing-test/routes-behaviour', outcome: 'passed' }),
      expect.objectContaining({
        address: 'routing-test/carriers-behaviour',
        outcome: 'failed',
        message: '2 of 3 vectors passed against routing/draas/standby/carriers',
      }),
      expect.objectContaining({
        address: 'routing-test/carriers-behaviour/+3221234567',
        outcome: 'failed',
        source: 'tests.yaml:19:7',
      }),
    ]);
    expect(journal.at(-1)).toMatchObject({ type: 'run', event: 'end', summary: { verified: 8, verifyFailed: 1 } });
    const audit = await runCli(['audit', join(dir, 'journal.jsonl'), '--format', 'json'], { cwd: dir });
    const rows = JSON.parse(audit.stdout) as { address: string; action: string; outcome: string; message: string }[];
    expect(rows).toContainEqual(
      expect.objectContaining({
        address: 'routing-test/carriers-behaviour/+3221234567',
        action: 'verify',
        outcome: 'failed',
        message: 'expects carrier trunk-7; the row prefix=+322123 answered carrier rogue',
      }),
    );

    // switchboard verify says the same on its own, in a journal of its own.
    const verify = await cli(dir, 'verify', dir);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('✗ +3221234567 (carriers-behaviour');
    expect((await readdir(join(dir, '.switchboard'))).some((f) => f.startsWith('journal-'))).toBe(true);
  });
});
