/**
 * `switchboard validate [PATH…]`: loads manifests, checks them against `schemas/` and
 * across the set, and prints every diagnostic (`file:line:col: error CODE: message`,
 * sorted), a one-line summary, and exits 0 or 1. Talks to no server.
 */
import * as path from 'node:path';
import { Option, type Command } from 'commander';
import { ExitCode, formatDiagnostic } from '../../core/errors.js';
import type { LoadResult } from '../../manifest/index.js';
import { addStateDirOption, manifestPathsArgument, noCacheOption } from '../options.js';
import type { CommandRegistrar } from '../program.js';
import { safeLines, safeText } from '../../core/safe-text.js';
import { countText } from '../../core/count-text.js';

export interface ValidateOptions {
  format: 'text' | 'json';
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** The manifest cache's folder (`<state-dir>/cache`); none: every file is loaded afresh. */
  cacheDir?: string;
}

/** Runs the check and returns what to print and the exit code (testable without a process). */
export async function runValidate(
  paths: string[],
  options: ValidateOptions,
): Promise<{ output: string; exitCode: number; result: LoadResult }> {
  // Loaded here: the other commands start without the manifest loader (plan loads it through run/).
  const { loadManifests, ManifestCache } = await import('../../manifest/index.js');
  const cache = options.cacheDir === undefined ? {} : { cache: new ManifestCache(options.cacheDir) };
  const result = await loadManifests(paths, { cwd: options.cwd, env: options.env, ...cache });
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = result.diagnostics.length - errors;
  const summary = {
    files: result.files.length,
    objects: result.set.objects.length,
    routingRows: result.set.routingTables.reduce((n, t) => n + t.rows.length, 0),
    policyRules: result.policies.length,
    routingVectors: result.routingTests.reduce((n, t) => n + t.vectors.length, 0),
    changeWindows: result.changeWindows.length,
    errors,
    warnings,
  };
  const exitCode = errors > 0 ? ExitCode.error : ExitCode.ok;
  if (options.format === 'json') {
    const diagnostics = result.diagnostics.map((d) => ({
      file: d.source?.file,
      line: d.source?.line,
      column: d.source?.column,
      severity: d.severity,
      code: d.code,
      message: d.message,
    }));
    const output = JSON.stringify(
      { ok: errors === 0, summary, diagnostics, externalParents: result.set.externalParents, digest: result.digest },
      null,
      2,
    );
    // JSON escapes C0 controls itself; bidi and C1 characters become \uXXXX too (the same string once parsed).
    return { output: `${safeLines(output)}\n`, exitCode, result };
  }
  const lines = result.diagnostics.map(formatDiagnostic);
  for (const parent of result.set.externalParents) {
    lines.push(
      safeText(
        `note: ${parent.kind.toLowerCase()}/${parent.name} is not declared here; it must exist live (used by ${parent.referencedBy.slice(0, 3).join(', ')}${parent.referencedBy.length > 3 ? ', …' : ''})`,
      ),
    );
  }
  lines.push(summaryLine(summary));
  return { output: `${lines.join('\n')}\n`, exitCode, result };
}

function summaryLine(s: {
  files: number;
  objects: number;
  routingRows: number;
  policyRules: number;
  routingVectors: number;
  changeWindows: number;
  errors: number;
  warnings: number;
}): string {
  const plural = (n: number, word: string): string => `${countText(n)} ${word}${n === 1 ? '' : 's'}`;
  const some = (n: number, word: string): string => (n > 0 ? `, ${plural(n, word)}` : '');
  const rows = `${some(s.routingRows, 'routing row')}${some(s.policyRules, 'policy rule')}${some(s.routingVectors, 'routing test vector')}${some(s.changeWindows, 'change window')}`;
  const found =
    s.errors === 0 && s.warnings === 0 ? 'valid' : `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}`;
  return `${s.errors === 0 ? 'OK' : 'FAILED'}: ${plural(s.files, 'file')}, ${plural(s.objects, 'object')}${rows}: ${found}.`;
}

export const registerValidate: CommandRegistrar = (program: Command, context) => {
  addStateDirOption(
    program
      .command('validate')
      .description('Check manifests against the schemas and across the manifest set; talks to no server')
      .addArgument(manifestPathsArgument())
      .addOption(new Option('--format <format>', 'stdout format').choices(['text', 'json']).default('text')),
    'where the manifest cache lives (<dir>/cache)',
  )
    .addOption(noCacheOption())
    .action(async (paths: string[], opts: { format: 'text' | 'json'; stateDir: string; cache: boolean }) => {
      const ctx = context();
      const cacheDir = opts.cache ? { cacheDir: path.join(opts.stateDir, 'cache') } : {};
      const { output, exitCode } = await runValidate(paths, { format: opts.format, ...cacheDir });
      ctx.stdout.write(output);
      ctx.exitCode = exitCode;
    });
};
