import { Command, CommanderError, Option } from 'commander';
import { DiagnosticsError, ExitCode, SwitchboardError, formatDiagnostic } from '../core/errors.js';
import { LOG_LEVELS, createLogger, type Logger } from '../core/logger.js';
import { commands } from './commands/index.js';
import { PROGRAM_HELP_FOOTER, commandHelpFooter } from './help.js';

import { VERSION } from '../core/package.js';
import { safeLines } from '../core/safe-text.js';

/** What every command receives besides its own options. */
export interface CliContext {
  logger: Logger;
  stdout: NodeJS.WritableStream;
  /** Set by a command to choose the process's exit code (0 when left alone). */
  exitCode: number;
}

export type CommandRegistrar = (program: Command, context: () => CliContext) => void;

/**
 * The whole command line: every command and option registered on `program`. `runCli` runs
 * it; docs/commands.md is checked against it (test/docs/commands.test.ts).
 */
export function buildProgram(program: Command, context: () => CliContext): Command {
  program
    .name('switchboard')
    .description('GitOps reconciler for a multi-tenant voice and unified-communications platform')
    .version(VERSION, '-V, --version', 'print the version (with --format json: as JSON, like the version command)')
    .addOption(
      new Option('--log-level <level>', 'level of the JSON log on stderr')
        .choices(LOG_LEVELS)
        .default('warn')
        .env('SWITCHBOARD_LOG_LEVEL'),
    )
    // Every subcommand's help lists --log-level too (it may be given after the subcommand).
    .configureHelp({ showGlobalOptions: true })
    .addHelpText('after', PROGRAM_HELP_FOOTER)
    // After a usage error, one line pointing at the help instead of the help itself: the
    // error and its "Did you mean" stay on the screen.
    .showHelpAfterError(seeHelp())
    .exitOverride();
  for (const register of commands) register(program, context);
  for (const command of program.commands) {
    command.addHelpText('after', commandHelpFooter(command.name()));
    command.showHelpAfterError(seeHelp(command.name()));
  }
  return program;
}

/** The line after a usage error: where the whole usage is. */
function seeHelp(command?: string): string {
  return `see \`switchboard${command ? ` ${command}` : ''} --help\``;
}

/**
 * The command line as commander should see it. An unknown command is an error with or
 * without --help (`switchboard nosuch --help`, `switchboard help nosuch`): commander would
 * print the global help and exit 0, and a script asking whether this version has a command
 * would believe it does. The help flags are dropped so that commander reports the unknown
 * command, with its "Did you mean".
 */
function withoutHelpOfUnknownCommand(argv: string[], program: Command): string[] {
  const [node = '', script = '', ...args] = argv;
  const known = (name: string): boolean =>
    program.commands.some((c) => c.name() === name || c.aliases().includes(name));
  const operands = firstOperands(args, program);
  const isHelp = (arg: string): boolean => arg === '--help' || arg === '-h';
  const [first, second] = operands;
  if (first === undefined) return argv;
  if (first.value === 'help' && second !== undefined && !known(second.value)) {
    return [node, script, ...args.filter((arg, i) => i !== first.index && !isHelp(arg))];
  }
  if (first.value === 'help' || known(first.value)) return argv;
  return [node, script, ...args.filter((arg) => !isHelp(arg))];
}

/** The first two words that are not global options (nor their values), with their index. */
function firstOperands(args: string[], program: Command): { value: string; index: number }[] {
  const found: { value: string; index: number }[] = [];
  for (let i = 0; i < args.length && found.length < 2; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-') {
      found.push({ value: arg, index: i });
      continue;
    }
    if (found.length > 0 || arg.includes('=')) continue;
    const option = program.options.find((o) => o.long === arg || o.short === arg);
    if (option?.required) i++; // its value
  }
  return found;
}

/**
 * Builds the program (`buildProgram`), runs it, and maps every error to an exit code.
 * Expected failures (SwitchboardError) print their message only; anything else is a bug
 * and prints its stack when --log-level debug is given.
 */
