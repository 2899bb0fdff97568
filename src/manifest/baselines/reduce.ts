import type { Json } from '../build-context.js';
import type { KindPlan } from '../kind-plans.js';
import type { NodePath } from '../positions.js';
import type { JsonValue } from '../types.js';
import { isItem, keyOf, sameValue, SELECT, selectionMatches } from './merge.js';
import { itemStep } from './path.js';

/**
 * The other way round from the merge (merge.ts): what a flat document must keep so that,
 * merged with its baselines, it declares exactly what it declares now. Values a baseline
 * gives are deleted; values that differ stay, each with an override; a baseline's value or
 * item the document does not have gets an override that removes it. `baseline suggest
 * --write` and `export --baselines` rewrite documents with it, and check the result by
 * loading it (adopt.ts).
 */
export interface Reduction {
  /** Paths of the document (from its root) to delete, deepest and last items first. */
  deletions: NodePath[];
  /** The overrides the document needs. */
  overrides: { path: string; remove?: true }[];
}

/** An item of the baselines addressed to an item of the document (its values; `select` entries too). */
type Given = Json;

/** The reduction of a document's spec against the baselines' values that select it. */
export function reduceSpec(plan: KindPlan, spec: Json, values: readonly Json[]): Reduction {
  const out: Reduction = { deletions: [], overrides: [] };
  reduceItem(plan, spec, values, 'spec', ['spec'], out);
  out.deletions.sort(deepestLast).reverse();
  return out;
}

function reduceItem(
  plan: KindPlan,
  own: Json,
  given: readonly Given[],
  path: string,
  at: NodePath,
  out: Reduction,
): void {
  const names = new Set<string>(Object.keys(own));
  for (const g of given) for (const name of Object.keys(g)) if (name !== SELECT) names.add(name);
  const identity = new Set([...plan.form.identity, ...(plan.keyField ? [plan.keyField] : [])]);
  for (const name of names) {
    if (identity.has(name)) continue;
    const child = plan.children?.get(name);
    if (child?.csv) continue;
    const setters = given.filter((g) => g[name] !== undefined);
    if (setters.length === 0) continue;
    const declared = Object.hasOwn(own, name);
    if (child) {
      reduceCollection(child.plan, own, setters, name, `${path}.${name}`, [...at, name], out);
      continue;
    }
    const value = (setters[0] as Given)[name] as JsonValue;
    if (!declared) out.overrides.push({ path: `${path}.${name}`, remove: true });
    else if (sameValue(plan, name, own[name] as JsonValue, value)) out.deletions.push([...at, name]);
    else out.overrides.push({ path: `${path}.${name}` });
  }
}

function reduceCollection(
  plan: KindPlan,
  own: Json,
  given: readonly Given[],
  name: string,
  path: string,
  at: NodePath,
  out: Reduction,
): void {
  const value = own[name];
  const map = plan.keyField !== undefined;
  // The baselines' items by identity (keyed), and their `select` entries.
  const keyed = new Map<string, Given[]>();
  const selecting: Given[] = [];
  for (const g of given) {
    const entries = map
      ? isItem(g[name])
        ? Object.entries(g[name])
        : []
      : Array.isArray(g[name])
        ? g[name].map((e, i) => [i, e] as const)
        : [];
    for (const [key, entry] of entries) {
      if (!isItem(entry)) continue;
      if (!map && isItem(entry[SELECT])) selecting.push(entry);
      else {
        const identity = keyOf(plan, entry, typeof key === 'string' ? key : undefined);
        keyed.set(identity, [...(keyed.get(identity) ?? []), entry]);
      }
    }
  }
  const ownEntries: [string | number, JsonValue][] =
    value === undefined
      ? []
      : map
        ? isItem(value)
          ? Object.entries(value)
          : []
        : Array.isArray(value)
          ? value.map((v, i) => [i, v])
          : [];
  const seen = new Set<string>();
  let kept = 0;
  for (const [key, item] of ownEntries) {
    if (!isItem(item)) {
      kept += 1;
      continue;
    }
    const identity = keyOf(plan, item, typeof key === 'string' ? key : undefined);
    seen.add(identity);
    const byKey = keyed.get(identity) ?? [];
    const matching = selecting.filter((s) => selectionMatches(plan, s[SELECT] as Json, item));
    const itemAt = [...at, key];
    const before = out.deletions.length;
    reduceItem(plan, item, [...byKey, ...matching], `${path}${itemStep(identity)}`, itemAt, out);
    // An item a baseline gives by identity, whose every value a baseline gives too, goes whole
    // (the merge adds it again; overrides that remove its values still apply to it).
    const deleted = new Set(
      out.deletions
        .slice(before)
        .filter((p) => p.length === itemAt.length + 1)
        .map((p) => p[itemAt.length]),
    );
    const left = Object.keys(item).filter((k) => !deleted.has(k) && !isIdentity(plan, k));
    if (byKey.length > 0 && left.length === 0) {
      out.deletions.splice(before);
      out.deletions.push(itemAt);
    } else kept += 1;
  }
  // A collection the document does not have at all: one override leaves it out, undeclared
  // as it was (removing each item would declare it empty, and put it in prune scope).
  if (value === undefined && keyed.size > 0) {
    out.overrides.push({ path, remove: true });
    return;
  }
  // A baseline's item the document does not have: an override leaves it out.
  for (const identity of keyed.keys())
    if (!seen.has(identity)) out.overrides.push({ path: `${path}${itemStep(identity)}`, remove: true });
  // Every item went (the merge adds them again, and so declares the collection): the key goes too.
  if (ownEntries.length > 0 && kept === 0) {
    out.deletions = out.deletions.filter((p) => !(p.length > at.length && startsWith(p, at)));
    out.deletions.push(at);
  }
}

function isIdentity(plan: KindPlan, name: string): boolean {
  return plan.form.identity.includes(name) || name === plan.keyField;
}

function startsWith(path: NodePath, prefix: NodePath): boolean {
  return prefix.every((step, i) => path[i] === step);
}

/** Orders paths so that, reversed, deeper paths and later list items come first (safe deletion order). */
function deepestLast(a: NodePath, b: NodePath): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}
