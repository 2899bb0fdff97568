import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * Decodes an RFC 4648 base32 secret as authenticator apps show it: case-insensitive,
 * spaces and dashes ignored, `=` padding optional. Throws a plain Error naming the problem
 * (never the secret) on an invalid character.
 */
export function decodeBase32(secret: string): Buffer {
  const clean = secret.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
  if (!clean) throw new Error('TOTP secret is empty');
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('TOTP secret is not valid base32 (letters A-Z and digits 2-7)');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** True when `secret` decodes as base32. */
export function isValidBase32(secret: string): boolean {
  try {
    return decodeBase32(secret).length > 0;
  } catch {
    return false;
  }
}

/** HOTP (RFC 4226) with HMAC-SHA-1 and dynamic truncation. */
function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(code).padStart(digits, '0');
}

/**
 * TOTP (RFC 6238) as the platform's authenticator mode expects it: SHA-1, 30 s steps,
 * 6 digits. `nowMs` is wall-clock time (TOTP is defined on Unix time, not a monotonic clock).
 */
export function totp(secret: string, nowMs: number = Date.now(), stepSeconds = 30, digits = 6): string {
  const counter = Math.floor(nowMs / 1000 / stepSeconds);
  return hotp(decodeBase32(secret), counter, digits);
}
