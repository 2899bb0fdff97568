/**
 * `switchboard show PLAN_FILE`: renders a saved plan (`plan --out`) as `plan` printed it,
 * in any of its formats, with no configuration, no credentials and no network. The file's
 * seal is checked first: a plan without a digest, or changed after it was made, is refused
 * (exit 3). `--verify` prints the seal (recorded against computed) and exits 0 or 3;
 * `--compare-with OTHER` says whether two plans do the same (exit 0) or not (exit 2).
 */
import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { ExitCode, SwitchboardError } from '../../core/errors.js';
import type { CommandRegistrar } from '../program.js';
import { PLAN_FORMATS, type PlanFormat } from './plan.js';

interface ShowOptions {
  format: PlanFormat;
  color: boolean;
  verify: boolean;
  compareWith?: string;
}

export const registerShow: CommandRegistrar = (program: Command, context) => {
  program
    .command('show')
    .description('Print a saved plan file as plan printed it; no connection, no credentials')
    .argument('<plan-file>', 'a plan file written by plan --out')
    .addOption(new Option('--format <format>', 'stdout format').choices(PLAN_FORMATS).default('text'))
    .option('--no-color', 'no colours, even on a terminal')
    .addOption(
      new Option(
        '--verify',
        "check the file's seal: its digest and its change set's, recorded against computed",
      ).conflicts('compareWith'),
    )
    .option(
      '--compare-with <other>',
      'whether another plan file (or a change-set digest, sha256:…) does the same: exit 0 when it does, 2 when not',
    )
    .action(async (file: string, options: ShowOptions) => {
      const ctx = context();
      if ((options.verify || options.compareWith !== undefined) && options.format === 'html') {
        throw new SwitchboardError(
          'SB_USAGE',
          `--format html shows a plan; ${options.verify ? '--verify' : '--compare-with'} prints text, markdown or json`,
        );
      }
      if (options.verify) {
        ctx.exitCode = await verify(file, options.format, (text) => ctx.stdout.write(text));
        return;
      }
      // Loaded here: the other commands start without them.
      const [{ readPlan }, { printPlan, useColor }, { isDigest }, compare] = await Promise.all([
        import('../../run/saved-plan.js'),
        import('./plan-output.js'),
        import('../../core/canonical-json.js'),
        import('../../plan/plan-compare.js'),
      ]);
      const { comparePlans, compareWithDigest, renderComparisonJson, renderComparisonMarkdown, renderComparisonText } =
        compare;
      const plan = await readPlan(file);
      if (options.compareWith === undefined) {
        await printPlan(ctx.stdout, plan, options.format, useColor(options.color));
        return;
      }
      const other = options.compareWith;
      const comparison = isDigest(other)
        ? compareWithDigest(file, plan, other)
        : comparePlans(file, plan, other, await readPlan(other));
      const render =
        options.format === 'json'
          ? renderComparisonJson
          : options.format === 'markdown'
            ? renderComparisonMarkdown
            : renderComparisonText;
      ctx.stdout.write(render(comparison));
      ctx.exitCode = comparison.same ? ExitCode.ok : ExitCode.changes;
    });
};

async function verify(file: string, format: PlanFormat, write: (text: string) => void): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
    throw new SwitchboardError('SB_PLAN_FILE', `cannot read plan file ${file}: ${reason}`, { cause: error });
  }
  const { renderVerifyText, verifyPlanText } = await import('../../plan/plan-verify.js');
  const report = verifyPlanText(text, file);
  write(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderVerifyText(report));
  return report.exitCode;
}
