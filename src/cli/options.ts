import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { dirname, join, resolve } from 'node:path';
// The one constant from its own module: registering the options loads no API client.
import { AUTO_CONCURRENCY } from '../api/adaptive-concurrency.js';
import type { ConcurrencySetting } from '../api/index.js';
import { addNotifyOptions } from './notify.js';
import { decimal } from './numbers.js';
import { projectRoot } from '../config/index.js';

/** `[paths...]` of the commands that read manifests: none given means the current folder. */
export function manifestPathsArgument(): Argument {
  return new Argument('[paths...]', 'manifest files or folders').default([], '.');
}

/** `--no-cache` of the commands that load manifests through the manifest cache (`plan`, `validate`). */
export function noCacheOption(): Option {
  return new Option(
    '--no-cache',
    'load every manifest file afresh: neither read nor write the manifest cache (<state-dir>/cache)',
  ).env('SWITCHBOARD_NO_CACHE');
}

/** Options shared by the commands that talk to a platform (docs/commands.md). */
export function addConnectionOptions(command: Command): Command {
  return command
    .option('--env <name>', 'a named environment of switchboard.config.yaml')
    .option(
      '--config <file>',
      'the configuration file (default: switchboard.config.yaml here or in the nearest folder above, up to the top of the git repository)',
    )
    .option('--sim', 'run against a fresh embedded simulator in-process')
    .option('--seed <file>', 'with --sim: the simulator seed (YAML or JSON)')
    .option(...concurrencyOption());
}

/** Options shared by `plan` and `apply`. */
export function addPlanOptions(command: Command): Command {
  addConnectionOptions(command)
    .option(
      '--target <address>',
      'limit the plan to this address, its subtree and what it depends on (repeatable; a trailing * globs)',
      collect,
      [],
    )
    .option('--exclude <address>', 'leave this address and its subtree out (repeatable)', collect, [])
    .option(
      '--changed-since <git-ref>',
      'read and compare only the documents changed since this git commit (and the CSV files they read)',
    )
    .option('--prune', 'delete undeclared live objects in every declared collection', false)
    .option('--max-delete-percent <n>', 'refuse deleting more than this share of a kind in scope', percent, 10)
    .option(
      '--max-update-percent <n>',
      'refuse overwriting values of more than this share of a kind in scope (once 10 exist)',
      percent,
      30,
    )
    .option(
      '--allow-policy <id>',
      'override this policy rule for this plan: its violations become warnings (repeatable; recorded in the plan)',
      collect,
      [],
    )
    .option('--allow-replace', 'allow replacing objects that hold data (tenants, subscriptions)', false)
    .option(
      '--allow-address-in-use',
      'allow deleting or replacing an emergency address that numbers still use (recorded in the plan)',
      false,
    );
  addStateDirOption(command, 'where the last-applied record and the journal live');
  return addNotifyOptions(command);
}

/**
 * `--state-dir <dir>`, with the one default every command shares (`defaultStateDir`): two
 * commands that use one configuration file use one state folder, whatever folder they run
 * from, so they read the same record, journals and cache and share one apply lock.
 */
export function addStateDirOption(command: Command, what: string): Command {
  return command
    .option(
      '--state-dir <dir>',
      `${what} (default: .switchboard beside the configuration file, --config or the one found, else at the git repository's top)`,
    )
    .hook('preAction', (_program, action) => {
      const options = action.opts();
      if (options['stateDir'] !== undefined) return;
      const config = typeof options['config'] === 'string' ? options['config'] : undefined;
      action.setOptionValueWithSource('stateDir', defaultStateDir(config, process.cwd()), 'default');
    });
}

/**
 * The default state folder: `.switchboard` beside the configuration file (`--config`, else
 * the one found from `cwd`), else at the top of the git repository, else in `cwd`. Found from
 * the configuration, not the current folder: a run from `manifests/`, or from another folder
 * with the same `--config`, reads the same record and is stopped by the same lock.
 */
export function defaultStateDir(configOption: string | undefined, cwd: string): string {
  const root = configOption !== undefined ? dirname(resolve(cwd, configOption)) : projectRoot(cwd);
  return join(root, '.switchboard');
}

/**
 * `--concurrency <n|auto>`: requests in flight, or `auto` to find the platform's limit
 * (docs/connecting.md "Concurrency"). Its default is the one place the default is chosen.
 */
export function concurrencyOption(): [string, string, (value: string) => ConcurrencySetting, ConcurrencySetting] {
  return [
    '--concurrency <n|auto>',
    `maximum requests in flight, or auto: grow while the platform keeps up, back off on 429/503 (at most ${AUTO_CONCURRENCY.ceiling})`,
    concurrencySetting,
    DEFAULT_CONCURRENCY,
  ];
}

const DEFAULT_CONCURRENCY: ConcurrencySetting = 'auto';

function concurrencySetting(value: string): ConcurrencySetting {
  if (value === 'auto') return 'auto';
  const n = decimal(value) ?? Number.NaN;
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer or auto');
  return n;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function percent(value: string): number {
  const n = decimal(value) ?? Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError('expected a percentage from 0 to 100');
  return n;
}
