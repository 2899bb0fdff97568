import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConnection } from '../../src/config/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { manifestDir, runCli } from './cli-helpers.js';

const table = (records: string, metadata = '') => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby${metadata} }
spec:
  key: [number]
  fields: { priority: integer }
  records:
${records}`;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

describe('a manifest set of only RoutingTable documents', () => {
  it('needs only the routing engine: no platform url or credentials, no platform request', async () => {
    const env = { SWITCHBOARD_RE_URL: sim.url, SWITCHBOARD_RE_USERNAME: 'routing', SWITCHBOARD_RE_PASSWORD: 'routing' };
    const dir = await manifestDir({
      'routes.yaml': table(
        '    - { number: "+3229990001", route: trunk-7, priority: 10 }\n    - { number: "+3229990002", route: trunk-8 }\n',
      ),
    });
    const before = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as Record<string, unknown>;
    const applied = await runCli(['apply', dir, '--yes'], { env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('+ routing/draas/standby/routes/number=+3229990001');
    const again = await runCli(['plan', dir, '--detailed-exitcode'], { env });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
    const after = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as {
      byRoute?: Record<string, unknown>;
      routes?: Record<string, unknown>;
    };
    expect(JSON.stringify(after)).not.toContain('/auth/login');
    expect(JSON.stringify(before)).not.toContain('/auth/login');
  });

  it('a platform document still needs the platform connection, with a message saying so', async () => {
    await expect(loadConnection({ env: { SWITCHBOARD_RE_URL: sim.url }, platform: true, cwd: '/' })).rejects.toThrow(
      /SWITCHBOARD_URL is not set/,
    );
    const routingOnly = await loadConnection({
      env: { SWITCHBOARD_RE_URL: sim.url, SWITCHBOARD_RE_TOKEN: 'routing-token' },
      platform: false,
      cwd: '/',
    });
    expect(routingOnly.routingEngine).toMatchObject({ url: sim.url, auth: { token: 'routing-token' } });
  });
});

describe('apply --plan of routing tables', () => {
  const engine = (url: string) => ({
    SWITCHBOARD_RE_URL: url,
    SWITCHBOARD_RE_USERNAME: 'routing',
    SWITCHBOARD_RE_PASSWORD: 'routing',
  });
  const state = async (url: string) => JSON.stringify(await (await fetch(`${url}/_sim/state`)).json());

  it('is refused (exit 3, nothing written) against another routing engine, and journals the engine it changed', async () => {
    const other = await startSimulator({ port: 0 });
    try {
      const dir = await manifestDir({ 'routes.yaml': table('    - { number: "+3229990101", route: trunk-1 }\n') });
      const planned = await runCli(['plan', dir, '--out', join(dir, 'plan.json')], { env: engine(sim.url) });
      expect(planned.code, planned.stderr).toBe(0);
      const untouched = await state(other.url);
      const elsewhere = await runCli(['apply', '--plan', join(dir, 'plan.json'), dir, '--yes'], {
        env: engine(other.url),
      });
      expect(elsewhere.code, elsewhere.stdout + elsewhere.stderr).toBe(3);
      expect(elsewhere.stderr).toContain(`was made against the routing engine ${sim.url}`);
      expect(await state(other.url)).toBe(untouched);
      // The engine it was made against takes it, and the journal says which engine changed.
      const journal = join(dir, 'journal.jsonl');
      const applied = await runCli(['apply', '--plan', join(dir, 'plan.json'), dir, '--yes', '--journal', journal], {
        env: engine(sim.url),
      });
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      const start = JSON.parse((await readFile(journal, 'utf8')).split('\n')[0] ?? '') as Record<string, unknown>;
      expect(start['target']).toMatchObject({ routingEngine: sim.url });
    } finally {
      await other.close();
    }
  });
});
