/**
 * The floor of a read on this machine: the same GETs sent by a bare loop (undici, no
 * switchboard code) at the same concurrency. What separates it from the latency-bound
 * ideal is the simulator's own time per request and the machine, not the CLI.
 * `bareLoop` runs any of the loops in its own process and measures its CPU, which every
 * CPU target divides the CLI's by.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { Agent } from 'undici';
import { runMeasured } from './cli.mjs';
import { ApiSession } from './sim.mjs';

const BARE_LOOP = join(import.meta.dirname, 'bare-loop.mjs');

/**
 * One bare loop (`spec.loop`: `read` with `paths`, `create` with `groupUuid`, `tenants` and
 * `typeIds`, or `routing` with `rows`; `url` and `concurrency` for all) in its own process.
 * @returns {Promise<{ floorS: number, floorCpuS: number, floorRssMB: number }>} the loop's own time
 *   for its requests (its start excluded, as it sends nothing then), and the process's CPU and peak RSS
 */
export async function bareLoop(spec) {
  const dir = await mkdtemp(join(tmpdir(), 'sb-bench-loop-'));
  try {
    const file = join(dir, 'spec.json');
    await writeFile(file, JSON.stringify(spec));
    const run = await runMeasured(BARE_LOOP, [file], { cwd: dir, env: {} });
    if (run.code !== 0) throw new Error(`the bare ${spec.loop} loop exited ${run.code}: ${run.stderr.slice(-1500)}`);
    return { floorS: JSON.parse(run.stdout).seconds, floorCpuS: run.cpuS, floorRssMB: run.peakRssMB };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * @param {readonly number[]} answered the statuses a path may answer (a list the platform
 *   answers 404 when empty, as a group's block list, is read all the same)
 * @returns {Promise<number>} seconds for all `paths` at `concurrency`
 */
export async function bareReadSeconds(url, paths, concurrency, answered = [200]) {
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
        if (!answered.includes(res.status)) throw new Error(`GET ${path} → ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return (performance.now() - begin) / 1000;
  } finally {
    await agent.close();
  }
}

/**
 * The list reads of `plan-org` or `national` (as the CLI sends them), from the simulator's
 * state dump: every page of each reseller's tenants at the page cap, and the addresses only
 * when the estate has some.
 */
export function planOrgReadPaths(state, pageCap, withAddresses = true) {
  const P = '/api/v01/draas/demo';
  const group = state.tables.groups.find((g) => g.name === 'demo-group');
  const resellers = state.tables.resellers.filter((r) => r.name.startsWith('bench-'));
  const tenants = state.tables.tenants.filter((t) => t.name.startsWith('bench-'));
  const ids = new Set(tenants.map((t) => t.uuid));
  const subs = state.tables.subscriptions.filter((s) => ids.has(s.tenantUuid));
  const T = (s) => `${P}/tenants/${s.tenantUuid}/subscriptions/${s.id}`;
  const owned = new Map();
  for (const t of tenants) owned.set(t.owner.uuid, (owned.get(t.owner.uuid) ?? 0) + 1);
  return [
    '/api/v01/system/users/local',
    `${P}/groups?page_size=1000`,
    `${P}/resellers?parent=${group.uuid}&page_size=1000`,
    ...resellers.flatMap((r) => {
      const pages = Math.max(1, Math.ceil((owned.get(r.uuid) ?? 0) / pageCap));
      return Array.from(
        { length: pages },
        (_, i) => `${P}/tenants?parent=${r.uuid}&page_size=${pageCap}&page=${i + 1}`,
      );
    }),
    ...tenants.map((t) => `${P}/tenants/${t.uuid}/subscriptions?page=1&page_size=1000`),
    ...subs.map((s) => `${T(s)}/entitlements`),
    ...(withAddresses ? subs.map((s) => `${T(s)}/addresses?page=1&page_size=1000`) : []),
  ];
}

/**
 * The floor of an apply on this machine: `tenants` tenant POSTs into the group, each
 * followed by its subscription's POST and then its `typeIds.length` entitlement POSTs (one
 * per type id), sent by a bare loop (undici, no switchboard code, no journal) at the same
 * concurrency. Returns seconds for all the POSTs.
 */
export async function bareCreateSeconds(url, groupUuid, tenants, concurrency, typeIds = []) {
  const agent = new Agent({ connections: concurrency });
  const P = '/api/v01/draas/demo';
  const post = async (api, path, body) => {
    const res = await api.call('POST', path, body);
    if (res.status !== 200) throw new Error(`POST ${path} → ${res.status}: ${JSON.stringify(res.body)}`);
    return /** @type {{ uuid?: string, id?: number }} */ (res.body);
  };
  try {
    const api = new ApiSession(url, agent);
    await api.login();
    // Each POST starts the ones that need its id; p-limit runs them in the order they became ready.
    const limit = pLimit(concurrency);
    /** @type {Promise<void>[]} */
    const tasks = [];
    const start = (task) => tasks.push(limit(task));
    const entitlement = (uuid, id, typeId) => async () => {
      await post(api, `${P}/tenants/${uuid}/subscriptions/${id}/entitlements`, {
        licenseModelId: typeId,
        entitlement: 5,
      });
    };
    const subscription = (i, uuid) => async () => {
      const { id } = await post(api, `${P}/tenants/${uuid}/subscriptions`, {
        name: 'main',
        billingId: `FLOOR-${i}-MAIN`,
        uc: 'uc_alpha',
      });
      for (const typeId of typeIds) start(entitlement(uuid, id, typeId));
    };
    const begin = performance.now();
    for (let i = 0; i < tenants; i++)
      start(async () => {
        const { uuid } = await post(api, `${P}/tenants`, {
          name: `floor-${i}`,
          billingId: `FLOOR-${i}`,
          markup: '1',
          owner: { type: 'group', uuid: groupUuid },
        });
        start(subscription(i, uuid));
      });
    for (let i = 0; i < tasks.length; i++) await tasks[i];
    return (performance.now() - begin) / 1000;
  } finally {
    await agent.close();
  }
}
