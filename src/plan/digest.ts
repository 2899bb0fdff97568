/**
 * Canonical JSON and digests. One canonical form for everything the plan fingerprints
 * (`liveDigest`, the manifest digest, sensitive digests), so a digest computed by `plan`
 * and one computed by `apply --plan` agree whatever order the API returned the keys in.
 */
import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted (by UTF-16 code unit, like `Array.prototype.sort`) and no
 * whitespace; arrays keep their order. Follows `JSON.stringify` for everything else:
 * `toJSON` is honoured, `undefined` / functions / symbols are left out of objects and
 * become `null` in arrays, non-finite numbers become `null`. Throws on cycles and bigints,
 * which have no JSON form.
 */
export function stableStringify(value: unknown): string {
  const out: string[] = [];
  write(value, out, new Set<object>());
  return out.join('');
}

/** `sha256:<64 hex>` of `stableStringify(value)`. */
export function digestOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(stableStringify(value)).digest('hex')}`;
}

/** True for the shape `digestOf` returns. */
export function isDigest(value: unknown): value is string {
  return typeof value === 'string' && DIGEST_RE.test(value);
}

const DIGEST_RE = /^sha256:[0-9a-f]{64}$/;

function write(value: unknown, out: string[], ancestors: Set<object>): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      out.push(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'bigint':
      throw new TypeError('stableStringify: a bigint has no JSON form');
    case 'object':
      writeObject(value, out, ancestors);
      return;
    default:
      // undefined, function, symbol at the top level or in an array
      out.push('null');
  }
}

function writeObject(value: object, out: string[], ancestors: Set<object>): void {
  const withToJson = value as { toJSON?: unknown };
  if (typeof withToJson.toJSON === 'function') {
    write((withToJson.toJSON as () => unknown).call(value), out, ancestors);
    return;
  }
  if (ancestors.has(value)) throw new TypeError('stableStringify: the value contains a cycle');
  ancestors.add(value);
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      write(value[i], out, ancestors);
    }
    out.push(']');
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    out.push('{');
    let first = true;
    for (const key of keys) {
      const item = record[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      write(item, out, ancestors);
    }
    out.push('}');
  }
  ancestors.delete(value);
}
