/**
 * docs/manifests.md "Secrets: `${VAR}`" for routing rows: a RoutingTable record whose cell
 * comes from `${VAR}` is planned as a platform object's sensitive field is. `plan --out`
 * then `apply --plan` against the simulator: the text, markdown and HTML plans, the plan
 * file, the apply's output, the journal and `audit` show `(sensitive)` and never the value
 * (a short one, which the text masker leaves alone, nor a long one as "[redacted]"); the
 * plan file records its digest; the engine receives the real values.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { RoutingClient } from '../../src/routing/index.js';
import { manifestDir, runCli, scratchDir } from './cli-helpers.js';

/** Under 8 characters: only the plan's own masking hides it (src/core/secrets.ts). */
const SHORT = 'rt-7x';
const LONG = 'rt-long-secret-2026';
const SECRETS = { ROUTE: SHORT, ROUTE_LONG: LONG };
const OLD = 'old-route-9';

const manifest = (second: string, extra = '') => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby }
spec:
  key: [number]
  records:
    - { number: "+3229990000", route: "\${ROUTE}" }
    - { number: "+3229990001", route: ${second} }
    - { number: "+3229990002", route: plain-3 }
${extra}`;

let sim: RunningSimulator;
let env: Record<string, string>;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  env = { SWITCHBOARD_RE_URL: sim.url, SWITCHBOARD_RE_USERNAME: 'routing', SWITCHBOARD_RE_PASSWORD: 'routing' };
});
afterAll(async () => {
  await sim.close();
});

const engine = () => new RoutingClient({ url: sim.url, auth: { username: 'routing', password: 'routing' } });
const ref = { service: 'draas', version: 'standby', table: 'routes' } as const;

async function journalText(cwd: string): Promise<string> {
  const files = await readdir(join(cwd, '.switchboard'), { recursive: true });
  const journals = files.filter((f) => f.endsWith('.jsonl'));
  expect(journals.length).toBeGreaterThan(0);
  return (await Promise.all(journals.map((f) => readFile(join(cwd, '.switchboard', f), 'utf8')))).join('\n');
}

describe('a routing record from ${VAR}', () => {
  it('is (sensitive) with a digest in every plan, output, journal and audit, and sent as it is', async () => {
    // +3229990001 exists live with another route: its update's before and after are both hidden.
    const seed = await manifestDir({ 'routes.yaml': manifest(OLD) });
    const seeded = await runCli(['apply', seed, '--yes'], { env: { ...env, ROUTE: 'seed-route-1' }, cwd: seed });
    expect(seeded.code).toBe(0);

    const dir = await manifestDir({
      'routes.yaml': manifest('"${ROUTE_LONG}"', '    - { number: "+3229990003", route: "${ROUTE}" }\n'),
    });
    const cwd = await scratchDir();
    const planFile = join(dir, 'plan.json');
    const withSecrets = { ...env, ...SECRETS };
    const md = await runCli(['plan', dir, '--out', planFile, '--format', 'markdown'], { env: withSecrets, cwd });
    expect(md.code).toBe(0);
    const text = await runCli(['show', planFile], { cwd });
    const html = await runCli(['show', planFile, '--format', 'html'], { cwd });
    expect(text.code).toBe(0);
    expect(html.code).toBe(0);
    expect(text.stdout).toContain('number=+3229990000 (RoutingRow, id 1)\n      route: (sensitive) → (sensitive)\n');
    expect(text.stdout).toContain(
      'number=+3229990003 (RoutingRow)\n      + number = "+3229990003"\n      + route = (sensitive)\n',
    );
    expect(md.stdout).toContain('(sensitive)');

    const file = await readFile(planFile, 'utf8');
    const plan = JSON.parse(file) as {
      changes: { address: string; action: string; after: Record<string, unknown>; sensitiveDigests?: object }[];
    };
    const byNumber = (n: string) => plan.changes.find((c) => c.address.endsWith(`number=${n}`));
    expect(byNumber('+3229990000')).toMatchObject({ action: 'update', after: { route: '(sensitive)' } });
    expect(byNumber('+3229990001')).toMatchObject({
      action: 'update',
      before: { route: '(sensitive)' },
      after: { route: '(sensitive)' },
    });
    for (const n of ['+3229990000', '+3229990001', '+3229990003'])
      expect(Object.keys(byNumber(n)?.sensitiveDigests ?? {})).toEqual(['route']);
    expect(byNumber('+3229990002')).toBeUndefined(); // as live: no change
    expect(byNumber('+3229990003')).toMatchObject({
      action: 'create',
      after: { number: '+3229990003', route: '(sensitive)' },
    });
    for (const output of [file, text.stdout, md.stdout, html.stdout]) {
      for (const value of [SHORT, LONG, OLD, '[redacted]']) expect(output).not.toContain(value);
    }

    const applied = await runCli(['apply', dir, '--plan', planFile, '--yes'], { env: withSecrets, cwd });
    expect(applied.stderr).not.toMatch(/SB_PLAN/);
    expect(applied.code).toBe(0);
    const { rows } = await engine().readAll(ref);
    const routes = Object.fromEntries(rows.map((row) => [row['number'], row['route']]));
    expect(routes).toEqual({
      '+3229990000': SHORT,
      '+3229990001': LONG,
      '+3229990002': 'plain-3',
      '+3229990003': SHORT,
    });

    const journal = await journalText(cwd);
    expect(journal).toContain('{"field":"route","before":"(sensitive)","after":"(sensitive)"}');
    const audit = await runCli(['audit', join(cwd, '.switchboard')], { cwd });
    expect(audit.code).toBe(0);
    expect(audit.stdout).toContain('route: (sensitive) → (sensitive)');
    for (const output of [applied.stdout, applied.stderr, journal, audit.stdout]) {
      for (const value of [SHORT, LONG, OLD, '[redacted]']) expect(output).not.toContain(value);
    }
  });

  it('is (sensitive) in what validate, plan and verify say of the RoutingTest vectors it answers', async () => {
    const tests = (expected: string) => `---
