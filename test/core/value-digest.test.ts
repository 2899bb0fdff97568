import { createHash, createHmac, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestOf } from '../../src/core/canonical-json.js';
import { maskSecrets } from '../../src/core/secrets.js';
import {
  SCRYPT_COST,
  checkValueDigest,
  digestKeys,
  isCurrentForm,
  isPlainDigest,
  isValueDigest,
  keyIdOf,
  recordDigest,
  valueDigest,
  type DigestKeys,
} from '../../src/core/value-digest.js';

const KEY = 'k3y-for-tests-0123456789-abcdefghijklmnop';
const OTHER = 'another-key-for-tests-0123456789-qrstuvw';
const keyed = (current: string, previous?: string): DigestKeys =>
  digestKeys({
    SWITCHBOARD_DIGEST_KEY: current,
    ...(previous === undefined ? {} : { SWITCHBOARD_DIGEST_KEY_PREVIOUS: previous }),
  });
const NO_KEY: DigestKeys = digestKeys({});
const MOBILE = '+32470111222';

describe('value digests (docs/reliability.md: what the record and the plan tell)', () => {
  it('with a key: hmac-sha256:<key id>:<salt>:<mac>, HMAC-SHA-256 of "<salt>:<canonical JSON>", as an auditor recomputes it', () => {
    const keys = keyed(KEY);
    const digest = valueDigest(MOBILE, 'plan\u0000tenant/a/admin/x\u0000mobile', keys);
    const match = /^hmac-sha256:([0-9a-f]{8}):([0-9a-f]{32}):([0-9a-f]{64})$/.exec(digest);
    expect(match).not.toBeNull();
    const [, id, salt, mac] = match as unknown as [string, string, string, string];
    // `printf '%s:%s' "$SALT" '"+32470111222"' | openssl dgst -sha256 -hmac "$SWITCHBOARD_DIGEST_KEY"`
    expect(createHmac('sha256', KEY).update(`${salt}:"${MOBILE}"`).digest('hex')).toBe(mac);
    expect(id).toBe(createHmac('sha256', KEY).update('switchboard digest key id').digest('hex').slice(0, 8));
    expect(keyIdOf(digest)).toBe(id);
    // Neither the key nor the value in the digest, nor a plain hash of the value.
    expect(digest).not.toContain(KEY);
    expect(digest).not.toContain(createHash('sha256').update(MOBILE).digest('hex'));
  });

  it('without a key: scrypt:<N>:<r>:<p>:<salt>:<hash>, scrypt of the canonical JSON with the salt text, as an auditor recomputes it', () => {
    const digest = valueDigest(MOBILE, 'plan\u0000tenant/a/admin/x\u0000mobile', NO_KEY);
    const match = /^scrypt:(\d+):(\d+):(\d+):([0-9a-f]{32}):([0-9a-f]{64})$/.exec(digest);
    expect(match).not.toBeNull();
    const [, N, r, p, salt, hash] = match as unknown as [string, string, string, string, string, string];
    expect({ N: Number(N), r: Number(r), p: Number(p) }).toEqual(SCRYPT_COST);
    // Python: hashlib.scrypt(b'"+32470111222"', salt=SALT.encode(), n=N, r=r, p=p, dklen=32).hex()
    const expected = scryptSync(`"${MOBILE}"`, salt, 32, { N: Number(N), r: Number(r), p: Number(p) }).toString('hex');
    expect(hash).toBe(expected);
  });

  it('is the same for the same value at the same place, and differs for another value or another place', () => {
    for (const keys of [NO_KEY, keyed(KEY)]) {
      const at = 'plan\u0000tenant/a/admin/x\u0000mobile';
      expect(valueDigest(MOBILE, at, keys)).toBe(valueDigest(MOBILE, at, keys));
      expect(valueDigest('+32470111223', at, keys)).not.toBe(valueDigest(MOBILE, at, keys));
      // Two administrators with the same mobile: nothing says so.
      expect(valueDigest(MOBILE, 'plan\u0000tenant/a/admin/y\u0000mobile', keys)).not.toBe(
        valueDigest(MOBILE, at, keys),
      );
    }
    expect(valueDigest(MOBILE, 'x', keyed(OTHER))).not.toBe(valueDigest(MOBILE, 'x', keyed(KEY)));
  });

  it('takes a fresh salt for the record, and each record digest checks against its value only', () => {
    for (const keys of [NO_KEY, keyed(KEY)]) {
      const a = recordDigest(MOBILE, keys);
      const b = recordDigest(MOBILE, keys);
      expect(a).not.toBe(b);
      expect(checkValueDigest(MOBILE, a, keys)).toBe('same');
      expect(checkValueDigest(MOBILE, b, keys)).toBe('same');
      expect(checkValueDigest('+32470111223', a, keys)).toBe('differs');
      expect(checkValueDigest(null, recordDigest(null, keys), keys)).toBe('same');
      expect(checkValueDigest('', recordDigest(null, keys), keys)).toBe('differs');
    }
  });

  it('checks the plain sha256 digests of older records, and scrypt digests whatever the key', () => {
    expect(checkValueDigest(MOBILE, digestOf(MOBILE), NO_KEY)).toBe('same');
    expect(checkValueDigest('+32470111223', digestOf(MOBILE), keyed(KEY))).toBe('differs');
    const slow = recordDigest(MOBILE, NO_KEY);
    expect(checkValueDigest(MOBILE, slow, keyed(KEY))).toBe('same');
  });

  it("cannot check another key's digest (unverifiable, so the value is sent again), but checks the previous key's", () => {
    const old = recordDigest(MOBILE, keyed(OTHER));
    expect(checkValueDigest(MOBILE, old, NO_KEY)).toBe('unverifiable');
    expect(checkValueDigest(MOBILE, old, keyed(KEY))).toBe('unverifiable');
    expect(checkValueDigest(MOBILE, old, keyed(KEY, OTHER))).toBe('same');
    expect(checkValueDigest('+32470111223', old, keyed(KEY, OTHER))).toBe('differs');
  });

  it('refuses to run scrypt at a cost an edited record asks for beyond the limits, and anything it does not know', () => {
    const salt = '0'.repeat(32);
    const hash = 'a'.repeat(64);
    for (const digest of [
      `scrypt:${1 << 20}:8:1:${salt}:${hash}`, // 1 GiB of memory per check
      `scrypt:1000:8:1:${salt}:${hash}`, // N not a power of two
      `scrypt:256:64:1:${salt}:${hash}`,
      'md5:0123',
      '',
    ]) {
      expect(checkValueDigest(MOBILE, digest, NO_KEY)).toBe('unverifiable');
      expect(isValueDigest(digest)).toBe(false);
    }
  });

  it('says which forms are current (the next apply re-digests the others) and which a plan file may carry', () => {
    const slow = recordDigest(MOBILE, NO_KEY);
    const mine = recordDigest(MOBILE, keyed(KEY));
    const theirs = recordDigest(MOBILE, keyed(OTHER));
    expect(isCurrentForm(slow, NO_KEY)).toBe(true);
    expect(isCurrentForm(slow, keyed(KEY))).toBe(false);
    expect(isCurrentForm(mine, keyed(KEY))).toBe(true);
    expect(isCurrentForm(theirs, keyed(KEY, OTHER))).toBe(false);
    expect(isCurrentForm(digestOf(MOBILE), NO_KEY)).toBe(false);
    expect(isCurrentForm(`scrypt:16:8:1:${'0'.repeat(32)}:${'a'.repeat(64)}`, NO_KEY)).toBe(false);
    for (const d of [slow, mine, theirs]) expect(isValueDigest(d)).toBe(true);
    expect(isValueDigest(digestOf(MOBILE))).toBe(false);
    expect(isPlainDigest(digestOf(MOBILE))).toBe(true);
    expect(isPlainDigest(slow)).toBe(false);
  });

  it('refuses a short key naming the variable, and masks the key in every output', () => {
    expect(() => digestKeys({ SWITCHBOARD_DIGEST_KEY: 'short' })).toThrow(
      expect.objectContaining({ code: 'SB_DIGEST_KEY', message: expect.stringContaining('SWITCHBOARD_DIGEST_KEY') }),
    );
    expect(() => digestKeys({ SWITCHBOARD_DIGEST_KEY: KEY, SWITCHBOARD_DIGEST_KEY_PREVIOUS: 'short' })).toThrow(
      expect.objectContaining({ message: expect.stringContaining('SWITCHBOARD_DIGEST_KEY_PREVIOUS') }),
    );
    keyed(KEY);
    expect(maskSecrets(`key=${KEY}`)).toBe('key=[redacted]');
  });
});
