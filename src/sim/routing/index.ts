/**
 * The routing engine simulator (Document 3), mounted by the platform simulator on the same
 * port as `/api/v01/…` and `/_sim/…`, or served alone by `startRoutingEngineSim`.
 */
export { createRoutingEngineSim, type RoutingEngineSim, type RoutingSimRequestLog } from './create.js';
export { startRoutingEngineSim, type RoutingSimServer, type RoutingSimServerOptions } from './server.js';
export { defaultRoutingSeed } from './default-seed.js';
export type { RoutingSeed, SimFieldSeed, SimTableSeed, SimQuirks, SimFieldType, SimCredentials } from './types.js';
