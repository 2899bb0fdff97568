/**
 * `switchboard compare A B`: two manifest trees (two exports, a repository and an export,
 * two instances' exports) compared by address with the manifest loader, no server and no
 * credentials. Exit 0 when they are the same, 2 when they differ, 1 on errors (a tree
 * that does not load). `--ignore` hides field differences a team does not care about, and
 * the output says what each pattern hid.
 */
import { Option, type Command } from 'commander';
import type { Comparison } from '../../compare/index.js';
import { ExitCode } from '../../core/errors.js';
import type { CommandRegistrar } from '../program.js';

const COMPARE_FORMATS = ['text', 'markdown', 'json', 'csv', 'html'] as const;
type CompareFormat = (typeof COMPARE_FORMATS)[number];

interface CompareOptions {
  format: CompareFormat;
  ignore: string[];
}

export const registerCompare: CommandRegistrar = (program: Command, context) => {
  program
    .command('compare')
    .description('Compare two manifest trees by address (no server, no credentials); exit 2 when they differ')
    .argument('<a>', 'the first manifest file or folder (before)')
    .argument('<b>', 'the second manifest file or folder (after)')
    .addOption(new Option('--format <format>', 'stdout format').choices(COMPARE_FORMATS).default('text'))
    .option(
      '--ignore <pattern>',
      'leave out differences of this field: NAME or KIND.NAME, * for any characters (repeatable; reported)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .action(async (a: string, b: string, options: CompareOptions) => {
      const ctx = context();
      // Loaded here: the other commands start without the loader and the renderers.
      const lib = await import('../../compare/index.js');
      const renderers: Record<CompareFormat, (c: Comparison) => string> = {
        text: lib.renderCompareText,
        markdown: lib.renderCompareMarkdown,
        json: lib.renderCompareJson,
        csv: lib.renderCompareCsv,
        html: lib.renderCompareHtml,
      };
      const { compareTrees, differs, loadTree } = lib;
      const [before, after] = await Promise.all([loadTree([a], 'A'), loadTree([b], 'B')]);
      const comparison = compareTrees(before, after, { ignore: options.ignore });
      ctx.stdout.write(renderers[options.format](comparison));
      ctx.exitCode = differs(comparison) ? ExitCode.changes : ExitCode.ok;
    });
};
