/**
 * The run-time half of the unit tier's promise (unit-guard.ts, a setup file of the unit
 * project): what a unit test may not do fails at the call, with a message that says where the
 * file belongs instead.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';

describe('the unit tier at run time', () => {
  it('a unit test that listens on a port or starts a process fails at that call (test/suite/unit-guard.ts)', async () => {
    const server = createServer();
    expect(() => server.listen(0, '127.0.0.1')).toThrow(/a unit test \(npm run test:unit\) listened on a port/);
    expect(() => execFileSync('true')).toThrow(/started a process \(child_process\.execFileSync\)/);
    await expect(fetch('http://127.0.0.1:65000/')).rejects.toMatchObject({
      cause: expect.objectContaining({ message: expect.stringMatching(/opened a network connection/) }),
    });
  });
});
