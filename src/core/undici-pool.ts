import { createRequire } from 'node:module';
import type { Pool as UndiciPool } from 'undici';

/**
 * undici's Pool without the rest of undici. `import { Pool } from 'undici'` also loads
 * fetch, WebSocket, the cache and the mock agents: 64 ms of CPU at every start, a quarter of
 * `switchboard version`; the Pool module alone costs 25 ms. undici is pinned to one version
 * in package.json, and test/core/undici-pool.test.ts checks that this is undici's own class.
 */
const require = createRequire(import.meta.url);

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool;
export type Pool = UndiciPool;
