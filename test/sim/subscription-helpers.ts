/** Shared set-up of the Document 2 tests: a reset simulator, the admin, acme-corp/main. */
import type { RunningSimulator } from '../../src/sim/index.js';
import { loginAs, P, type SimClient, useTestSim, uuidOf } from './helpers.js';

export interface SubscriptionFixture {
  admin: SimClient;
  group: string;
  acme: string;
  globex: string;
  /** Subscription id of acme-corp/main and globex/voice. */
  main: number;
  voice: number;
  /** `T` of acme-corp/main. */
  T: string;
}

/**
 * One simulator per test file, reset to the default data set and logged in before each
 * test; `onSim` / `onFixture` receive them (the files keep their own `sim` and `f`).
 */
export function useSubscriptionSim(
  onSim: (sim: RunningSimulator) => void,
  onFixture: (f: SubscriptionFixture) => void,
): void {
  useTestSim(onSim, async (sim) => onFixture(await resetAndLogin(sim)));
}

export async function resetAndLogin(sim: RunningSimulator): Promise<SubscriptionFixture> {
  await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
  const admin = await loginAs(sim, 'admin');
  const state = (await fetch(`${sim.url}/_sim/state`).then((r) => r.json())) as {
    tables: { subscriptions: { id: number; name: string }[] };
  };
  const subId = (name: string) => state.tables.subscriptions.find((s) => s.name === name)?.id ?? -1;
  const acme = await uuidOf(admin, 'tenants', 'acme-corp');
  const main = subId('main');
  return {
    admin,
    group: await uuidOf(admin, 'groups', 'demo-group'),
    acme,
    globex: await uuidOf(admin, 'tenants', 'globex'),
    main,
    voice: subId('voice'),
    T: `${P}/tenants/${acme}/subscriptions/${main}`,
  };
}

export async function simEvents(
  sim: RunningSimulator,
): Promise<{ event: string; objectId: string; object: Record<string, unknown> }[]> {
  const body = (await fetch(`${sim.url}/_sim/events`).then((r) => r.json())) as {
    events: { event: string; objectId: string; object: Record<string, unknown> }[];
  };
  return body.events;
}
