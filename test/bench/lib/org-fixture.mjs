/**
 * The `plan-org` estate, live on a simulator process and desired in manifests on disk.
 * `plan-org` and `naive` both only read it, so one run sets it up once for both; the
 * `small-estate` is set up the same way on a simulator of its own.
 */
import { join } from 'node:path';
import { ORG, SMALL, orgLive, writeOrgManifests } from './estate.mjs';
import { ApiSession, startPlatformSim } from './sim.mjs';

const { defaultSeed } = await import('../../../dist/sim/index.js');

/** `setUpOrg` of the `small-estate`. */
export const setUpSmall = (ctx) => setUpOrg(ctx, SMALL, 'small-estate');

/**
 * @param {{ latencyMs: number, workDir: string, simNodeArgs: string[], log: (line: string) => void }} ctx
 * @param {typeof ORG} size the estate's shape
 * @param {string} name its folder under the bench's work folder
 */
export async function setUpOrg(ctx, size = ORG, name = 'plan-org') {
  const begin = performance.now();
  const sim = await startPlatformSim({ latencyMs: ctx.latencyMs, nodeArgs: ctx.simNodeArgs });
  try {
    const { seed, addresses } = orgLive(defaultSeed(), size);
    await sim.reset(seed);
    await createAddresses(sim, addresses);
    const dir = join(ctx.workDir, name);
    const { changes } = await writeOrgManifests(join(dir, 'manifests'), size);
    ctx.log(
      `  estate: ${size.resellers} resellers, ${seed.tenants.length - 3} tenants, live addresses created through the API; ${changes} changes of drift (set up in ${((performance.now() - begin) / 1000).toFixed(1)} s)`,
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
