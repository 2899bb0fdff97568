/**
 * Normalisation of the platform's loosely typed fields, shared by the client and the state
 * reader. Each helper accepts what the spec says occurs (numbers as numeric strings, ids as
 * strings or integers, fields with two spellings) and returns one canonical form, or
 * undefined when the value is absent or unusable (the caller decides whether that is an error).
 */

/** A JSON object, as far as the client can tell. */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `4.5`, `"4.5"`, `" 4 "` → number; `""`, `"abc"`, NaN, null, booleans → undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!text || !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** Like toNumber, but only integers (`"3"` → 3; `"3.5"` → undefined). */
export function toInteger(value: unknown): number | undefined {
  const n = toNumber(value);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
}

/** Ids are strings or integers depending on the endpoint (Doc2 §2.10): `0` → `"0"`, `"abc"` → `"abc"`. */
export function toId(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

/** `true`, `"true"`, `"1"`, `1` → true; `false`, `"false"`, `"0"`, `0` → false; else undefined. */
export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true' || value === 'True') return true;
  if (value === 0 || value === '0' || value === 'false' || value === 'False') return false;
  return undefined;
}

/** The `page` of a page-style response, typed as a string by some endpoints (Doc2 §4.4). */
export function pageNumber(value: unknown): number | undefined {
  const n = toInteger(value);
  return n !== undefined && n >= 1 ? n : undefined;
}

/** The first of `keys` that is present (not undefined/null) on `record`. */
export function firstOf(record: JsonObject, ...keys: string[]): unknown {
  for (const key of keys) {
    const value = record[key];
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}
