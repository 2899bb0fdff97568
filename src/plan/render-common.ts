/**
 * Helpers shared by the renderers. Everything here works from the plan's data alone
 * (addresses, before/after, patch, sensitiveDigests): no kind is ever named.
 */
import { addressPairs, parentAddressOf } from '../kinds/address-path.js';
import { kinds } from '../kinds/index.js';
import { canonicalJson, compareKeys } from '../core/canonical-json.js';
import { safeText } from '../core/safe-text.js';
import { SENSITIVE, WRITE_ONLY, isPlaceholder, type CapacityRow, type Change, type PatchOperation } from './types.js';

export { safeText } from '../core/safe-text.js';

/**
 * A value as one line of canonical JSON (keys sorted, as the plan file holds them), made
 * safe for display.
 * The plan's markers (`(sensitive)`, `(write-only)`) print bare: they are not values.
 */
export function compact(value: unknown): string {
  if (value === SENSITIVE || value === WRITE_ONLY) return value;
  return safeText(canonicalJson(value));
}

/** The top-level field an RFC 6902 path points into (`/admins/0/email` → `admins`). */
export function topField(path: string): string | undefined {
  if (!path.startsWith('/')) return undefined;
  const end = path.indexOf('/', 1);
  const token = end === -1 ? path.slice(1) : path.slice(1, end);
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The change with every field named in `sensitiveDigests` masked in before, after and the
 * patch (markers and null stay as they are): defence in depth, so a renderer never prints
 * a secret even if a planner bug left one in clear.
 */
export function redactChange(change: Change): Change {
  const digests = change.sensitiveDigests;
  if (!digests) return change;
  const names = Object.keys(digests);
  if (names.length === 0) return change;
  const mask = (side: Record<string, unknown> | null): Record<string, unknown> | null => {
    if (!side || !names.some((n) => Object.hasOwn(side, n))) return side;
    const copy = { ...side };
    for (const n of names) if (Object.hasOwn(copy, n) && !isPlaceholder(copy[n])) copy[n] = SENSITIVE;
    return copy;
  };
  const patch = change.patch.map((op): PatchOperation => {
    const field = topField(op.path);
    if (field === undefined || !Object.hasOwn(digests, field) || !('value' in op) || isPlaceholder(op.value)) return op;
    return { ...op, value: SENSITIVE };
  });
  return { ...change, before: mask(change.before), after: mask(change.after), patch };
}

/** After a field whose new value makes the change a replace (`Change.replacedBy`), as Terraform marks it. */
export const FORCES_REPLACEMENT = '# forces replacement';

/** One displayed field difference of a change. */
export type FieldLine =
  | { type: 'add'; field: string; after: string; sensitive: boolean }
  | { type: 'remove'; field: string; before: string; sensitive: boolean }
  | { type: 'change'; field: string; before: string; after: string; sensitive: boolean };

/**
 * Field-level differences between before and after, at the top level (nested values are
 * shown whole, as compact JSON). A field is changed when its values differ or when the
 * patch touches it: a write-only or sensitive field reads `(sensitive)` on both sides and
 * only the patch says it changes. Unchanged fields are left out. Order: the kind's field
 * table (a manifest's usual order), then other names in canonical order.
 */
export function fieldLines(change: Change): FieldLine[] {
  const before = change.before ?? {};
  const after = change.after ?? {};
  const sensitive = change.sensitiveDigests ?? {};
  const touched = new Set<string>();
  for (const op of change.patch) {
    const field = topField(op.path);
    if (field !== undefined) touched.add(field);
  }
  const show = (field: string, value: unknown): string =>
    Object.hasOwn(sensitive, field) && !isPlaceholder(value) ? SENSITIVE : compact(value);
  const lines: FieldLine[] = [];
  // The kind's field-table order, then canonical order: never the order the plan holds them in,
  // so a plan read back from its file (keys sorted) renders exactly as it did when made.
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])].sort(fieldOrder(change.kind));
  for (const field of fields) {
    const isSensitive = Object.hasOwn(sensitive, field);
    const inBefore = change.before !== null && Object.hasOwn(before, field);
    const inAfter = change.after !== null && Object.hasOwn(after, field);
    if (inAfter && !inBefore) {
      lines.push({ type: 'add', field, after: show(field, after[field]), sensitive: isSensitive });
    } else if (inBefore && !inAfter) {
      lines.push({ type: 'remove', field, before: show(field, before[field]), sensitive: isSensitive });
    } else if (touched.has(field) || canonicalJson(before[field]) !== canonicalJson(after[field])) {
      lines.push({
        type: 'change',
        field,
        before: show(field, before[field]),
        after: show(field, after[field]),
        sensitive: isSensitive,
      });
    }
  }
  return lines;
}

/** Each kind's field names by their place in its field table. */
const FIELD_PLACES: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map(
  kinds.map((kind) => [kind.kind, new Map(kind.fields.map((field, i) => [field.name, i]))]),
);

