/**
 * An answer larger than switchboard reads is abandoned with an error naming the limit, never
 * decoded: past ~512 MB its text fits no string, and the request would neither end nor fail
 * (the CLI then exited 13 with nothing said). Here with a small limit, over loopback.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Transport, TransportError } from '../../src/api/transport.js';
import { requestTarget } from '../../src/api/request-target.js';

let url: URL;
let close: () => Promise<void>;
beforeAll(async () => {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    // Bytes that are not UTF-8: decoded, each becomes U+FFFD, three bytes in UTF-8.
    if (req.url === '/latin1') return res.end(Buffer.from([0x22, 0xe9, 0xff, 0x22]));
    // 2 MB in 64 KB chunks.
    const chunk = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 32; i++) res.write(chunk);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

describe('an answer above the limit', () => {
  it('fails the request, naming the limit, and is not read further', async () => {
    const transport = new Transport({ maxAnswerBytes: 1024 * 1024 });
    const error = await transport
      .send({ method: 'GET', target: requestTarget(url, '/big', undefined), headers: {}, timeoutMs: 10_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ failure: 'oversized', message: expect.stringMatching(/larger than 1 MB/) });
    const whole = await new Transport({ maxAnswerBytes: 4 * 1024 * 1024 }).send({
      method: 'GET',
      target: requestTarget(url, '/big', undefined),
      headers: {},
      timeoutMs: 10_000,
    });
    expect(whole.bytesIn).toBe(2 * 1024 * 1024);
    await transport.close();
  });

  it('an answer is counted in the bytes that came, not in those of its decoded text', async () => {
    const transport = new Transport({});
    const answer = await transport.send({
      method: 'GET',
      target: requestTarget(url, '/latin1', undefined),
      headers: {},
      timeoutMs: 10_000,
    });
    expect(answer.text).toBe('"\uFFFD\uFFFD"');
    expect(answer.bytesIn).toBe(4);
    await transport.close();
  });
});
