import { canonicalJson } from '../../core/canonical-json.js';
import { normalizeField } from '../../kinds/fields.js';
import type { Json } from '../build-context.js';
import type { KindPlan } from '../kind-plans.js';
import type { JsonValue } from '../types.js';
import { isItem, keyOf, SELECT } from './merge.js';

/**
 * `baseline suggest`: the values most of the selected documents share, as a Baseline's
 * `values`. For each field, the value the most documents (or items) hold, when at least
 * `coverage` of them hold it and no other value is as common; for each collection, the items
 * (by identity) that at least `coverage` of the documents declare, each proposed the same way
 * (a value or an item held by one document only is never proposed: it is that document's own)
 * from the documents that declare it. Items of a document's collection may be grouped by a
 * field instead (`selectBy`: `subscriptions` by `uc`): one `select` entry per value.
 */
export interface ProposeOptions {
  /** Share (0 < coverage ≤ 1) of the documents or items that must hold a value for the baseline to give it. */
  coverage: number;
  /** The document's collections whose items are addressed by a field's value: collection → field. */
  selectBy?: Readonly<Record<string, string>>;
}

/** A value one document holds is its own, whatever the coverage: a standard is shared by two at least. */
const SHARED = 2;

/** The proposed values (a partial spec) of documents' specs. */
export function proposeValues(plan: KindPlan, specs: readonly Json[], options: ProposeOptions): Json {
  return proposeItem(plan, specs, options, new Set(), true);
}

function proposeItem(
  plan: KindPlan,
  items: readonly Json[],
  options: ProposeOptions,
  skip: ReadonlySet<string>,
  top: boolean,
): Json {
  const out: Json = {};
  const total = items.length;
  const identity = new Set([...plan.form.identity, ...(plan.keyField ? [plan.keyField] : [])]);
  const derived = new Set(plan.derived.map((d) => d.name));
  for (const field of plan.fields) {
    if (identity.has(field.name) || derived.has(field.name) || skip.has(field.name)) continue;
    const chosen = majority(
      plan,
      field.name,
      items.flatMap((item) => (Object.hasOwn(item, field.name) ? [item[field.name] as JsonValue] : [])),
      total,
      options.coverage,
    );
    if (chosen !== undefined) out[field.name] = chosen.value;
  }
  for (const [key, child] of plan.children ?? []) {
    if (child.csv || child.plan.form.uniqueInPlatform) continue;
    const holders = items.filter((item) => item[key] !== undefined);
    if (holders.length === 0) continue;
    const by = top ? options.selectBy?.[key] : undefined;
    const proposed =
      by !== undefined && child.plan.keyField === undefined
        ? selectEntries(child.plan, holders, key, by, options)
        : keyedEntries(child.plan, holders, key, total, options);
    if (proposed !== undefined) out[key] = proposed;
  }
  return out;
}

/** Items by identity that at least `coverage` of the documents declare. */
function keyedEntries(
  plan: KindPlan,
  holders: readonly Json[],
  key: string,
  total: number,
  options: ProposeOptions,
): JsonValue | undefined {
  const map = plan.keyField !== undefined;
  const byIdentity = new Map<string, { mapKey?: string; items: Json[]; holders: Set<Json> }>();
  for (const holder of holders) {
    const value = holder[key];
    const entries: [string | undefined, JsonValue][] = map
      ? isItem(value)
        ? Object.entries(value)
        : []
      : Array.isArray(value)
        ? value.map((v) => [undefined, v])
        : [];
    for (const [mapKey, item] of entries) {
      if (!isItem(item)) continue;
      const identity = keyOf(plan, item, mapKey);
      const known = byIdentity.get(identity) ?? { ...(mapKey ? { mapKey } : {}), items: [], holders: new Set() };
      known.items.push(item);
      known.holders.add(holder);
      byIdentity.set(identity, known);
    }
  }
  const chosen = [...byIdentity.values()].filter(
    (e) => e.holders.size >= SHARED && e.holders.size / total >= options.coverage,
  );
  if (chosen.length === 0) return undefined;
  const proposed = chosen.map((e) => {
    const first = e.items[0] as Json;
    const identityFields: Json = {};
    for (const name of plan.form.identity)
      if (Object.hasOwn(first, name)) identityFields[name] = first[name] as JsonValue;
    return { mapKey: e.mapKey, item: { ...identityFields, ...proposeItem(plan, e.items, options, new Set(), false) } };
  });
  if (!map) return proposed.map((p) => p.item);
  return Object.fromEntries(proposed.map((p) => [p.mapKey as string, p.item]));
}

/** One `select` entry per value of `field` among the documents' items, with what those items share. */
function selectEntries(
  plan: KindPlan,
  holders: readonly Json[],
  key: string,
  field: string,
  options: ProposeOptions,
): JsonValue | undefined {
  const groups = new Map<string, { value: JsonValue; items: Json[] }>();
  for (const holder of holders) {
    const list = holder[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (!isItem(item) || item[field] === undefined || item[field] === null) continue;
      const value = item[field] as JsonValue;
      const id = canonicalJson(normalize(plan, field, value));
      const group = groups.get(id) ?? { value, items: [] };
      group.items.push(item);
      groups.set(id, group);
    }
  }
  const skip = new Set([field, ...plan.form.identity]);
  const entries = [...groups.values()]
    .map((g) => ({ [SELECT]: { [field]: g.value }, ...proposeItem(plan, g.items, options, skip, false) }))
    .filter((entry) => Object.keys(entry).length > 1);
  return entries.length > 0 ? entries : undefined;
}

/** The most common value, when at least `coverage` of `total` hold it and none is as common. */
function majority(
  plan: KindPlan,
  name: string,
  values: readonly JsonValue[],
  total: number,
  coverage: number,
): { value: JsonValue } | undefined {
  const counts = new Map<string, { value: JsonValue; count: number }>();
  for (const value of values) {
    const id = canonicalJson(normalize(plan, name, value));
    const known = counts.get(id);
    if (known) known.count += 1;
    else counts.set(id, { value, count: 1 });
  }
  const ranked = [...counts.values()].sort((a, b) => b.count - a.count);
  const [best, second] = ranked;
  if (!best || best.count < SHARED || best.count / total < coverage || (second && second.count === best.count))
    return undefined;
  return { value: best.value };
}

function normalize(plan: KindPlan, name: string, value: JsonValue): unknown {
  const spec = plan.kind.fields.find((f) => f.name === name);
  return spec ? normalizeField(spec, value) : value;
}
