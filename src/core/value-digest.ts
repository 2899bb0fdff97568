/**
 * Digests of values a dictionary must not reverse: write-only and sensitive values in the
 * last-applied record, a plan's `sensitiveDigests`, and the `${VAR}` values inside the
 * manifests' digest. A plain SHA-256 of a mobile number or a first name is reversed in
 * seconds by hashing every candidate; these digests are either keyed or salted and slow.
 *
 * - `hmac-sha256:<key id>:<salt>:<mac>` when `SWITCHBOARD_DIGEST_KEY` is set: HMAC-SHA-256
 *   with the key over `<salt>:<canonical JSON of the value>`. Without the key nothing can be
 *   checked, so nothing can be guessed. The key id (8 hex) names the key, never reveals it.
 * - `scrypt:<N>:<r>:<p>:<salt>:<hash>` without a key: scrypt (RFC 7914) of the canonical
 *   JSON, with the salt's text as salt, 32 bytes. Each guess costs what one check costs here.
 * - `sha256:<64 hex>`, the form records held before: read and compared, never written.
 *
 * Salts are 32 hex characters. A digest that must come out the same twice (a plan's, the
 * manifests') takes its salt from a context that names where the value sits
 * ({@link valueDigest}); a digest kept in the record takes a fresh random one
 * ({@link recordDigest}). docs/design-decisions.md says why, docs/reliability.md what an
 * attacker learns from each form.
 */
