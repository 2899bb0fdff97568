/**
 * What `plan` and `show` print of a plan, and `plan`'s exit code. Loaded by their actions
 * only (the renderers are not needed to register the commands or to run any other).
 */
import { ExitCode } from '../../core/errors.js';
import { writePremasked } from '../../core/secrets.js';
import { renderJson } from '../../plan/render-json.js';
import { renderMarkdown } from '../../plan/render-markdown.js';
import { renderText } from '../../plan/render-text.js';
import type { Plan } from '../../plan/types.js';
import type { PlanFormat } from './plan.js';

/**
 * The plan in `format`, as `plan` and `show` print it (the same plan gives the same output
 * from both). The HTML report links manifest positions to the commit when run in GitHub Actions.
 */
async function renderPlan(plan: Plan, format: PlanFormat, color: boolean): Promise<string> {
  if (format === 'json') return renderJson(plan);
  if (format === 'markdown') return renderMarkdown(plan);
  if (format === 'html') {
    // Loaded for an HTML report only: its renderer and scripts are most of the renderers' code.
    const [{ sourceLinksFrom }, { renderHtml }] = await Promise.all([
      import('../../plan/html/source-links.js'),
      import('../../plan/render-html.js'),
    ]);
    const links = sourceLinksFrom(process.env, process.cwd());
    return renderHtml(plan, links ? { sourceLinks: links } : {});
  }
  return renderText(plan, { color });
}

/**
 * Prints the plan in `format`. The JSON document is masked by its own rules and its digest
 * covers its bytes: it is written as it is, so it is the very file `--out` writes.
 */
export async function printPlan(
  stream: NodeJS.WritableStream,
  plan: Plan,
  format: PlanFormat,
  color: boolean,
): Promise<void> {
  const text = await renderPlan(plan, format, color);
  if (format === 'json') writePremasked(stream, text);
  else stream.write(text);
}

/** Colours only on a terminal, and never with NO_COLOR set. */
export function useColor(requested: boolean): boolean {
  return requested && process.stdout.isTTY === true && !process.env['NO_COLOR'];
}

/** The exit code of a plan: refusals (3) first, then changes (2 when asked). */
export function planExitCode(plan: Plan, detailed: boolean): number {
  if (plan.errors.length > 0) return ExitCode.refused;
  const changes = plan.summary.create + plan.summary.update + plan.summary.replace + plan.summary.delete;
  return detailed && changes > 0 ? ExitCode.changes : ExitCode.ok;
}
