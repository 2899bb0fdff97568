/**
 * Change windows end to end, the clock fixed with SWITCHBOARD_NOW: apply refuses a change
 * outside its window (exit 3, the window named with when it next opens, nothing sent),
 * applies inside it (a window spanning midnight, read across a DST change), `apply --plan`
 * checks at its own clock, `--emergency-change` applies anyway on the record (journal, audit
 * column, summary); a freeze closes a scope whatever other windows say; the plan only
 * tells. The scope's criteria and the run's clock are checked on their own.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeWindow } from '../../src/manifest/index.js';
import { parseWindow, type WeeklyWindow } from '../../src/manifest/change-window-schedule.js';
import { FormerNames } from '../../src/plan/former-names.js';
import { covers } from '../../src/plan/windows.js';
import { runClock } from '../../src/run/assurance.js';
import { defaultSeed, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

const TENANT = (markup: number) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme-corp, reseller: north }
spec:
  markup: ${markup}
`;

/** Tenants may change on Sunday nights, 23:00 to 03:00 Brussels time; nothing changes in the year-end freeze. */
const WINDOW = `apiVersion: switchboard/v1
kind: ChangeWindow
metadata: { name: tenant-nights }
spec:
  timeZone: Europe/Brussels
  scope: { kinds: [Tenant] }
  windows: ["Sun 23:00-03:00"]
---
apiVersion: switchboard/v1
kind: ChangeWindow
metadata: { name: year-end }
spec:
  timeZone: Europe/Brussels
  freezes: [ { from: "2026-12-20", to: "2027-01-03", reason: year-end freeze } ]
`;

async function reset(): Promise<void> {
  expect((await fetch(`${sim.url}/_sim/reset`, { method: 'POST', body: JSON.stringify(defaultSeed()) })).status).toBe(
    200,
  );
}

/** Writes to tenants and below (logins are POSTs too). */
async function writes(): Promise<number> {
  const stats = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as { byRoute?: Record<string, number> };
  return Object.entries(stats.byRoute ?? {})
    .filter(([route]) => /^(PUT|POST|PATCH|DELETE) \/api\/.*\/tenants/.test(route))
    .reduce((n, [, c]) => n + c, 0);
}

async function run(dir: string, now: string, ...args: string[]) {
  return runCli([...args, '--state-dir', join(dir, '.switchboard')], {
    env: { ...simEnv(sim.url), SWITCHBOARD_NOW: now },
    cwd: dir,
  });
}

