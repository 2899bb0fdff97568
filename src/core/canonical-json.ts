/**
 * Canonical JSON (RFC 8785, the JSON Canonicalization Scheme) and the digests built on it:
 * the one canonical form of the project. Everything that is fingerprinted (a live object's
 * `liveDigest`, a sensitive value's digest, the plan file's own `digest`) and every copy of
 * a value whose key order must not depend on where it came from uses these functions, so a
 * digest computed by `plan`, by `apply --plan` days later, or by an auditor's own RFC 8785
 * tool agree whatever order an API or a YAML file gave the keys in.
 */
import { createHash } from 'node:crypto';

/**
 * RFC 8785 §3.2.3: object members sorted by their names' UTF-16 code units, which is what
 * `Array.prototype.sort` does with strings and no comparator. Integer-like names ("10",
 * "2") sort as text, unlike a JavaScript object's own property order.
 */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The RFC 8785 canonical JSON text of `value`: no whitespace, object members sorted by
 * {@link compareKeys}, arrays in their order, strings and numbers serialised as ECMAScript's
 * JSON.stringify does (RFC 8785 §3.2.2: `-0` is `0`, `1e+30`, `0.002`). A JavaScript value
 * is taken in its JSON form first, by JSON.stringify's rules: `toJSON` is honoured,
 * `undefined`, functions and symbols are left out of objects and become `null` in arrays,
 * and non-finite numbers become `null`. Throws on cycles and bigints, which have no JSON form.
 */
export function canonicalJson(value: unknown): string {
  // Fast path (a 100,000-change plan in a third of the time): JSON.stringify itself, given
  // each object with its keys in canonical order. It cannot reorder integer-like keys
  // ("10", "2"), which JavaScript always lists first: a value holding one is written by hand.
  let integerKeys = false;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_key, item: unknown) => {
      if (integerKeys || typeof item !== 'object' || item === null || Array.isArray(item)) return item;
      const keys = Object.keys(item);
      if (keys.length < 2) return item;
      if (keys.some((k) => INTEGER_KEY.test(k))) {
        integerKeys = true;
        return item;
      }
      if (isSorted(keys)) return item;
      const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const key of keys.sort(compareKeys)) sorted[key] = (item as Record<string, unknown>)[key];
      return sorted;
    });
  } catch (error) {
    // The hand-written form says why (a cycle, a bigint) in its own words.
    if (!(error instanceof TypeError)) throw error;
  }
  if (text !== undefined && !integerKeys) return text;
  const out: string[] = [];
  write(value, out, new Set<object>());
  return out.join('');
}

/** Keys JavaScript lists before all others, in numeric order (array indices). */
const INTEGER_KEY = /^(?:0|[1-9]\d*)$/;

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) > (keys[i] as string)) return false;
  return true;
}

/** `sha256:<64 hex>` of the UTF-8 bytes of `canonicalJson(value)`. */
export function digestOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

/** True for the shape `digestOf` returns. */
export function isDigest(value: unknown): value is string {
  return typeof value === 'string' && DIGEST_RE.test(value);
}

const DIGEST_RE = /^sha256:[0-9a-f]{64}$/;

/**
 * A copy of `value` whose objects list their keys in canonical order at every depth, for
 * data that is shown or stored as JSON (a plan's before/after, a manifest's nested values).
 * The copy's own key order follows {@link compareKeys} except where JavaScript puts
 * integer-like keys first; {@link canonicalJson} does not depend on it. A key named
 * `__proto__` stays data.
 */
export function sortKeysDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => sortKeysDeep(item)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  // fromEntries defines properties, so a live key named `__proto__` stays data.
  return Object.fromEntries(
    Object.keys(record)
      .sort(compareKeys)
      .map((key) => [key, sortKeysDeep(record[key])]),
  ) as T;
}

function write(value: unknown, out: string[], ancestors: Set<object>): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      // ECMAScript's QuoteJSONString is RFC 8785 §3.2.2.2's string serialisation.
      out.push(JSON.stringify(value));
      return;
    case 'number':
      // Number.prototype.toString is RFC 8785 §3.2.2.3's; String(-0) is "0".
      out.push(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'bigint':
      throw new TypeError('canonicalJson: a bigint has no JSON form');
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
  if (ancestors.has(value)) throw new TypeError('canonicalJson: the value contains a cycle');
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
    const keys = Object.keys(record).sort(compareKeys);
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
