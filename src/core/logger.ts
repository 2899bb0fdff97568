import type { Logger } from 'pino';
import { safeLines } from './safe-text.js';
import { maskSecrets } from './secrets.js';
import { requiredOnFirstUse } from './on-first-use.js';

/**
 * pino, loaded when the first logger is made: a command that logs nothing (`version`,
 * `--help`) starts without it (30–40 ms of CPU). pino is a CommonJS package, so it loads
 * synchronously where it is first needed.
 */
const loadPino = requiredOnFirstUse<typeof import('pino')>('pino');

/**
 * Paths pino blanks out wherever they appear in a log object. Credentials and tokens must
 * never reach a log, whatever level is set, so the list is generous on purpose.
 */
const REDACTED_PATHS = [
  'password',
  'token',
  'access_token',
  'refresh_token',
  'totpSecret',
  'secret',
  'authorization',
  '2fa_payload',
  '*.password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.totpSecret',
  '*.secret',
  '*.authorization',
  '*.Authorization',
  '*["2fa_payload"]',
  'headers.authorization',
  'req.headers.authorization',
  'auth.*',
  '*.auth.*',
];

export type { Logger };

/** The levels `--log-level` and `SWITCHBOARD_LOG_LEVEL` accept (pino's, most verbose last). */
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** pino's number for each level a log call can name; a call below the logger's level writes nothing. */
const LEVEL_VALUES: ReadonlyMap<string | symbol, number> = new Map([
  ['trace', 10],
  ['debug', 20],
  ['info', 30],
  ['warn', 40],
  ['error', 50],
  ['fatal', 60],
]);

/**
 * JSON logs on stderr; stdout is kept for the human output. Keys known to hold secrets are
 * redacted by path; every line is also passed through the secrets registry, which masks a
 * known secret wherever a message or an error quotes it.
 *
 * pino itself is made at the first call that writes a line (or uses anything else of the
 * logger): at the default level most runs log nothing, and start without it (12-18 ms).
 */
export function createLogger(level = 'warn', fd = 2): Logger {
  const threshold = level === 'silent' ? Infinity : LEVEL_VALUES.get(level);
  const logger = lazyLogger(threshold ?? -Infinity, () => {
    const { pino } = loadPino();
    return pino(
      {
        level,
        base: undefined,
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        // JSON escapes C0 controls; bidi and C1 characters of a quoted name become \uXXXX too (the same once parsed).
        hooks: { streamWrite: (line) => safeLines(maskSecrets(line)) },
      },
      pino.destination({ dest: fd, sync: true }),
    );
  });
  // A level pino does not know is pino's to refuse, at once, as before.
  if (threshold === undefined) void logger.level;
  return logger;
}

/**
 * A logger made by `make` at its first use, but for a log call below `threshold`: that one is
 * a no-op without it (pino would write nothing for it either).
 */
function lazyLogger(threshold: number, make: () => Logger): Logger {
  let made: Logger | undefined;
  const quiet = (): void => undefined;
  return new Proxy({} as Logger, {
    get(_target, key) {
      const value = LEVEL_VALUES.get(key);
      if (!made && value !== undefined && value < threshold) return quiet;
      made ??= make();
      const member: unknown = Reflect.get(made, key, made);
      return typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(made) : member;
    },
  });
}

/**
 * A logger that discards everything, for library callers and tests that do not care. Made
 * on first use of anything but a log call (a module that imports it does not load pino for that).
 */
export const silentLogger: Logger = lazyLogger(Infinity, () => loadPino().pino({ level: 'silent' }));
