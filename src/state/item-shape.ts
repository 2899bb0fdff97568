import type { FieldType, KindDefinition, LiveParts } from '../kinds/types.js';

/**
 * Whether a live object read from a list answer can be what the kind's field table says it
 * is. A value of an impossible type (an object where a name belongs, a list where a number
 * belongs) is a misread answer (a broken proxy, a platform bug): planning from it would turn
 * a live object into a "missing" one and create a duplicate, so the read fails instead.
 * Checked after the kind's own conversion (`fromApi`), so the API's spellings (numbers as
 * strings, a postal code served as an object) stay accepted.
 */
export function liveShapeProblem(kind: KindDefinition, item: unknown, parts: LiveParts): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return `a ${kind.kind} item is ${describe(item)}, not an object`;
  if (typeof parts.id !== 'string' && typeof parts.id !== 'number') return `the ${kind.kind} id is ${describe(parts.id)}`;
  if (String(parts.id).includes('[object ')) return `the ${kind.kind} id is not a scalar`;
  const identity = kind.identity(parts.fields);
  if (/\bundefined\b|\[object /.test(identity)) return `the ${kind.kind} identity cannot be formed from the answer ("${identity}")`;
  const record = item as Record<string, unknown>;
  for (const spec of kind.fields) {
    if (spec.change === 'writeOnly' || spec.normalize || !(spec.name in parts.fields)) continue;
    const value = parts.fields[spec.name];
    if (value === null || value === undefined) continue;
    const raw = record[spec.api ?? spec.name];
    if (fits(spec.type, value, raw)) continue;
    // A nested field (an address's data) has no raw value here: describe what the JSON text held.
    const shown = raw ?? (typeof value === 'string' && isJsonContainer(value) ? (JSON.parse(value) as unknown) : value);
    return `${kind.kind} "${spec.api ?? spec.name}" is ${describe(shown)}, expected ${spec.type}`;
  }
  return undefined;
}

function fits(type: FieldType, value: unknown, raw: unknown): boolean {
  switch (type) {
    case 'string':
      // normalizeValue turns an object into its JSON text: that is a misread, not a name.
      return typeof value === 'string' && !(typeof raw === 'object' && raw !== null && value === JSON.stringify(raw)) && !isJsonContainer(value);
    case 'number':
    case 'integer':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'set':
    case 'list':
      // Lists hold one sort of thing: one object among strings (or the reverse) is a misread.
      return Array.isArray(value) && new Set(value.map((v) => (typeof v === 'object' && v !== null ? 'object' : 'scalar'))).size <= 1;
    case 'object':
      return true;
  }
}

function isJsonContainer(text: string): boolean {
  if (!/^[[{]/.test(text)) return false;
  try {
    return typeof JSON.parse(text) === 'object';
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
