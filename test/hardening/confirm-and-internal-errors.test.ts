/**
 * The confirmation question of `apply` and what an internal error leaves in the log: Ctrl-D
 * (the input ending) at the question is no yes, the apply cancelled, not an internal error;
 * an internal error's stack reaches the log only at `--log-level debug` or `trace`.
 */
import { PassThrough, Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { askYes } from '../../src/cli/confirm.js';
import { logInternalError } from '../../src/cli/program.js';

const QUESTION = 'Apply these changes? ';

/** An input and an output; `isTTY`: readline drives them as a terminal (raw keys, Ctrl-D its own). */
function terminal(isTTY = false) {
  const input = new PassThrough();
  let shown = '';
  const output = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        shown += chunk.toString();
        done();
      },
    }),
    { isTTY },
  );
  return { input, output, shown: () => shown };
}

describe('the confirmation question', () => {
  it('Ctrl-D on a terminal before an answer: no yes, and the line is ended', async () => {
    const t = terminal(true);
    const answer = askYes(QUESTION, t.input, t.output, new AbortController().signal);
    t.input.write('\x04');
    await expect(answer).resolves.toBe(false);
    expect(t.shown()).toMatch(/\n$/);
  });

  it('an input that ends before an answer: no yes (not a question left waiting)', async () => {
    const t = terminal();
    const answer = askYes(QUESTION, t.input, t.output, new AbortController().signal);
    t.input.end();
    await expect(answer).resolves.toBe(false);
    expect(t.shown()).toBe(`${QUESTION}\n`);
  });

  it('"yes" confirms; anything else does not', async () => {
    for (const [typed, confirmed] of [
      ['yes\n', true],
      ['  yes \n', true],
      ['y\n', false],
      ['YES\n', false],
    ] as const) {
      const t = terminal();
      const answer = askYes(QUESTION, t.input, t.output, new AbortController().signal);
      t.input.write(typed);
      await expect(answer).resolves.toBe(confirmed);
    }
  });

  it('a signal rejects the question (the caller turns it into the interrupted error)', async () => {
    const t = terminal();
    const controller = new AbortController();
    const answer = askYes(QUESTION, t.input, t.output, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(answer).rejects.toThrow();
  });
});

describe('an internal error in the log', () => {
  function logged(level: string, error: unknown): Record<string, any> {
    let line = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        line += chunk.toString();
        done();
      },
    });
    logInternalError(pino({ level }, stream), error, level);
    return JSON.parse(line) as Record<string, any>;
  }

  it('at the default level: its type, message and code at error level, no stack', () => {
    const error = Object.assign(new TypeError('something broke'), { code: 'ERR_SOMETHING' });
    const line = logged('warn', error);
    expect(line).toMatchObject({ level: 50, msg: 'internal error' });
    expect(line['error']).toEqual({ type: 'TypeError', message: 'something broke', code: 'ERR_SOMETHING' });
    expect(line['err']).toBeUndefined();
    expect(JSON.stringify(line)).not.toContain('at ');
  });

  it('at debug and trace: the stack too', () => {
    for (const level of ['debug', 'trace']) {
      const line = logged(level, new Error('something broke'));
      expect(line['err']).toMatchObject({ message: 'something broke' });
      expect(String(line['err'].stack)).toContain('confirm-and-internal-errors.test.ts');
    }
  });
});
