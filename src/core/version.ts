import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The package version, for `--version` and the plan file's `tool.version`. */
export const VERSION = (require('../../package.json') as { version: string }).version;
