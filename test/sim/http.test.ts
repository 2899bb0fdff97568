import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBody } from '../../src/sim/http.js';

const request = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c))) as unknown as IncomingMessage;

describe('simulator request bodies', () => {
  it('reads every chunk, and an empty body as empty', async () => {
    expect((await readBody(request('{"na', 'me":"x"}'))).toString()).toBe('{"name":"x"}');
    expect((await readBody(request())).length).toBe(0);
  });

  it('refuses a body over the limit', async () => {
    await expect(readBody(request('abc', 'def'), 4)).rejects.toThrow('request body too large');
  });
});
