/**
 * The embedded simulator of the platform API (and, when present, the routing engine).
 * `startSimulator()` serves it in-process (tests, `--sim` on other commands); `switchboard
 * sim` serves it from the command line. See docs/simulator.md.
 */
export { startSimulator, type RunningSimulator, type SimulatorOptions } from './server.js';
export { defaultSeed, DEMO_M2M_TOKEN, DEMO_TOTP_SECRET } from './platform/seed/default-seed.js';
export type { Seed } from './platform/seed/types.js';
export { totp } from './platform/auth/totp.js';
