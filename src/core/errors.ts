/**
 * Errors that reach the user. Expected failures are values with a stable code and an
 * exit code; the CLI's single top-level handler prints `message` (no stack trace unless
 * --log-level debug) and exits with `exitCode`.
 */

import { safeText } from './safe-text.js';

/** The exit codes every command documents (docs/commands.md). */
export const ExitCode = {
  ok: 0,
  error: 1,
  changes: 2,
  refused: 3,
  /** Stopped by SIGINT (Ctrl-C) before anything was applied: 128 + 2, the shell's convention. */
  interrupted: 130,
  /** Stopped by SIGTERM before anything was applied: 128 + 15. */
  terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class SwitchboardError extends Error {
  readonly code: string;
  readonly exitCode: ExitCodeValue;

  constructor(code: string, message: string, options: { exitCode?: ExitCodeValue; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SwitchboardError';
    this.code = code;
    this.exitCode = options.exitCode ?? ExitCode.error;
  }
}

/** A safety rail said no (stale plan, delete threshold, protect, permission, replace). Exit 3. */
export class RefusedError extends SwitchboardError {
  constructor(code: string, message: string) {
    super(code, message, { exitCode: ExitCode.refused });
    this.name = 'RefusedError';
  }
}

/** Where a diagnostic points: a manifest position or an API object. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/**
 * A user-facing finding, collected rather than thrown (manifest validation, plan checks).
 * `code` is stable (e.g. `SB_SCHEMA`), `message` says what to do about it.
 */
export interface Diagnostic {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  source?: SourcePosition;
  address?: string;
}

/** `file:line:col: error CODE: message` (or `address: …` when there is no position). */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.source ? `${d.source.file}:${d.source.line}:${d.source.column}` : (d.address ?? '');
  const head = where ? `${where}: ` : '';
  // File names and messages quote manifests: printed as the renderers print them.
  return safeText(`${head}${d.severity} ${d.code}: ${d.message}`);
}

/** Thrown when diagnostics contain errors and the command cannot go on. */
export class DiagnosticsError extends SwitchboardError {
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super('SB_INVALID', `${errors} error(s) found`);
    this.name = 'DiagnosticsError';
    this.diagnostics = diagnostics;
  }
}
