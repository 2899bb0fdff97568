import type { FieldSpec, FieldType } from './types.js';

/**
 * Normalisation shared by every kind: both the declared and the live value go through
 * `normalizeValue` before they are compared, so the API's spellings (numbers as strings,
 * booleans as "true", lists in another order) never show up as changes.
 */
export function normalizeValue(type: FieldType, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'number':
    case 'integer':
      return toNumber(value);
    case 'boolean':
      return toBoolean(value);
    case 'set':
      return Array.isArray(value) ? [...value].map(normalizeScalar).sort(compareScalars) : value;
    case 'list':
      return Array.isArray(value) ? value.map(normalizeScalar) : value;
    case 'object':
      return value;
  }
}

function toNumber(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

function toBoolean(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function normalizeScalar(value: unknown): unknown {
  return value === undefined ? null : value;
}

function compareScalars(a: unknown, b: unknown): number {
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A field's normalisation: its own when it has one, else its type's. */
export function normalizeField(spec: FieldSpec, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return spec.normalize ? spec.normalize(value) : normalizeValue(spec.type, value);
}

/** Reads the table's fields out of an API item, renaming API names to manifest names. */
export function fieldsFromApi(specs: readonly FieldSpec[], item: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const spec of specs) {
    if (spec.change === 'writeOnly') continue;
    const raw = item[spec.api ?? spec.name];
    if (raw !== undefined) fields[spec.name] = normalizeField(spec, raw);
  }
  return fields;
}

/** Builds a request body from declared fields, renaming manifest names to API names. */
export function bodyFromFields(
  specs: readonly FieldSpec[],
  fields: Record<string, unknown>,
  include: (spec: FieldSpec) => boolean = () => true,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const spec of specs) {
    if (!(spec.name in fields) || !include(spec)) continue;
    body[spec.api ?? spec.name] = fields[spec.name];
  }
  return body;
}

/** The fields an update may send (updatable and write-only ones the manifest declares). */
export function updatableBody(specs: readonly FieldSpec[], fields: Record<string, unknown>): Record<string, unknown> {
  return bodyFromFields(specs, fields, (spec) => spec.change !== 'replace');
}

/** A field spec list lookup by manifest name. */
export function fieldSpec(specs: readonly FieldSpec[], name: string): FieldSpec | undefined {
  return specs.find((spec) => spec.name === name);
}

/** Placeholder for the id of an object that a earlier change of the same run creates. */
export function pendingId(address: string): string {
  return `{id:${address}}`;
}

/** The path segment for an ancestor's id: encoded, except a pending-id placeholder. */
export function pathId(ids: Readonly<Record<string, string>>, kind: string): string {
  const id = ids[kind];
  if (id === undefined) throw new Error(`no ${kind} id in the id chain`);
  return id.startsWith('{id:') || !needsEncoding(id) ? id : encodeURIComponent(id);
}

/** What `encodeURIComponent` leaves as it is (its unreserved characters), and nothing else. */
const UNRESERVED = /^[A-Za-z0-9\-_.!~*'()]*$/;

/**
 * Whether `encodeURIComponent` would change `text`: a uuid or a number never does, and
 * testing costs less than the new string it makes (a national export builds ~750,000
 * paths from ids).
 */
export function needsEncoding(text: string): boolean {
  return !UNRESERVED.test(text);
}
