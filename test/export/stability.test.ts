/**
 * Export does not depend on the order the platform answers in (docs/export.md "Stability"):
 * the simulator sorts its lists, a platform need not, so the same state is read once as
 * served and once with every list answer reversed, and written byte for byte the same.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { exportManifests, type ExportClient } from '../../src/export/run.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { createEveryKind } from './every-kind.js';
import { estateSeed } from './estate-seed.js';
import { differingFiles, treeFiles } from './tree-files.js';

let sim: RunningSimulator;
let client: ApiClient;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    seed: estateSeed({ tenants: 20, subscriptionsPerTenant: 2, entitlementsPerSubscription: 3 }),
  });
  await createEveryKind(sim.url);
  client = await ApiClient.connect({ baseUrl: sim.url, auth: { username: 'admin', password: 'admin' } });
});

afterAll(async () => {
  await client.close();
  await sim.close();
});

/** The client with every list's items in reverse order (each page's, and the pages'). */
function reversing(inner: ApiClient): { client: ExportClient; reversedLists: () => number } {
  let reversedLists = 0;
  const client = new Proxy(inner, {
    get(target, property) {
      if (property === 'listPages') {
        return async (options: Parameters<ApiClient['listPages']>[0]) => {
          const items = await target.listPages(options);
          if (items.length > 1) reversedLists += 1;
          return [...items].reverse();
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { client, reversedLists: () => reversedLists };
}

describe('export and the order of list answers', () => {
  it('the same state with every list answered in reverse order is written byte for byte the same', async () => {
    const base = await mkdtemp(join(tmpdir(), 'switchboard-order-'));
    const options = { scopes: [], force: false, documentsInFlight: 4 };
    await exportManifests(client, { ...options, outDir: join(base, 'served') });
    const reversed = reversing(client);
    await exportManifests(reversed.client, { ...options, outDir: join(base, 'reversed') });
    // Lists of several items were reversed (tenants, subscriptions, entitlements, prefixes…): the test can fail.
    expect(reversed.reversedLists()).toBeGreaterThan(40);
    const served = await treeFiles(join(base, 'served'));
    expect(served.size).toBe(20 + 4 + 3);
    expect(differingFiles(served, await treeFiles(join(base, 'reversed')))).toEqual([]);
  });
});
