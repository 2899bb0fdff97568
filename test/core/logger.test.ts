import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { clearSecrets, registerSecret } from '../../src/core/secrets.js';

const dir = mkdtempSync(join(tmpdir(), 'switchboard-logger-'));
afterAll(() => {
  clearSecrets();
  rmSync(dir, { recursive: true, force: true });
});

/** What a logger at `level` writes for `use`, one JSON object per line. */
function written(level: string, use: (logger: ReturnType<typeof createLogger>) => void): Record<string, unknown>[] {
  const file = join(dir, `${level}-${Math.random().toString(36).slice(2)}.log`);
  const fd = openSync(file, 'w');
  try {
    use(createLogger(level, fd));
  } finally {
    closeSync(fd);
  }
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const everyLevel = (logger: ReturnType<typeof createLogger>): void => {
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const)
    logger[level]({ at: level }, level);
};

describe('createLogger', () => {
  it("writes the calls at and above its level, as pino's levels say", () => {
    expect(written('warn', everyLevel).map((l) => l['msg'])).toEqual(['warn', 'error', 'fatal']);
    expect(written('debug', everyLevel).map((l) => l['msg'])).toEqual(['debug', 'info', 'warn', 'error', 'fatal']);
    expect(written('trace', everyLevel).map((l) => l['level'])).toEqual([10, 20, 30, 40, 50, 60]);
    expect(written('silent', everyLevel)).toEqual([]);
  });

  it('keeps its level once pino is made by a call that writes', () => {
    const lines = written('warn', (logger) => {
      logger.info('before');
      logger.warn('made');
      logger.info('after');
      logger.debug('after');
      expect(logger.level).toBe('warn');
      expect(logger.isLevelEnabled('info')).toBe(false);
    });
    expect(lines.map((l) => l['msg'])).toEqual(['made']);
  });

  it('redacts credential keys and masks a registered secret, whichever call made pino', () => {
    registerSecret('s3cret-logger-value');
    const lines = written('info', (logger) => {
      logger.info({ password: 'p', nested: { token: 't' } }, 'login as s3cret-logger-value');
    });
    expect(lines[0]).toMatchObject({ password: '[redacted]', nested: { token: '[redacted]' } });
    expect(JSON.stringify(lines)).not.toContain('s3cret-logger-value');
  });

  it('refuses a level pino does not know at once', () => {
    expect(() => createLogger('verbose', 2)).toThrow(/verbose/);
  });
});
