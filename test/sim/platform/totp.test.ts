import { describe, expect, it } from 'vitest';
import { base32Decode, totp, verifyTotp } from '../../../src/sim/platform/auth/totp.js';

// RFC 6238 appendix B, SHA-1 key "12345678901234567890", last 6 of the 8 digits.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('Doc1 §5.1: RFC 6238 test vectors (SHA-1, 30 s, 6 digits)', () => {
    expect(base32Decode(RFC_SECRET).toString()).toBe('12345678901234567890');
    expect(totp(RFC_SECRET, 59_000)).toBe('287082');
    expect(totp(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(totp(RFC_SECRET, 1_234_567_890_000)).toBe('005924');
    expect(totp(RFC_SECRET, 20_000_000_000_000)).toBe('353130');
  });

  it('accepts one step either side, not two', () => {
    const t = 1_700_000_000_000;
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, t - 30_000), t)).toBe(true);
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, t + 30_000), t)).toBe(true);
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, t + 60_000), t)).toBe(false);
  });
});
