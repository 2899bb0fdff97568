/**
 * `switchboard init [DIR] [--force]`: scaffolds a manifests repository in DIR (default: the
 * current folder): package.json pinning this switchboard, switchboard.config.yaml, a starter
 * manifests/ folder, the three GitHub workflows, editor settings, .gitignore and a README.
 * Exit 0 when written; 1 when a file exists (nothing is written) unless --force.
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { VERSION } from '../../core/package.js';
import { scaffold } from '../../init/scaffold.js';
import type { CommandRegistrar } from '../program.js';

export const registerInit: CommandRegistrar = (program: Command, context) => {
  program
    .command('init')
    .description('Scaffold a manifests repository: package.json, config, starter manifests, workflows, editor settings')
    .argument('[dir]', 'the repository folder (created when missing)', '.')
    .option('--force', 'overwrite existing files (a package.json only gains the switchboard devDependency)', false)
    .action(async (dir: string, options: { force: boolean }) => {
      const result = await scaffold(dir, { force: options.force });
      const relative = path.relative(process.cwd(), result.dir);
      const shown = relative === '' ? '.' : relative.startsWith('..') ? result.dir : relative;
      const lines = [`Scaffolded a switchboard ${VERSION} manifests repository in ${shown}/:`];
      for (const file of result.files) lines.push(`  ${file.outcome.padEnd(11)} ${file.path}`);
      const cd = shown === '.' ? '' : `cd ${shown} && `;
      lines.push(
        'Next:',
        `  ${cd}npm install                   # then commit package-lock.json: the workflows run npm ci`,
        '  npx switchboard validate manifests',
        '  npx switchboard plan manifests --sim   # a rehearsal on the built-in simulator',
        '  README.md there lists the secrets and the "production" environment the workflows need.',
      );
      context().stdout.write(`${lines.join('\n')}\n`);
    });
};