describe('apply and change windows', () => {
  it('refuses a change outside its window, naming it and when it next opens; the plan only tells', async () => {
    await reset();
    await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
    const dir = await manifestDir({ 'acme.yaml': TENANT(6), 'windows.yaml': WINDOW });
    // Tuesday 2026-11-24 12:00 UTC: 13:00 in Brussels.
    const planned = await run(dir, '2026-11-24T12:00:00Z', 'plan', dir);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain(
      '! 1 change applies only inside change window tenant-nights (Sun 23:00-03:00 Europe/Brussels): closed now, next opens 2026-11-29 23:00 Europe/Brussels (2026-11-29T22:00:00Z)',
    );
    const refused = await run(dir, '2026-11-24T12:00:00Z', 'apply', dir, '--yes');
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain(
      '✗ SB_CHANGE_WINDOW tenant/acme-corp: 1 change applies only inside change window tenant-nights (Sun 23:00-03:00 Europe/Brussels; closed now, next opens 2026-11-29 23:00 Europe/Brussels (2026-11-29T22:00:00Z)); it is 2026-11-24T12:00:00Z now: tenant/acme-corp. Apply when it opens, or with --emergency-change TICKET (at windows.yaml:1:1)',
    );
    expect(await writes()).toBe(0);
  });

  it('applies inside a window that spans midnight, after the autumn DST change, by the local clock', async () => {
    await reset();
    const dir = await manifestDir({ 'acme.yaml': TENANT(6), 'windows.yaml': WINDOW });
    // Monday 2026-11-02 01:30 in Brussels (CET, UTC+1): inside Sunday's 23:00-03:00.
    const inside = await run(dir, '2026-11-02T00:30:00Z', 'apply', dir, '--yes');
    expect(inside.stdout).toContain('Apply complete: 1 applied');
    expect(inside.code).toBe(0);
    // Monday 03:30 local (02:30 UTC): closed again; under summer time (UTC+2) 02:30 UTC would have been 04:30.
    const after = await run(
      dir,
      '2026-11-02T02:30:00Z',
      'apply',
      await manifestDir({ 'acme.yaml': TENANT(7), 'windows.yaml': WINDOW }),
      '--yes',
    );
    expect(after.code).toBe(3);
    expect(after.stdout).toContain('next opens 2026-11-08 23:00 Europe/Brussels (2026-11-08T22:00:00Z)');
  });

  it('a freeze closes its scope whatever the weekly windows say', async () => {
    await reset();
    const dir = await manifestDir({ 'acme.yaml': TENANT(6), 'windows.yaml': WINDOW });
    // Sunday 2026-12-27 23:30 local: inside tenant-nights, but in the year-end freeze.
    const frozen = await run(dir, '2026-12-27T22:30:00Z', 'apply', dir, '--yes');
    expect(frozen.code).toBe(3);
    expect(frozen.stdout).toContain(
      '1 change applies only inside change window year-end (any time, Europe/Brussels; frozen 2026-12-20 to 2027-01-03; frozen (2026-12-20 to 2027-01-03 (year-end freeze)), next opens 2027-01-04 00:00 Europe/Brussels (2027-01-03T23:00:00Z))',
    );
  });

  it('apply --plan checks the windows at its own clock', async () => {
    await reset();
    const dir = await manifestDir({ 'acme.yaml': TENANT(6), 'windows.yaml': WINDOW });
    const file = join(dir, 'plan.json');
    expect((await run(dir, '2026-11-29T22:30:00Z', 'plan', dir, '--out', file)).code).toBe(0);
    const later = await run(dir, '2026-11-30T09:00:00Z', 'apply', '--plan', file, '--yes');
    expect(later.code).toBe(3);
    expect(later.stdout).toContain('SB_CHANGE_WINDOW');
    const inTime = await run(dir, '2026-11-29T23:00:00Z', 'apply', '--plan', file, '--yes');
    expect(inTime.code).toBe(0);
  });

  it('--emergency-change applies anyway, on the record: journal, audit column, summary', async () => {
    await reset();
    const dir = await manifestDir({ 'acme.yaml': TENANT(6), 'windows.yaml': WINDOW });
    const journal = join(dir, 'journal.jsonl');
    const out = await run(
      dir,
      '2026-11-24T12:00:00Z',
      'apply',
      dir,
      '--yes',
      '--emergency-change',
      'INC-4711',
      '--journal',
      journal,
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Apply complete: 1 applied');
    expect(out.stdout).toContain(
      'Emergency change INC-4711: 1 change applied outside change window tenant-nights (recorded in the journal).',
    );
    expect(out.stdout).toContain(
      '! SB_CHANGE_WINDOW tenant/acme-corp: applied at 2026-11-24T12:00:00Z under emergency change INC-4711',
    );
    const start = JSON.parse((await readFile(journal, 'utf8')).split('\n')[0] as string);
    expect(start).toMatchObject({
      emergencyChange: { ticket: 'INC-4711', windows: ['tenant-nights'], changes: 1 },
      clock: { source: 'SWITCHBOARD_NOW', at: '2026-11-24T12:00:00.000Z' },
    });
    const csv = await runCli(['audit', journal], { cwd: dir });
    const [head, row] = csv.stdout.split('\r\n');
    const column = head?.split(',').indexOf('emergency_change') ?? -1;
    expect(column).toBeGreaterThan(0);
    expect(row?.split(',')[column]).toBe('INC-4711');
  });
});

describe('a rename under --target', () => {
  /** acme-corp renamed acme-group; its subscription's billing id changes too. */
  const RENAMED = `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme-group, reseller: north, renamedFrom: [acme-corp] }
spec:
  billingId: T-ACME
  subscriptions:
    - name: main
      billingId: T-ACME-MAIN-2
`;
  const FROZEN = `apiVersion: switchboard/v1
kind: ChangeWindow
metadata: { name: acme-freeze }
spec:
  timeZone: Europe/Brussels
  scope: { addresses: [tenant/acme-corp] }
  freezes: [ { from: "2026-11-01", to: "2026-11-30", reason: migration } ]
`;
  const FORBID = `apiVersion: switchboard/v1
kind: Policy
metadata: { name: acme-rules }
spec:
  rules:
    - id: acme-subscriptions-fixed
      match: { kind: Subscription, address: tenant/acme-corp/subscription/main }
      forbid: [update]
`;
  const target = ['--target', 'tenant/acme-group/subscription/main'];

  it('a window written for the former name covers what is below the renamed object, the rename not targeted', async () => {
    await reset();
    await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
    const dir = await manifestDir({ 'acme.yaml': RENAMED, 'windows.yaml': FROZEN });
    const out = await run(dir, '2026-11-24T12:00:00Z', 'apply', dir, ...target, '--yes');
    expect(out.stdout).toContain(
      '✗ SB_CHANGE_WINDOW tenant/acme-group/subscription/main: 1 change applies only inside change window acme-freeze',
    );
    expect(out.code).toBe(3);
    expect(await writes()).toBe(0);
  });

  it('a forbid rule written for the former name holds below the renamed object, the rename not targeted', async () => {
    await reset();
    const dir = await manifestDir({ 'acme.yaml': RENAMED, 'policies.yaml': FORBID });
    const out = await run(dir, '2026-11-24T12:00:00Z', 'plan', dir, ...target);
    expect(out.stdout).toContain('acme-subscriptions-fixed');
    expect(out.stdout).toContain('which the rule forbids');
    expect(out.code).toBe(3);
  });
});

describe('what a window covers, and the clock', () => {
  const weekly = parseWindow('Sun 23:00-03:00', 'UTC') as WeeklyWindow;
  const window = (scope: Partial<ChangeWindow['scope']>): ChangeWindow => ({
    name: 'w',
    timeZone: 'UTC',
    scope: { addresses: [], kinds: [], tables: [], ...scope },
    windows: [weekly],
    freezes: [],
    source: 'w.yaml:1:1',
  });
  const change = (address: string, kind: string) => ({ address, kind });

  it('every criterion given must hold; each lists alternatives; no criterion covers everything', () => {
    expect(covers(window({}), change('tenant/a', 'Tenant'))).toBe(true);
    const routes = window({ tables: ['routing/draas/active/routes'] });
    expect(covers(routes, change('routing/draas/active/routes/number=+32', 'RoutingRow'))).toBe(true);
    expect(covers(routes, change('routing/draas/active/carriers/prefix=+32', 'RoutingRow'))).toBe(false);
    const banks = window({ kinds: ['Tenant', 'Subscription'], addresses: ['tenant/bank-*'] });
    expect(covers(banks, change('tenant/bank-1', 'Tenant'))).toBe(true);
    expect(covers(banks, change('tenant/bank-1/subscription/main', 'Subscription'))).toBe(true);
    expect(covers(banks, change('tenant/bank-1/subscription/main/address/x', 'Address'))).toBe(false);
    expect(covers(banks, change('tenant/shop', 'Tenant'))).toBe(false);
    // A renamed object is covered under its former address too, and so is what is below it.
    const renamed = { address: 'tenant/b1', kind: 'Tenant', previousAddress: 'tenant/bank-1' };
    expect(covers(window({ addresses: ['tenant/bank-1'] }), renamed)).toBe(true);
    const below = change('tenant/b1/subscription/main', 'Subscription');
    expect(
      covers(window({ addresses: ['tenant/bank-1*'] }), below, new FormerNames([['tenant/b1', 'tenant/bank-1']])),
    ).toBe(true);
    expect(covers(window({ addresses: ['tenant/bank-1*'] }), below)).toBe(false);
  });

  it('the clock: SWITCHBOARD_NOW, else the embedded simulator, else the system', () => {
    expect(runClock({}, { SWITCHBOARD_NOW: '2026-11-24T21:00:00+01:00' })).toEqual({
      now: Date.parse('2026-11-24T20:00:00Z'),
      source: 'SWITCHBOARD_NOW',
    });
    expect(() => runClock({}, { SWITCHBOARD_NOW: 'tomorrow' })).toThrow(
      /SWITCHBOARD_NOW="tomorrow" is not an ISO 8601 instant/,
    );
    expect(() => runClock({}, { SWITCHBOARD_NOW: '2026-11-24T21:00:00' })).toThrow(/with its offset/);
    // In the pattern, out of the calendar: never read as another day.
    expect(() => runClock({}, { SWITCHBOARD_NOW: '2026-02-30T10:00:00Z' })).toThrow(
      /^SWITCHBOARD_NOW="2026-02-30T10:00:00Z" names no day: 2026-02-30 is not in the calendar/,
    );
    for (const text of ['2026-13-01T10:00:00Z', '2026-11-24T24:00:00Z', '2026-11-24T21:60Z', '2026-11-24T21:00+24:00'])
      expect(() => runClock({}, { SWITCHBOARD_NOW: text })).toThrow(/^SWITCHBOARD_NOW=/);
    expect(runClock({}, { SWITCHBOARD_NOW: '2028-02-29T23:59:59.5-01:30' }).now).toBe(
      Date.parse('2028-03-01T01:29:59.500Z'),
    );
    sim.core.store.clock.advance(86_400 * 365);
    const simulated = runClock({ simulator: sim }, {});
    expect(simulated.source).toBe('simulator');
    expect(simulated.now - Date.now()).toBeGreaterThan(86_400_000 * 364);
    expect(runClock({}, {}).source).toBe('system');
  });
});
