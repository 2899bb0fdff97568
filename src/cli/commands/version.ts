/**
 * `switchboard version [--format text|json]` (also `switchboard --version`): the version of
 * the package, and the Node.js running it, so a bug report or a CI log says exactly which
 * switchboard ran. Talks to no server; always exit 0.
 */
import type { Command } from 'commander';
import { SwitchboardError } from '../../core/errors.js';
import { NODE_ENGINES, PACKAGE_NAME, VERSION } from '../../core/package.js';
import type { CommandRegistrar } from '../program.js';

/** What `version --format json` prints (one JSON object, one line). */
export interface VersionInfo {
  name: string;
  version: string;
  /** The running Node.js (`process.version`). */
  node: string;
  /** The Node.js versions the package supports (package.json `engines.node`). */
  engines: { node: string };
}

function versionInfo(): VersionInfo {
  return { name: PACKAGE_NAME, version: VERSION, node: process.version, engines: { node: NODE_ENGINES } };
}

function renderVersion(format: string): string {
  if (format === 'json') return `${JSON.stringify(versionInfo())}\n`;
  if (format === 'text') return `${VERSION}\n`;
  throw new SwitchboardError('SB_USAGE', `--format must be text or json, not ${format}`);
}

export const registerVersion: CommandRegistrar = (program: Command, context) => {
  program
    .command('version')
    .description('Print the version of switchboard (--format json: with the Node.js version running it)')
    .option('--format <format>', 'text or json', 'text')
    .action((opts: { format: string }) => {
      context().stdout.write(renderVersion(opts.format));
    });
};