import { createHash, createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { SwitchboardError } from './errors.js';
import { registerSecret } from './secrets.js';

/** The environment variable holding the key (at least {@link MIN_KEY_LENGTH} characters). */
export const DIGEST_KEY_ENV = 'SWITCHBOARD_DIGEST_KEY';
/** The key before a rotation: digests made with it are still checked, and re-made with the new one. */
export const PREVIOUS_DIGEST_KEY_ENV = 'SWITCHBOARD_DIGEST_KEY_PREVIOUS';
const MIN_KEY_LENGTH = 32;

/**
 * The scrypt cost written without a key: N = 2^6, r = 8 (64 KiB) takes 0.13 ms per value on
 * the project's 2-core machine (idle), so comparing 10,000 administrators (30,000 values)
 * adds about 4 s to a plan, the order of the plan's own CPU for 10,000 objects; a guess
 * costs an attacker as much (docs/reliability.md has the figures, and why a key is better).
 */
export const SCRYPT_COST = { N: 64, r: 8, p: 1 } as const;
/** What a digest read from a file may ask for: more would let an edited record stall a plan. */
const SCRYPT_LIMITS = { N: 1 << 16, r: 16, p: 4 } as const;

export type DigestCheck = 'same' | 'differs' | 'unverifiable';

interface DigestKey {
  id: string;
  secret: Buffer;
}

/** The keys of this process: the one digests are made with, and those they may still be checked with. */
export interface DigestKeys {
  readonly current: DigestKey | undefined;
  readonly previous: readonly DigestKey[];
}

const HEX32 = '[0-9a-f]{32}';
const HEX64 = '[0-9a-f]{64}';
const HMAC_RE = new RegExp(`^hmac-sha256:([0-9a-f]{8}):(${HEX32}):(${HEX64})$`);
const SCRYPT_RE = new RegExp(`^scrypt:([1-9][0-9]{0,5}):([1-9][0-9]?):([1-9]):(${HEX32}):(${HEX64})$`);
const SHA256_RE = new RegExp(`^sha256:(${HEX64})$`);

let cachedKeys: { text: string; keys: DigestKeys } | undefined;

/**
 * The keys from `SWITCHBOARD_DIGEST_KEY` (and `SWITCHBOARD_DIGEST_KEY_PREVIOUS`), read when
 * asked (a test or an embedding program may set them between runs) and registered as
 * secrets. A key shorter than {@link MIN_KEY_LENGTH} characters is refused (`SB_DIGEST_KEY`).
 */
export function digestKeys(env: NodeJS.ProcessEnv = process.env): DigestKeys {
  const current = env[DIGEST_KEY_ENV] || undefined;
  const previous = env[PREVIOUS_DIGEST_KEY_ENV] || undefined;
  const text = `${current ?? ''}\u0000${previous ?? ''}`;
  if (cachedKeys?.text === text) return cachedKeys.keys;
  const keys: DigestKeys = {
    current: current === undefined ? undefined : keyOf(current, DIGEST_KEY_ENV),
    previous: previous === undefined ? [] : [keyOf(previous, PREVIOUS_DIGEST_KEY_ENV)],
  };
  cachedKeys = { text, keys };
  return keys;
}

function keyOf(text: string, variable: string): DigestKey {
  const secret = Buffer.from(checkedKeyText(text, variable, 'SB_DIGEST_KEY'), 'utf8');
  return { id: createHmac('sha256', secret).update('switchboard digest key id').digest('hex').slice(0, 8), secret };
}

/**
 * A key given in the environment variable `variable`: registered as a secret (it never
 * reaches a log), and refused with `code` when shorter than {@link MIN_KEY_LENGTH}
 * characters, a configuration error naming the variable, never a silently weak key.
 * `alternative`: what else the user may do, said after the advice.
 */
export function checkedKeyText(text: string, variable: string, code: string, alternative = ''): string {
  registerSecret(text);
  if (text.length < MIN_KEY_LENGTH) {
    throw new SwitchboardError(
      code,
      `${variable} is ${text.length} characters long: use at least ${MIN_KEY_LENGTH} random characters ` +
        `(for example the output of \`openssl rand -base64 32\`)${alternative}`,
    );
  }
  return text;
}

/**
 * The digest of `value` at `context` (where it sits: a plan's address and field, a
 * manifest's document and pointer): the same value at the same context gives the same
 * digest in every run with the same key (or with none), another value another digest. For
 * digests that are compared by equality: a plan's `sensitiveDigests`, the manifests' digest.
 */
export function valueDigest(value: unknown, context: string, keys: DigestKeys = digestKeys()): string {
  const json = canonicalJson(value);
  const memoKey = `${tagOf(keys)}\u0000${context}\u0000${json}`;
  const known = made.get(memoKey);
  if (known !== undefined) return known;
  const salt = createHash('sha256').update(`switchboard value digest salt\u0000${context}`).digest('hex').slice(0, 32);
  const digest = make(json, salt, keys);
  remember(made, memoKey, digest);
  return digest;
}

/** A digest of `value` with a fresh random salt, in the form this process writes: for the last-applied record. */
export function recordDigest(value: unknown, keys: DigestKeys = digestKeys()): string {
  const json = canonicalJson(value);
  const digest = make(json, randomBytes(16).toString('hex'), keys);
  remember(checked, `${tagOf(keys)}\u0000${digest}\u0000${json}`, true);
  return digest;
}

function make(json: string, salt: string, keys: DigestKeys): string {
  if (keys.current) return `hmac-sha256:${keys.current.id}:${salt}:${mac(keys.current, salt, json)}`;
  const { N, r, p } = SCRYPT_COST;
  return `scrypt:${N}:${r}:${p}:${salt}:${scrypt(json, salt, N, r, p)}`;
}

function mac(key: DigestKey, salt: string, json: string): string {
  return createHmac('sha256', key.secret).update(`${salt}:${json}`).digest('hex');
}

function scrypt(json: string, salt: string, N: number, r: number, p: number): string {
  return scryptSync(json, salt, 32, { N, r, p, maxmem: 256 * N * r * p + (1 << 20) }).toString('hex');
}

/**
 * Whether `digest` (any form this module reads) is the digest of `value`. `unverifiable`: a
 * keyed digest made with a key this process does not hold, or a scrypt digest whose cost is
 * beyond what a record may ask for; the caller treats the value as changed.
 */
export function checkValueDigest(value: unknown, digest: string, keys: DigestKeys = digestKeys()): DigestCheck {
  const json = canonicalJson(value);
  const memoKey = `${tagOf(keys)}\u0000${digest}\u0000${json}`;
  const known = checked.get(memoKey);
  if (known !== undefined) return known ? 'same' : 'differs';
  const expected = expectedHash(json, digest, keys);
  if (expected === undefined) return 'unverifiable';
  const same = timingSafeEqual(Buffer.from(expected.computed, 'hex'), Buffer.from(expected.recorded, 'hex'));
  remember(checked, memoKey, same);
  return same ? 'same' : 'differs';
}

function expectedHash(
  json: string,
  digest: string,
  keys: DigestKeys,
): { computed: string; recorded: string } | undefined {
  const hmac = HMAC_RE.exec(digest);
  if (hmac) {
    const [, id, salt, recorded] = hmac as unknown as [string, string, string, string];
    const key = [keys.current, ...keys.previous].find((k) => k?.id === id);
    return key ? { computed: mac(key, salt, json), recorded } : undefined;
  }
  const slow = SCRYPT_RE.exec(digest);
  if (slow) {
    const [, n, r, p, salt, recorded] = slow as unknown as [string, string, string, string, string, string];
    const cost = { N: Number(n), r: Number(r), p: Number(p) };
    if (!withinLimits(cost)) return undefined;
    return { computed: scrypt(json, salt, cost.N, cost.r, cost.p), recorded };
  }
  const plain = SHA256_RE.exec(digest);
  if (plain) return { computed: createHash('sha256').update(json).digest('hex'), recorded: plain[1] as string };
  return undefined;
}

function withinLimits({ N, r, p }: { N: number; r: number; p: number }): boolean {
  // scrypt wants N a power of two above 1.
  return N > 1 && (N & (N - 1)) === 0 && N <= SCRYPT_LIMITS.N && r <= SCRYPT_LIMITS.r && p <= SCRYPT_LIMITS.p;
}

/**
 * Whether a recorded digest is in the form this process writes: keyed with the current key
 * when there is one, else scrypt at {@link SCRYPT_COST}. Any other (a plain `sha256:`, a
 * scrypt digest once a key is set, a previous key's) is made again by the next apply.
 */
export function isCurrentForm(digest: string, keys: DigestKeys = digestKeys()): boolean {
  if (keys.current) return HMAC_RE.exec(digest)?.[1] === keys.current.id;
  const { N, r, p } = SCRYPT_COST;
  return digest.startsWith(`scrypt:${N}:${r}:${p}:`) && SCRYPT_RE.test(digest);
}

/** A digest a plan file may carry for a sensitive value: `hmac-sha256:` or `scrypt:` (within the limits). */
export function isValueDigest(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (HMAC_RE.test(value)) return true;
  const slow = SCRYPT_RE.exec(value);
  return slow !== null && withinLimits({ N: Number(slow[1]), r: Number(slow[2]), p: Number(slow[3]) });
}

/** True for the unsalted `sha256:` form records held before keyed and salted digests. */
export function isPlainDigest(value: string): boolean {
  return SHA256_RE.test(value);
}

/** The key id of a keyed digest (`hmac-sha256:<id>:…`), else undefined. */
export function keyIdOf(digest: string): string | undefined {
  return HMAC_RE.exec(digest)?.[1];
}

// One plan compares each recorded value once, and its apply checks and keeps the same
// digests: remembered within the process (values stay in memory, as the manifests do).
const MEMO_LIMIT = 200_000;
const made = new Map<string, string>();
const checked = new Map<string, boolean>();

/** What a check's answer depends on besides the digest and the value: the keys held. */
function tagOf(keys: DigestKeys): string {
  return [keys.current?.id ?? '-', ...keys.previous.map((k) => k.id)].join(',');
}

function remember<T>(memo: Map<string, T>, key: string, value: T): void {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
}
