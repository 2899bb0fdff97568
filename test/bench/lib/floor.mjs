/**
 * The floor of a read on this machine: the same GETs sent by a bare loop (undici, no
 * switchboard code) at the same concurrency. What separates it from the latency-bound
 * ideal is the simulator's own time per request and the machine, not the CLI.
 */
import { Agent } from 'undici';
import { ApiSession } from './sim.mjs';

/** @returns {Promise<number>} seconds for all `paths` at `concurrency` */
export async function bareReadSeconds(url, paths, concurrency) {
  const agent = new Agent({ connections: concurrency });
  try {
    const api = new ApiSession(url, agent);
    const begin = performance.now();
    await api.login();
    let next = 0;
    const worker = async () => {
      while (next < paths.length) {
        const path = paths[next++];
        const res = await api.call('GET', path);
        if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return (performance.now() - begin) / 1000;
  } finally {
    await agent.close();
  }
}

/** The list reads of `plan-org` (as the CLI sends them), from the simulator's state dump. */
export function planOrgReadPaths(state) {
  const P = '/api/v01/draas/demo';
  const group = state.tables.groups.find((g) => g.name === 'demo-group');
  const resellers = state.tables.resellers.filter((r) => r.name.startsWith('bench-'));
  const tenants = state.tables.tenants.filter((t) => t.name.startsWith('bench-'));
  const ids = new Set(tenants.map((t) => t.uuid));
  const subs = state.tables.subscriptions.filter((s) => ids.has(s.tenantUuid));
  const T = (s) => `${P}/tenants/${s.tenantUuid}/subscriptions/${s.id}`;
  return [
    '/api/v01/system/users/local',
    `${P}/groups?page_size=1000`,
    `${P}/resellers?parent=${group.uuid}&page_size=1000`,
    ...resellers.map((r) => `${P}/tenants?parent=${r.uuid}&page_size=1000`),
    ...tenants.map((t) => `${P}/tenants/${t.uuid}/subscriptions?page=1&page_size=1000`),
    ...subs.map((s) => `${T(s)}/entitlements`),
    ...subs.map((s) => `${T(s)}/addresses?page=1&page_size=1000`),
  ];
}

/**
 * The floor of an apply on this machine: `tenants` tenant POSTs into the group, each
 * followed by its subscription's POST, sent by a bare loop (undici, no switchboard code,
 * no journal) at the same concurrency. Returns seconds for the 2 × `tenants` POSTs.
 */
export async function bareCreateSeconds(url, groupUuid, tenants, concurrency) {
  const agent = new Agent({ connections: concurrency });
  const P = '/api/v01/draas/demo';
  try {
    const api = new ApiSession(url, agent);
    await api.login();
    const queue = Array.from({ length: tenants }, (_, i) => ({ i, uuid: '' }));
    let next = 0;
    const begin = performance.now();
    const worker = async () => {
      while (next < queue.length) {
        const job = queue[next++];
        if (!job.uuid) {
          const res = await api.call('POST', `${P}/tenants`, {
            name: `floor-${job.i}`,
            billingId: `FLOOR-${job.i}`,
            markup: '1',
            owner: { type: 'group', uuid: groupUuid },
          });
          if (res.status !== 200) throw new Error(`POST tenants → ${res.status}`);
          queue.push({ i: job.i, uuid: /** @type {{ uuid: string }} */ (res.body).uuid });
        } else {
          const res = await api.call('POST', `${P}/tenants/${job.uuid}/subscriptions`, {
            name: 'main',
            billingId: `FLOOR-${job.i}-MAIN`,
            uc: 'uc_alpha',
          });
          if (res.status !== 200) throw new Error(`POST subscriptions → ${res.status}`);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return (performance.now() - begin) / 1000;
  } finally {
    await agent.close();
  }
}
