/** The package version: see src/core/version.ts (the run layer records it in plans). */
export { VERSION } from '../core/version.js';