/** A kind's field names in its field table's order (undefined for a kind outside the table). */
export function fieldNamesOf(kind: string): string[] | undefined {
  const places = FIELD_PLACES.get(kind);
  return places ? [...places.keys()] : undefined;
}

/** Orders a kind's field names: by its field table, then the others in canonical order. */
export function fieldOrder(kind: string): (a: string, b: string) => number {
  const places = FIELD_PLACES.get(kind);
  if (!places) return compareKeys;
  return (a, b) => (places.get(a) ?? Infinity) - (places.get(b) ?? Infinity) || compareKeys(a, b);
}

/** The collection an address belongs to: its parent's address (see src/kinds/address-path.ts), or '' at the top. */
function parentAddress(address: string): string {
  return parentAddressOf(address) ?? '';
}

/**
 * What a renamed object was called, as a plan shows it: its former name when it stays under
 * the same parent (`tenant/new (renamed from old)`), else its former address.
 */
export function formerName(change: Change): string | undefined {
  const previous = change.previousAddress;
  if (previous === undefined) return undefined;
  if (parentAddressOf(previous) !== parentAddressOf(change.address)) return previous;
  return addressPairs(previous).at(-1)?.[1] ?? previous;
}

/** Per-action counts of the changes a renderer left out. */
export type HiddenCounts = Record<Change['action'], number>;

/** What a renderer prints, in plan order: a change, or the line standing for the rest of a large collection. */
export type RenderItem =
  | { type: 'change'; change: Change }
  | { type: 'more'; kind: string; parent: string; hidden: number; byAction: HiddenCounts };

/**
 * Plan order, with large collections folded: when more than `maxRows` changes share a
 * kind and a parent address, only the first `shown` are listed and one `more` item
 * (placed right after the last listed one) counts the rest by action.
 */
export function foldCollections(changes: readonly Change[], maxRows: number, shown: number): RenderItem[] {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const key = `${change.kind}\u0000${parentAddress(change.address)}`;
    const group = groups.get(key);
    if (group) group.push(change);
    else groups.set(key, [change]);
  }
  // A folded collection lists its deletes and replaces first: what a change takes away is what
  // a reviewer must not miss; what is left over is counted.
  const listed = new Set<Change>();
  for (const group of groups.values()) {
    if (group.length <= maxRows) continue;
    const destructive = group.filter((c) => c.action === 'delete' || c.action === 'replace');
    for (const c of [...destructive, ...group.filter((c) => !destructive.includes(c))].slice(0, shown)) listed.add(c);
  }
  const items: RenderItem[] = [];
  const seen = new Map<string, number>();
  for (const change of changes) {
    const key = `${change.kind}\u0000${parentAddress(change.address)}`;
    const group = groups.get(key) ?? [];
    if (group.length <= maxRows) {
      items.push({ type: 'change', change });
      continue;
    }
    if (!listed.has(change)) continue;
    items.push({ type: 'change', change });
    const index = (seen.get(key) ?? 0) + 1;
    seen.set(key, index);
    if (index === Math.min(shown, group.length))
      items.push(
        moreItem(
          change,
          group.filter((c) => !listed.has(c)),
        ),
      );
  }
  return items;
}

function moreItem(first: Change, rest: Change[]): RenderItem {
  const byAction: HiddenCounts = { create: 0, update: 0, replace: 0, delete: 0 };
  for (const change of rest) byAction[change.action] += 1;
  return { type: 'more', kind: first.kind, parent: parentAddress(first.address), hidden: rest.length, byAction };
}

/** `create: 3, delete: 1` (actions with a count, in summary order). */
export function formatByAction(byAction: HiddenCounts): string {
  const order = ['create', 'update', 'replace', 'delete'] as const;
  return order
    .filter((a) => byAction[a] > 0)
    .map((a) => `${a}: ${byAction[a]}`)
    .join(', ');
}

/** The Capacity section's rows grouped by the touched object they belong to, in plan order. */
export function capacityGroups(rows: readonly CapacityRow[]): { scope: string; rows: CapacityRow[] }[] {
  const groups = new Map<string, CapacityRow[]>();
  for (const row of rows) {
    const scope = row.scope ?? row.address;
    const group = groups.get(scope);
    if (group) group.push(row);
    else groups.set(scope, [row]);
  }
  return [...groups].map(([scope, list]) => ({ scope, rows: list }));
}

/** The figures of the Capacity section, in column order. */
export const CAPACITY_COLUMNS = ['declared', 'assigned', 'reserved', 'in use', 'headroom'] as const;

/**
 * A capacity row's figures by column: undefined where the row has none (a licence is not
 * declared; an entitlement has no `in use`), so that renderers keep the columns aligned.
 */
export function capacityFigures(row: CapacityRow): (number | undefined)[] {
  return [
    row.declared ?? undefined,
    row.assigned,
    row.declared !== null || row.reserved > 0 ? row.reserved : undefined,
    row.inUse,
    row.headroom ?? undefined,
  ];
}
