/**
 * The platform simulator's core, wired: a store, the router with every route module
 * registered, and the HTTP handler. `reset()` reloads a seed or a state snapshot.
 */
import { applySeed } from './seed/load-seed.js';
import { defaultSeed } from './seed/default-seed.js';
import type { Seed } from './seed/types.js';
import { PlatformApi, type RouteObserver } from './platform-api.js';
import { VariantSource } from './variants.js';
import { Router } from './router.js';
import { routeModules } from './routes/index.js';
import { isSnapshot, PlatformStore, type StoreSnapshot } from './store/store.js';

export interface PlatformCore {
  store: PlatformStore;
  /** The variant seed in force: the core's option, else the loaded seed's `variants` (undefined: off). */
  readonly variantSeed: string | number | undefined;
  router: Router;
  api: PlatformApi;
  /** The seed last loaded (the routing engine reads its `routing` part). */
  seed: Seed;
  /** Replaces all data with a seed (the default one when omitted) or a state snapshot. */
  reset(source?: Seed | StoreSnapshot): void;
}

export interface PlatformCoreOptions {
  seed?: Seed | StoreSnapshot;
  observe?: RouteObserver;
  /** Variant mode (./variants.ts): wins over the seed's `variants`. */
  variants?: string | number;
}

export function createPlatformCore(options: PlatformCoreOptions = {}): PlatformCore {
  const store = new PlatformStore();
  const router = new Router();
  for (const register of routeModules) register(router, store);
  const api = new PlatformApi(store, router, options.observe);
  const core: PlatformCore = {
    store,
    router,
    api,
    seed: {},
    get variantSeed() {
      return api.variants.seed;
    },
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
      // Every reset starts the variant sequence again: the same requests get the same forms.
      api.variants = new VariantSource(options.variants ?? store.settings.variants);
    },
  };
  core.reset(options.seed);
  return core;
}
