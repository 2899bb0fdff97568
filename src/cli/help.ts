/**
 * What every command's `--help` ends with: its exit codes and the environment variables
 * it reads. One table here, so a command added later gets a footer by construction (the
 * default one) and the codes stay next to each other where they can be compared.
 */
import { ENVIRONMENT_VARIABLES } from '../config/naming.js';

const EXIT_CODES: Record<string, string[]> = {
  validate: ['0  every manifest is valid (warnings allowed)', '1  errors were found, or the command line is wrong'],
  plan: [
    '0  the plan was made (with or without changes, unless --detailed-exitcode)',
    '1  an error: manifests, configuration, connection, platform, an unmatched --target',
    '2  with --detailed-exitcode: the plan has changes',
    '3  a safety rail refused the plan (delete threshold, protect, permission, replace)',
    '130, 143  interrupted (Ctrl-C, SIGTERM) while planning: loading, reading, checking',
  ],
  apply: [
    '0  every change was applied (or there was nothing to do)',
    '1  a change failed or was skipped (interrupted while applying too), the run was cancelled, or an error',
    '1  with --verify: a RoutingTest vector did not pass against the live routing engine',
    '3  a safety rail refused: plan errors, a saved plan stale, edited or refused, an option contradicting it,',
    '   a change outside its change window (without --emergency-change)',
    '130, 143  interrupted (Ctrl-C, SIGTERM) before applying, or a second time while applying',
  ],
  show: [
    '0  the plan was shown (refused or not: its refusals are part of it); --verify: it checks out;',
    '   --compare-with: the same change set',
    '1  the file cannot be read, or is not a plan',
    '2  --compare-with: the change sets differ',
    '3  the file is refused: no digest, changed after switchboard wrote it, or not fully understood',
  ],
  coverage: ['0  the coverage was printed', '1  an error: manifests, configuration, connection, platform'],
  verify: [
    '0  every RoutingTest vector passed against the live routing engine',
    '1  a vector did not pass, or an error (manifests, a vector the declared rows fail, the connection)',
  ],
  audit: ['0  the table was printed (torn or foreign lines are listed on stderr)', '1  a journal cannot be read'],
  export: [
    '0  the manifests were written',
    '1  an error (a non-empty --out without --force, an unknown scope, an unreachable server)',
    '130, 143  interrupted (Ctrl-C, SIGTERM): the files written are complete; run it again to finish',
  ],
  compare: ['0  the two trees are the same', '1  a tree does not load, or the command line is wrong', '2  they differ'],
  sim: ['0  stopped (Ctrl-C or SIGTERM)', '1  could not start (port in use, unreadable seed or state file)'],
  demo: ['0  every step did what it should', '1  a step did not'],
  init: [
    '0  every file was written (or listed, with --dry-run)',
    '1  a file exists with other content (without --force), a target is not a regular file, or a write failed',
  ],
  version: ['0  always'],
};
const DEFAULT_EXIT_CODES = ['0  success', '1  an error'];

/** Commands that connect to a platform, hence read the connection variables. */
const CONNECTING = new Set(['plan', 'apply', 'export', 'coverage', 'verify']);
/** Commands that read manifests, hence their `${VAR}` references. */
const READING_MANIFESTS = new Set(['validate', 'plan', 'apply', 'coverage', 'verify']);
/** Commands that read change windows, hence the clock they read them with. */
const WINDOWED = new Set(['plan', 'apply']);
/** Commands that notify a webhook (docs/notifications.md). */
const NOTIFYING = new Set(['plan', 'apply']);
/** Commands that colour their output on a terminal. */
const COLOURING = new Set(['plan', 'show', 'apply', 'demo']);

/** The footer of `switchboard <name> --help`. */
export function commandHelpFooter(name: string): string {
  const lines = [
    '',
    'Exit codes:',
    ...(EXIT_CODES[name] ?? DEFAULT_EXIT_CODES).map((l) => `  ${l}`),
    '',
    'Environment:',
  ];
  lines.push('  SWITCHBOARD_LOG_LEVEL  the level of the JSON log on stderr (as --log-level, which wins)');
  lines.push('  SWITCHBOARD_NO_CODE_CACHE  set (to anything): start from the ES modules, not the code-cached bundle');
  if (COLOURING.has(name)) lines.push('  NO_COLOR               set (to anything): no colours, as --no-color');
  if (READING_MANIFESTS.has(name)) lines.push('  any ${VAR} a manifest references; its value is treated as a secret');
  if (NOTIFYING.has(name))
    lines.push('  SWITCHBOARD_NOTIFY_URL  the webhook to notify when neither --notify nor notify.url gives one');
  if (WINDOWED.has(name))
    lines.push(
      "  SWITCHBOARD_NOW  an ISO 8601 instant: the clock change windows are read with (default: the system's)",
    );
  if (CONNECTING.has(name)) {
    lines.push('  SWITCHBOARD_PROGRESS_INTERVAL_MS  ms between progress lines on stderr without a terminal (5000)');
    lines.push('  the connection (each one set overrides its setting in switchboard.config.yaml):');
    const names = Object.values(ENVIRONMENT_VARIABLES);
    for (let i = 0; i < names.length; i += 4) lines.push(`    ${names.slice(i, i + 4).join('  ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The footer of `switchboard --help`. */
export const PROGRAM_HELP_FOOTER = `
Exit codes: 0 success, 1 error, 2 changes (plan --detailed-exitcode), 3 refused by a safety rail.
Every command's --help lists its own, and the environment variables it reads.
`;
