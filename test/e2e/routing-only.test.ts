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