export async function runCli(argv: string[], program: Command): Promise<number> {
  let context: CliContext | undefined;
  let logger: Logger | undefined;
  const getContext = (): CliContext => {
    // The logger is made when a command first logs: `version` and `--help` start without pino.
    context ??= {
      get logger() {
        logger ??= createLogger(logLevel(program));
        return logger;
      },
      stdout: process.stdout,
      exitCode: ExitCode.ok,
    };
    return context;
  };

  buildProgram(program, getContext);
  try {
    await program.parseAsync(withoutHelpOfUnknownCommand(versionAlias(argv, program), program));
    return getContext().exitCode;
  } catch (error) {
    return reportError(error, getContext(), logLevel(program));
  }
}

/**
 * `switchboard [global options] --version [--format json]` runs the `version` command:
 * commander's own --version prints the bare version and takes no --format. --version is
 * looked for before the first operand, past the global options and their values (as
 * {@link firstOperands} reads them): `--log-level debug --version` is the same request.
 */
function versionAlias(argv: string[], program: Command): string[] {
  const [node = '', script = '', ...args] = argv;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--version' || arg === '-V')
      return [node, script, ...args.slice(0, i), 'version', ...args.slice(i + 1)];
    if (arg === '--' || !arg.startsWith('-') || arg === '-') break; // an operand: the command's own arguments follow
    const option = program.options.find((o) => o.long === arg || o.short === arg);
    if (option?.required && !arg.includes('=')) i++; // its value
  }
  return argv;
}

/** The level given (commander has checked it against LOG_LEVELS), or the default when parsing failed first. */
function logLevel(program: Command): string {
  const level = String(program.opts()['logLevel'] ?? 'warn');
  return (LOG_LEVELS as readonly string[]).includes(level) ? level : 'warn';
}

function reportError(error: unknown, context: CliContext, level: string): number {
  if (error instanceof CommanderError) {
    // commander already printed help or the usage error.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.error;
  }
  if (error instanceof DiagnosticsError) {
    for (const d of error.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
    return error.exitCode;
  }
  if (error instanceof SwitchboardError) {
    process.stderr.write(`Error: ${safeLines(error.message)}\n`);
    if (level === 'debug' || level === 'trace') process.stderr.write(`${error.stack ?? ''}\n`);
    return error.exitCode;
  }
  const file = fileError(error);
  if (file) {
    // A path given on the command line that is missing, a folder, a FIFO…: the user's to fix, in one line.
    process.stderr.write(`Error: ${safeLines(file)}\n`);
    return ExitCode.error;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Internal error: ${safeLines(message)}\n`);
  if (level === 'debug' || level === 'trace') process.stderr.write(`${error instanceof Error ? error.stack : ''}\n`);
  else process.stderr.write('Run again with --log-level debug for details.\n');
  logInternalError(context.logger, error, level);
  return ExitCode.error;
}

/**
 * An internal error in the JSON log: its type, message and code at error level, its stack
 * only at debug or trace (docs/commands.md: no stack trace without `--log-level debug`).
 */
export function logInternalError(logger: Logger, error: unknown, level: string): void {
  if (level === 'debug' || level === 'trace' || !(error instanceof Error)) {
    logger.error({ err: error }, 'internal error');
    return;
  }
  const code = (error as NodeJS.ErrnoException).code;
  // Not under `err`: pino's serializer would add the stack back.
  logger.error({ error: { type: error.name, message: error.message, ...(code ? { code } : {}) } }, 'internal error');
}

/** What the system said of a file (missing, a folder, not a regular file, no permission), as one line; undefined otherwise. */
function fileError(error: unknown): string | undefined {
  const e = error as NodeJS.ErrnoException | undefined;
  const reasons: Record<string, string> = {
    ENOENT: 'no such file or folder',
    EISDIR: 'is a folder, not a file',
    ENOTDIR: 'a part of the path is not a folder',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ELOOP: 'too many symbolic links',
    ENOTREG: 'not a regular file',
    ENAMETOOLONG: 'the name is too long',
  };
  const reason = e?.code === undefined ? undefined : reasons[e.code];
  if (!reason) return undefined;
  if (e?.code === 'ENOTREG') return e.message;
  return e?.path ? `${e.path}: ${reason}` : `${reason} (${e?.message ?? ''})`;
}
