import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { TierSequencer } from './test/suite/sequencer.js';
import { excludeOf, includeOf, type TierName } from './test/suite/tiers.js';

/**
 * One vitest project per test tier (test/suite/tiers.ts): `vitest run` runs them all
 * (`npm test`), `vitest run --project unit` one (`npm run test:unit`).
 */
const tier = (name: TierName, test: { setupFiles?: string[]; testTimeout?: number; isolate?: boolean } = {}) => ({
  extends: true as const,
  test: { name, include: includeOf(name), exclude: excludeOf(name), ...test },
});

// A test that starts the CLI with its working folder in the checkout fails at that call.
const CHECKOUT_GUARD = 'test/suite/checkout-guard.ts';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A CLI run in a test process (or a child given its environment) uses no manifest cache, and
    // its key never lands in the real home; the tests of the cache ask for it explicitly.
    env: { SWITCHBOARD_NO_CACHE: '1', XDG_CACHE_HOME: join(tmpdir(), 'switchboard-test-xdg') },
    // vitest's default on a 2-core machine is one worker (cores - 1), and a test file keeps
    // about 0.6 of a core busy (measured with time(1), its CLI processes included): the rest of
    // the time it waits for a child process, a socket or a backoff. Three files at a time keep
    // both cores of the CI machine busy; `--maxWorkers N` overrides it.
    maxWorkers: 3,
    sequence: { sequencer: TierSequencer },
    globalSetup: ['test/suite/clean-checkout.ts'],
    projects: [
      // Unit files share a worker's module graph (isolate: false): importing src/ again for each
      // of ~60 files was half the tier's CPU. They pass in any order (--sequence.shuffle.files).
      tier('unit', { setupFiles: ['test/suite/unit-guard.ts'], isolate: false }),
      // Processes and servers share two cores with the rest of the suite: a test's time limit
      // is a guard against a hang, not a budget (budgets are `npm run bench`).
      tier('e2e', { testTimeout: 120_000, setupFiles: [CHECKOUT_GUARD] }),
      tier('reliability', { testTimeout: 120_000, setupFiles: [CHECKOUT_GUARD] }),
    ],
  },
});
