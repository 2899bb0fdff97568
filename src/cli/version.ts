/** The package version, for `--version` and the plan file's `tool.version`. */
export { VERSION } from '../core/package.js';