apiVersion: switchboard/v1
kind: RoutingTest
metadata: { name: secret-routes }
spec:
  table: draas/standby/routes
  vectors:
    - { lookup: { number: "+3229990000" }, expect: { route: ${expected} } }
`;
    // validate: the declared row answers with the value of $ROUTE, the vector expects another. The
    // expected value of a column from ${VAR} is hidden too (it may come from ${VAR} itself): the
    // message points at the vector, where it is written.
    const wrong = await manifestDir({ 'routes.yaml': manifest('plain-2', tests('wrong-1')) });
    const validated = await runCli(['validate', wrong], { env: { ...env, ...SECRETS }, cwd: wrong });
    expect(validated.code).toBe(1);
    expect(validated.stderr + validated.stdout).toContain(
      'routes.yaml:17:7: error SB_ROUTING_TEST: vector +3229990000 of secret-routes: ' +
        'expects route (sensitive); the row number=+3229990000 answered route (sensitive) ' +
        '(declared at routes.yaml:7:7)',
    );

    // plan: the live row answers with another secret before the apply, the declared one after.
    const seed = await manifestDir({ 'routes.yaml': manifest('plain-2') });
    const seeded = await runCli(['apply', seed, '--yes'], { env: { ...env, ROUTE: 'seed-sec-1' }, cwd: seed });
    expect(seeded.code).toBe(0);
    const dir = await manifestDir({ 'routes.yaml': manifest('plain-2', tests('"${ROUTE}"')) });
    const cwd = await scratchDir();
    const planned = await runCli(['plan', dir], { env: { ...env, ...SECRETS }, cwd });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('+3229990000 (secret-routes): (sensitive) → (sensitive)');

    const applied = await runCli(['apply', dir, '--yes', '--verify'], { env: { ...env, ...SECRETS }, cwd });
    expect(applied.code).toBe(0);
    // verify: the vector now expects what another $ROUTE says; the engine answers with the applied one.
    const verified = await runCli(['verify', dir], { env: { ...env, ROUTE: 'other-9' }, cwd });
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain(
      'expects route (sensitive); the row number=+3229990000 answered route (sensitive)',
    );
    const journal = await journalText(cwd);
    for (const output of [validated.stdout, validated.stderr, planned.stdout, applied.stdout, verified.stdout, journal])
      for (const value of [SHORT, 'seed-sec-1', 'other-9']) expect(output).not.toContain(value);
  });
});
