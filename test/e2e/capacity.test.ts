import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, startSimulator, type RunningSimulator, type Seed } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from './cli-helpers.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

async function reset(edit: (seed: Seed) => void = () => undefined): Promise<void> {
  const seed = defaultSeed();
  edit(seed);
  const response = await fetch(`${sim.url}/_sim/reset`, { method: 'POST', body: JSON.stringify(seed) });
  expect(response.status).toBe(200);
}

async function plan(files: Record<string, string>, ...args: string[]) {
  const dir = await manifestDir(files);
  return runCli(['plan', dir, ...args], { env: simEnv(sim.url), cwd: dir });
}

async function requestsTo(pattern: RegExp): Promise<number> {
  const stats = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as { byRoute?: Record<string, number> };
  return Object.entries(stats.byRoute ?? {})
    .filter(([route]) => pattern.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

const tenant = (name: string, owner: string, spec: string) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: ${name}, ${owner} }
spec:
${spec}`;

// The update threshold, the UC platforms and the Capacity section are case folders (test/cases/:
// update-threshold*, reroute-*, uc-*, capacity-*); what the plan reads is counted here.
describe('the capacity pre-flight (end to end)', () => {
  it('reads only what the plan touches: nothing for a plan with no change below a subscription', async () => {
    await reset();
    await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
    const untouched = await plan({
      'acme.yaml': tenant(
        'acme-corp',
        'reseller: north',
        '  markup: 5\n  subscriptions:\n    - { name: main, billingId: T-ACME-MAIN }\n',
      ),
    });
    expect(untouched.code).toBe(0);
    expect(untouched.stdout).not.toContain('Capacity');
    expect(await requestsTo(/enabled_ucs|licenses|entitlements/)).toBe(0);
  });
});
