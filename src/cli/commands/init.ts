/**
 * `switchboard init [DIR] [--force]`: scaffolds a manifests repository in DIR (default: the
 * current folder): package.json (kept when there is one), switchboard.config.yaml, a starter
 * manifests/ folder, the three GitHub workflows and Dependabot's configuration, editor
 * settings, .gitignore and a README. Into an existing repository it merges (.gitignore lines,
 * a README section); exit 1 when another file exists with other content (nothing is written)
 * unless --force, which replaces it. --dry-run lists what it would do and exits as init would.
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import { ExitCode } from '../../core/errors.js';
import { VERSION } from '../../core/package.js';
import type { ScaffoldOutcome } from '../../init/scaffold.js';
import { safeText } from '../../core/safe-text.js';
import type { CommandRegistrar } from '../program.js';
import { relativeLeadsInside } from '../../core/path-inside.js';

/** How each outcome reads in init's list (a dry run says what would happen). */
const WORDS: Record<ScaffoldOutcome, [string, string]> = {
  created: ['created', 'would create'],
  updated: ['updated', 'would update'],
  kept: ['kept', 'would keep'],
  replaced: ['replaced', 'would replace'],
  conflict: ['conflict', 'conflict'],
};

export const registerInit: CommandRegistrar = (program: Command, context) => {
  program
    .command('init')
    .description('Scaffold a manifests repository: package.json, config, starter manifests, workflows, editor settings')
    .argument('[dir]', 'the repository folder (created when missing)', '.')
    .option(
      '--force',
      'replace files that exist with other content (.gitignore and README.md are merged, an existing package.json is always kept)',
      false,
    )
    .option('--dry-run', 'list what init would create, update, keep or replace; write nothing', false)
    .action(async (dir: string, options: { force: boolean; dryRun: boolean }) => {
      const [{ scaffold }, { INSTALL_COMMAND }] = await Promise.all([
        import('../../init/scaffold.js'),
        import('../../init/templates.js'),
      ]);
      const result = await scaffold(dir, { force: options.force, dryRun: options.dryRun });
      const relative = path.relative(process.cwd(), result.dir);
      const shown = safeText(relative === '' ? '.' : relativeLeadsInside(relative) ? relative : result.dir);
      const head = result.dryRun ? `init would scaffold` : 'Scaffolded';
      const lines = [`${head} a switchboard ${VERSION} manifests repository in ${shown}/:`];
      for (const file of result.files) {
        const word = WORDS[file.outcome][result.dryRun ? 1 : 0];
        lines.push(`  ${word.padEnd(13)} ${safeText(file.path)}${file.detail ? ` (${safeText(file.detail)})` : ''}`);
      }
      const conflicts = result.files.filter((f) => f.outcome === 'conflict').length;
      if (result.dryRun) {
        lines.push(
          conflicts > 0
            ? `Nothing was written. ${conflicts} file(s) differ: init refuses them without --force, which replaces them.`
            : 'Nothing was written (--dry-run).',
        );
        context().stdout.write(`${lines.join('\n')}\n`);
        // A dry run ends as the run would: a conflict refuses it (SB_INIT_EXISTS, exit 1).
        if (conflicts > 0) context().exitCode = ExitCode.error;
        return;
      }
      const cd = shown === '.' ? '' : `cd ${shown} && `;
      lines.push(
        'Next:',
        `  ${cd}${INSTALL_COMMAND}   # or a git URL#commit, unless package.json has it; commit package-lock.json`,
        '  npx --no-install switchboard validate manifests',
        '  npx --no-install switchboard plan manifests --sim   # a rehearsal on the built-in simulator',
        `  Never \`npm install switchboard@<version>\`: that name on the npm registry is not this project's.`,
        '  README.md there lists the secrets and the "production" environment the workflows need.',
      );
      context().stdout.write(`${lines.join('\n')}\n`);
    });
};
