import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { MASK, clearSecrets, maskSecrets, maskStream, registerSecret } from '../../src/core/secrets.js';

afterEach(() => clearSecrets());

describe('the secrets registry', () => {
  it('masks a registered secret wherever it appears, and its JSON-escaped and URL-encoded forms', () => {
    registerSecret('pa"ss\\word/42');
    const escaped = JSON.stringify('pa"ss\\word/42').slice(1, -1);
    const twice = JSON.stringify(escaped).slice(1, -1);
    expect(maskSecrets('x pa"ss\\word/42 y')).toBe(`x ${MASK} y`);
    expect(maskSecrets(`{"m":"${escaped}"}`)).toBe(`{"m":"${MASK}"}`);
    expect(maskSecrets(`{"msg":"{\\"m\\":\\"${twice}\\"}"}`)).not.toContain('word');
    expect(maskSecrets(`q=${encodeURIComponent('pa"ss\\word/42')}`)).toBe(`q=${MASK}`);
  });

  it('leaves values shorter than 8 characters alone: masking "admin" would garble addresses and point at it', () => {
    registerSecret('admin');
    expect(maskSecrets('tenant/acme/admin/it@acme.example')).toBe('tenant/acme/admin/it@acme.example');
  });

  it('masks the longest of two overlapping secrets whole', () => {
    registerSecret('abcdefgh');
    registerSecret('abcdefgh-ijklmnop');
    expect(maskSecrets('token abcdefgh-ijklmnop end')).toBe(`token ${MASK} end`);
  });

  it('a masked stream masks strings and buffers written to it', () => {
    const chunks: string[] = [];
    const sink = new Writable({
      write: (chunk: Buffer, _enc, done) => (chunks.push(chunk.toString()), done()),
    }) as unknown as NodeJS.WriteStream;
    maskStream(sink);
    sink.write('before registration: s3cr3t-value\n');
    registerSecret('s3cr3t-value');
    sink.write('as a string: s3cr3t-value\n');
    sink.write(Buffer.from('as a buffer: s3cr3t-value\n'));
    expect(chunks.join('')).toBe(`before registration: s3cr3t-value\nas a string: ${MASK}\nas a buffer: ${MASK}\n`);
  });
});
