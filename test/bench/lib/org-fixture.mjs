/**
 * The `plan-org` estate, live on a simulator process and desired in manifests on disk.
 * `plan-org` and `naive` both only read it, so one run sets it up once for both.
 */
import { join } from 'node:path';
import { ORG, orgLive, writeOrgManifests } from './estate.mjs';
import { ApiSession, startPlatformSim } from './sim.mjs';

const { defaultSeed } = await import('../../../dist/sim/index.js');

/**
 * @param {{ latencyMs: number, workDir: string, log: (line: string) => void }} ctx
 */
export async function setUpOrg(ctx) {
  const begin = performance.now();
  const sim = await startPlatformSim({ latencyMs: ctx.latencyMs, nodeArgs: ctx.simNodeArgs });
  try {
    const { seed, addresses } = orgLive(defaultSeed());
    await sim.reset(seed);
    await createAddresses(sim, addresses);
    const dir = join(ctx.workDir, 'plan-org');
    const { changes } = await writeOrgManifests(join(dir, 'manifests'));
    ctx.log(
      `  estate: ${ORG.resellers} resellers, ${seed.tenants.length - 3} tenants, live addresses created through the API; ${changes} changes of drift (set up in ${((performance.now() - begin) / 1000).toFixed(1)} s)`,
    );
    return { sim, dir, changes };
  } catch (error) {
    await sim.close();
    throw error;
  }
}

/** The seed format has no addresses: create them with `POST A` (Doc 2 §4.5), 32 at a time. */
async function createAddresses(sim, addresses) {
  const state = await sim.state();
  const tenants = new Map(state.tables.tenants.map((t) => [t.name, t.uuid]));
  const subs = new Map(state.tables.subscriptions.map((s) => [`${s.tenantUuid}/${s.name}`, s.id]));
  const api = new ApiSession(sim.url, sim.agent);
  await api.login();
  let next = 0;
  const worker = async () => {
    while (next < addresses.length) {
      const a = addresses[next++];
      const uuid = tenants.get(a.tenant);
      const path = `/api/v01/draas/demo/tenants/${uuid}/subscriptions/${subs.get(`${uuid}/${a.subscription}`)}/addresses`;
      const res = await api.call('POST', path, { data: a.data, format: 'mapservice' });
      if (res.status !== 201) throw new Error(`seeding ${path} → ${res.status}: ${JSON.stringify(res.body)}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}
