import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A CLI run in a test process (or a child given its environment) uses no manifest cache, and
    // its key never lands in the real home; the tests of the cache ask for it explicitly.
    env: { SWITCHBOARD_NO_CACHE: '1', XDG_CACHE_HOME: join(tmpdir(), 'switchboard-test-xdg') },
  },
});
