import { pino, type Logger } from 'pino';
import { safeLines } from './safe-text.js';
import { maskSecrets } from './secrets.js';

/**
 * Paths pino blanks out wherever they appear in a log object. Credentials and tokens must
 * never reach a log, whatever level is set, so the list is generous on purpose.
 */
export const REDACTED_PATHS = [
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

/**
 * JSON logs on stderr; stdout is kept for the human output. Keys known to hold secrets are
 * redacted by path; every line is also passed through the secrets registry, which masks a
 * known secret wherever a message or an error quotes it.
 */
export function createLogger(level = 'warn', fd = 2): Logger {
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
}

/** A logger that discards everything, for library callers and tests that do not care. */
export const silentLogger: Logger = pino({ level: 'silent' });
