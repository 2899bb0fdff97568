/**
 * The platform simulator's core, wired: a store, the router with every route module
 * registered, and the HTTP handler. `reset()` reloads a seed or a state snapshot.
 */
import { applySeed } from './seed/load-seed.js';
import { defaultSeed } from './seed/default-seed.js';
import type { Seed } from './seed/types.js';
import { PlatformApi, type RouteObserver } from './platform-api.js';
import { Router } from './router.js';
import { routeModules } from './routes/index.js';
import { isSnapshot, PlatformStore, type StoreSnapshot } from './store/store.js';

export interface PlatformCore {
  store: PlatformStore;
  router: Router;
  api: PlatformApi;
  /** The seed last loaded (the routing engine reads its `routing` part). */
  seed: Seed;
  /** Replaces all data with a seed (the default one when omitted) or a state snapshot. */
  reset(source?: Seed | StoreSnapshot): void;
}

export function createPlatformCore(options: { seed?: Seed | StoreSnapshot; observe?: RouteObserver } = {}): PlatformCore {
  const store = new PlatformStore();
  const router = new Router();
  for (const register of routeModules) register(router, store);
  const core: PlatformCore = {
    store, router, api: new PlatformApi(store, router, options.observe), seed: {},
    reset(source) {
      const before = store.snapshot();
      const previousSeed = core.seed;
      try {
        if (isSnapshot(source)) store.restore(source);
        else {
          core.seed = source ?? defaultSeed();
          applySeed(store, core.seed);
        }
      } catch (error) {
        // A bad seed leaves the data as it was.
        core.seed = previousSeed;
        store.restore(before);
        throw error;
      }
    },
  };
  core.reset(options.seed);
  return core;
}
