import { ApiError, ApiErrorCode } from '../api/errors.js';
import { isPlainObject } from '../core/values.js';
import type { ElementType, FieldType, KindDefinition, LiveParts, ValueShape } from '../kinds/types.js';

/**
 * Throws SB_API_BAD_RESPONSE naming the GET when a read item cannot be what the kind says
 * (see {@link liveShapeProblem}): the reader, apply's lookups and export never act on a misread.
 */
export function assertReadable(
  kind: KindDefinition,
  item: unknown,
  parts: LiveParts,
  request: { path: string; role?: string | undefined; status?: number },
): void {
  const problem = liveShapeProblem(kind, item, parts);
  if (!problem) return;
  throw new ApiError({
    code: ApiErrorCode.badResponse,
    method: 'GET',
    path: request.path,
    status: request.status ?? 200,
    retryable: false,
    detail: `the answer cannot be read: ${problem}`,
    ...(request.role ? { role: request.role } : {}),
  });
}

/**
 * Whether a live object read from a list answer can be what the kind's field table says it
 * is. A value of an impossible type (an object where a name belongs, a list where a number
 * belongs) is a misread answer (a broken proxy, a platform bug): planning from it would turn
 * a live object into a "missing" one and create a duplicate, so the read fails instead.
 * Checked after the kind's own conversion (`fromApi`), so the API's spellings (numbers as
 * strings, a postal code served as an object) stay accepted.
 */
export function liveShapeProblem(kind: KindDefinition, item: unknown, parts: LiveParts): string | undefined {
  if (!isPlainObject(item)) return `a ${kind.kind} item is ${describe(item)}, not an object`;
  if (typeof parts.id !== 'string' && typeof parts.id !== 'number')
    return `the ${kind.kind} id is ${describe(parts.id)}`;
  if (String(parts.id).includes('[object ')) return `the ${kind.kind} id is not a scalar`;
  const identity = kind.identity(parts.fields);
  if (/\bundefined\b|\[object /.test(identity))
    return `the ${kind.kind} identity cannot be formed from the answer ("${identity}")`;
  const own = kind.itemProblem?.(item);
  if (own) return `${kind.kind} ${own}`;
  for (const spec of kind.fields) {
    const raw = item[spec.api ?? spec.name];
    const contentProblem =
      (spec.elements && elementsProblem(raw, spec.elements)) || (spec.entries && entriesProblem(raw, spec.entries));
    if (contentProblem)
      return `${kind.kind} "${spec.api ?? spec.name}"${contentProblem.startsWith('is ') ? ' ' : ''}${contentProblem}`;
    // A list is a list whatever a normalize makes of it afterwards (it passes anything else through unseen).
    if ((spec.type === 'set' || spec.type === 'list') && raw !== undefined && raw !== null && !Array.isArray(raw))
      return `${kind.kind} "${spec.api ?? spec.name}" is ${describe(raw)}, expected ${spec.type}`;
    if (spec.change === 'writeOnly' || spec.normalize || !(spec.name in parts.fields)) continue;
    const value = parts.fields[spec.name];
    if (value === null || value === undefined) continue;
    if (fits(spec.type, value, raw)) continue;
    // A nested field (an address's data) has no raw value here: describe what the JSON text held.
    const shown = raw ?? (typeof value === 'string' && isJsonContainer(value) ? (JSON.parse(value) as unknown) : value);
    return `${kind.kind} "${spec.api ?? spec.name}" is ${describe(shown)}, expected ${spec.type}`;
  }
  return undefined;
}

/** Why a list's elements are not what the field table says (absent or null lists are left to the field check). */
function elementsProblem(raw: unknown, shape: ValueShape): string | undefined {
  if (!Array.isArray(raw)) return undefined;
  for (let i = 0; i < raw.length; i++) {
    const problem = valueProblem(raw[i], shape);
    if (problem) return `[${i}]${problem}`;
  }
  return undefined;
}

/** Why an object's values (a map of one type, or named fields) are not what the field table says. */
function entriesProblem(raw: unknown, shape: ValueShape): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isPlainObject(raw)) return `is ${describe(raw)}, expected an object`;
  if (typeof shape !== 'string') return valueProblem(raw, shape);
  for (const [key, value] of Object.entries(raw)) {
    if (value !== null && !elementFits(shape, value)) return `.${key} is ${describe(value)}, expected ${shape}`;
  }
  return undefined;
}

/**
 * Why one value does not have the shape: a scalar type, or an object with these fields;
 * the answer starts with the field (`.name is a list, expected string`) or with ` is`.
 */
export function valueProblem(value: unknown, shape: ValueShape): string | undefined {
  if (typeof shape === 'string')
    return elementFits(shape, value) ? undefined : ` is ${describe(value)}, expected ${shape}`;
  if (!isPlainObject(value)) return ` is ${describe(value)}, expected an object`;
  for (const [field, declared] of Object.entries(shape)) {
    const optional = declared.endsWith('?');
    const fieldValue = (value as Record<string, unknown>)[field];
    if (optional && (fieldValue === undefined || fieldValue === null)) continue;
    const type = declared.replace('?', '') as ElementType;
    if (!elementFits(type, fieldValue))
      return `.${field} is ${fieldValue === undefined ? 'missing' : describe(fieldValue)}, expected ${type}`;
  }
  return undefined;
}

function elementFits(type: ElementType, value: unknown): boolean {
  switch (type) {
    case 'integer':
      return (
        (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value))
      );
    case 'scalar':
      return typeof value === 'string' || typeof value === 'number';
    case 'object':
      return isPlainObject(value);
    default:
      return typeof value === type;
  }
}

function fits(type: FieldType, value: unknown, raw: unknown): boolean {
  switch (type) {
    case 'string':
      // normalizeValue turns an object into its JSON text: that is a misread, not a name.
      return (
        typeof value === 'string' &&
        !(typeof raw === 'object' && raw !== null && value === JSON.stringify(raw)) &&
        // A conversion that fed an object to String() (a name looked up from a misread id);
        // a string the API served as such may say anything.
        !(typeof raw !== 'string' && value.includes('[object ')) &&
        !isJsonContainer(value)
      );
    case 'number':
    case 'integer':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'set':
    case 'list':
      // Lists hold one sort of thing: one object among strings (or the reverse) is a misread.
      return (
        Array.isArray(value) &&
        new Set(value.map((v) => (typeof v === 'object' && v !== null ? 'object' : 'scalar'))).size <= 1
      );
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
