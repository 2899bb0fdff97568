import { canonicalJson } from '../core/canonical-json.js';
import { fieldSpec, normalizeField } from '../kinds/fields.js';
import { hasKind, kindOf } from '../kinds/index.js';
import type { DesiredObject, DesiredSet, ParentRef } from '../manifest/index.js';
import { SENSITIVE } from '../plan/types.js';
import type { FieldDifference } from './types.js';

/** One field of an object as compared. */
export interface ComparedField {
  /** The normalised value: never shown when the field is sensitive on either side. */
  value: unknown;
  /** What is compared: the value's canonical JSON (RFC 8785). */
  key: string;
  sensitive: boolean;
}

/**
 * The fields of an object as compare sees them. The declared fields, normalised as the
 * planner normalises them (the kind's field table: numbers written as text, sets in any
 * order); sensitive ones (from `${VAR}`, or the field table's `sensitive`) are compared
 * like the others and shown as `(sensitive)` only.
 * A document also has what its `metadata` says beyond its name: `metadata.parent` (the
 * parent's address, or `{uuid}`), `metadata.uuid`, `metadata.protect`, `metadata.prune`.
 * And any object has `emptyCollections`: collections it declares with nothing in them,
 * which matter (with prune, an empty declared collection is emptied on the platform) and
 * which no child object shows.
 */
export function comparedFields(object: DesiredObject, set: DesiredSet): Map<string, ComparedField> {
  const kind = hasKind(object.kind) ? kindOf(object.kind) : undefined;
  const out = new Map<string, ComparedField>();
  for (const [name, raw] of Object.entries(object.fields)) {
    const spec = kind && fieldSpec(kind.fields, name);
    const value = spec ? normalizeField(spec, raw) : raw;
    const sensitive = object.sensitiveFields.includes(name) || spec?.sensitive === true;
    out.set(name, compared(value, sensitive));
  }
  if (object.address === object.documentAddress) {
    const parent = object.parentAddress ?? (object.parentRef ? parentText(object.parentRef) : undefined);
    if (parent !== undefined) out.set('metadata.parent', compared(parent));
    if (object.pinnedId !== undefined) out.set('metadata.uuid', compared(object.pinnedId));
    if (object.protect) out.set('metadata.protect', compared(true));
    if (object.prune) out.set('metadata.prune', compared(true));
  }
  const empty = emptyCollections(object, set);
  if (empty.length > 0) out.set('emptyCollections', compared(empty));
  return out;
}

function compared(value: unknown, sensitive = false): ComparedField {
  return { value, key: canonicalJson(value ?? null), sensitive };
}

/** A parent the set does not declare, as an address (by name) or `<kind> {uuid: …}`. */
function parentText(ref: ParentRef): string {
  const word = ref.kind.toLowerCase();
  return 'uuid' in ref ? `${word} {uuid: ${ref.uuid}}` : `${word}/${ref.name}`;
}

function emptyCollections(object: DesiredObject, set: DesiredSet): string[] {
  if (object.declaredCollections.length === 0) return [];
  const filled = new Set<string>();
  for (const child of set.children(object.address)) {
    const collection = hasKind(child.kind) ? kindOf(child.kind).collection : undefined;
    if (collection) filled.add(collection);
  }
  for (const table of set.routingTables) if (table.table === object && table.rows.length > 0) filled.add('records');
  return object.declaredCollections.filter((c) => !filled.has(c)).sort();
}

/** The fields that differ between two versions of one object, in field order (A's, then B's new ones). */
export function fieldDifferences(
  before: ReadonlyMap<string, ComparedField>,
  after: ReadonlyMap<string, ComparedField>,
): FieldDifference[] {
  const out: FieldDifference[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(name);
    const b = after.get(name);
    if (a && b && a.key === b.key) continue;
    out.push(difference(name, a, b));
  }
  return out;
}

/** Every field of an object that exists on one side only (added: `after`; removed: `before`). */
export function allFields(fields: ReadonlyMap<string, ComparedField>, side: 'before' | 'after'): FieldDifference[] {
  return [...fields].map(([name, f]) =>
    side === 'after' ? difference(name, undefined, f) : difference(name, f, undefined),
  );
}

/** A sensitive field (on either side) shows SENSITIVE on both: a value in clear could be the secret itself. */
function difference(name: string, a: ComparedField | undefined, b: ComparedField | undefined): FieldDifference {
  const sensitive = a?.sensitive === true || b?.sensitive === true;
  const out: FieldDifference = { field: name };
  if (a) out.before = sensitive ? SENSITIVE : a.value;
  if (b) out.after = sensitive ? SENSITIVE : b.value;
  if (sensitive) out.sensitive = true;
  return out;
}
