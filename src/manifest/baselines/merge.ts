import type { Json } from '../build-context.js';
import type { KindPlan } from '../kind-plans.js';
import type { NodePath } from '../positions.js';
import type { JsonValue } from '../types.js';
import {
  isItem,
  keyOf,
  sameValue,
  selectionMatches,
  SELECT,
  type AppliedOverride,
  type Contribution,
  type MergeFinding,
  type OverrideEntry,
} from './merge-types.js';
import { itemStep } from './path.js';
import type { Place, Provenance } from './places.js';

export {
  isItem,
  keyOf,
  sameValue,
  selectionMatches,
  SELECT,
  type AppliedOverride,
  type Baseline,
  type Contribution,
  type MergeFinding,
  type OverrideEntry,
} from './merge-types.js';

/**
 * The merge of a document with the baselines that select it (docs/baselines.md, "How values
 * merge"), one rule per kind of value, all read from the kind table:
 *
 * - a field (whatever its type: a scalar, a list of values, an object) is one value: the
 *   document's replaces the baseline's, and must then be an override;
 * - a collection (a key the kind table knows as a child kind's `collection`) merges item by
 *   item, by identity (the one the item's address holds: `kind.identity`), recursively; a
 *   baseline's item the document lacks is added, and only an override with `remove: true`
 *   leaves it out;
 * - a baseline's list item may give `select` instead of its identity: it then applies to
 *   every item of that collection the document declares whose fields equal the selection.
 *
 * The document's items keep their indexes, a baseline's come after them (places.ts).
 */

/**
 * Whether a baseline's item holds `select` entries below it, by the plan it is read with. A
 * baseline's items are the same objects for each of the 2,000 documents it selects, and a
 * Merger is made per document: the answer is kept with the item (it dies with it).
 */
const SELECTING = new WeakMap<KindPlan, WeakMap<object, boolean>>();

/** Merges one document's spec with its baselines' values. */
export class Merger {
  readonly applied: AppliedOverride[] = [];
  readonly findings: MergeFinding[] = [];

  constructor(
    private readonly provenance: Provenance,
    private readonly overrides: ReadonlyMap<string, OverrideEntry>,
  ) {}

  /**
   * An item (or the spec) of `plan`'s kind: the document's `own` (absent when only baselines
   * declare it) with the contributions addressed to it. `at` is the document's path of it.
   */
  item(
    plan: KindPlan,
    own: Json | undefined,
    contributions: readonly Contribution[],
    path: string,
    at?: NodePath,
  ): Json {
    if (contributions.length === 0) return own ?? {};
    const [first] = contributions as [Contribution];
    // A baseline's item the document does not declare, given by one baseline, is taken as it
    // is, unless a `select` or an override reaches below it: the walk below applies them.
    const alone = own === undefined && contributions.length === 1;
    if (alone && !this.hasSelect(plan, first.item) && !this.overridesBelow(path)) return first.item;
    const out: Json = {};
    const keys = new Map<string, Place>();
    const names = new Set<string>(own ? Object.keys(own) : []);
    for (const c of contributions) for (const name of Object.keys(c.item)) if (name !== SELECT) names.add(name);
    for (const name of names) {
      const child = plan.children?.get(name);
      if (child && !child.csv) {
        this.collectionKey(child.plan, own, contributions, name, out, { path, at });
        continue;
      }
      this.fieldKey(plan, own, contributions, name, out, keys, { path, at });
    }
    const record = {
      ...(own === undefined ? { place: this.placeOf(first.item) } : {}),
      ...(keys.size > 0 ? { keys } : {}),
    };
    if (record.place || record.keys) this.provenance.merged.set(out, record);
    return out;
  }

  /** Whether an override names a value or an item inside the item at `path`. */
  private overridesBelow(path: string): boolean {
    if (this.overrides.size === 0) return false;
    const inside = `${path}.`;
    for (const overridden of this.overrides.keys()) if (overridden.startsWith(inside)) return true;
    return false;
  }

  private fieldKey(
    plan: KindPlan,
    own: Json | undefined,
    contributions: readonly Contribution[],
    name: string,
    out: Json,
    keys: Map<string, Place>,
    where: { path: string; at: NodePath | undefined },
  ): void {
    const setters = contributions.filter((c) => Object.hasOwn(c.item, name));
    const declared = own !== undefined && Object.hasOwn(own, name);
    if (setters.length === 0) {
      if (own) out[name] = own[name] as JsonValue;
      return;
    }
    const identity = plan.form.identity.includes(name) || name === plan.keyField;
    const path = `${where.path}.${name}`;
    const [setter, other] = setters as [Contribution, Contribution | undefined];
    if (other && !identity) {
      const places: [Place, Place] = [this.placeOfKey(setter.item, name), this.placeOfKey(other.item, name)];
      this.findings.push({ type: 'conflict', path, first: setter, second: other, key: name, places });
    }
    const given = setter.item[name] as JsonValue;
    const givenAt = (): void => {
      // Without an own item, the first contribution is the node's place: its keys need no record.
      if (own !== undefined || setter !== contributions[0]) keys.set(name, this.placeOfKey(setter.item, name));
    };
    if (!declared) {
      const override = identity ? undefined : this.overrides.get(path);
      if (override?.remove) {
        override.used = true;
        this.applied.push(this.appliedOf(override, setter, name, given));
        return;
      }
      // An override the tenant gives no value for: stale, as the tenant's value is the baseline's.
      if (override) override.equalTo = setter.baseline.name;
      out[name] = given;
      givenAt();
      return;
    }
    const value = (own as Json)[name] as JsonValue;
    out[name] = value;
    if (identity) return;
    const override = this.overrides.get(path);
    const at = [...(where.at ?? []), name];
    if (override?.remove) {
      // The tenant declares the value it removes the baseline's for, equal to it or not: which is meant?
      override.used = true;
      this.findings.push({ type: 'remove-declared', path, entry: override, at });
      return;
    }
    if (sameValue(plan, name, value, given)) {
      if (override) override.equalTo = setter.baseline.name;
      return;
    }
    if (override) {
      override.used = true;
      this.applied.push({ ...this.appliedOf(override, setter, name, given), value });
      return;
    }
    const baselinePlace = this.placeOfKey(setter.item, name);
    this.findings.push({
      type: 'missing',
      path,
      at,
      value,
      baseline: setter.baseline,
      baselineValue: given,
      baselinePlace,
    });
  }

  private appliedOf(override: OverrideEntry, setter: Contribution, name: string, given: JsonValue): AppliedOverride {
    return {
      path: override.path,
      reason: override.reason,
      remove: override.remove,
      baseline: setter.baseline.name,
      baselineValue: given,
      entry: override.index,
      baselinePlace: this.placeOfKey(setter.item, name),
    };
  }

  private collectionKey(
    plan: KindPlan,
    own: Json | undefined,
    contributions: readonly Contribution[],
    name: string,
    out: Json,
    where: { path: string; at: NodePath | undefined },
  ): void {
    const ownValue = own?.[name];
    const given = contributions.filter((c) => c.item[name] !== undefined);
    if (given.length === 0) {
      out[name] = ownValue as JsonValue;
      return;
    }
    const path = `${where.path}.${name}`;
    const at = ownValue === undefined || where.at === undefined ? undefined : [...where.at, name];
    // `remove: true` on the collection itself: the tenant leaves it undeclared, whatever the
    // baselines give in it (adopt writes this for a collection a tenant did not have).
    const removal = this.overrides.get(path);
    if (removal?.remove) {
      removal.used = true;
      const [setter] = given as [Contribution];
      if (ownValue !== undefined)
        this.findings.push({ type: 'remove-declared', path, entry: removal, at: at ?? where.at ?? [] });
      else this.applied.push(this.appliedOf(removal, setter, name, setter.item[name] as JsonValue));
      if (ownValue !== undefined) out[name] = ownValue as JsonValue;
      return;
    }
    const merged =
      plan.keyField !== undefined
        ? this.mapCollection(plan, ownValue, given, name, path, at)
        : this.listCollection(plan, ownValue, given, name, path, at);
    // Entries with `select` that match nothing declare nothing: only the document, an item by
    // identity (one an override removes too: the tenant then declares the collection without
    // it), or a collection a baseline writes empty (`templates: []`) declares the collection
    // (and puts it in prune scope).
    const declares = (value: unknown) => isEmpty(value) || givesByIdentity(value);
    if (ownValue === undefined && isEmpty(merged) && !given.some((c) => declares(c.item[name]))) return;
    out[name] = merged as JsonValue;
    const first = given[0]?.item[name];
    if (ownValue === undefined && merged !== first && merged !== null && typeof merged === 'object') {
      const place = this.provenance.ownPlace(first);
      if (place) this.provenance.merged.set(merged, { place });
    }
  }

  private listCollection(
    plan: KindPlan,
    ownValue: JsonValue | undefined,
    given: readonly Contribution[],
    name: string,
    path: string,
    at: NodePath | undefined,
  ): unknown {
    if (ownValue !== undefined && !Array.isArray(ownValue)) return ownValue; // the schema says what is wrong
    const keyed = new Map<string, Contribution[]>();
    const selecting: Contribution[] = [];
    for (const c of given) {
      const list = c.item[name];
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        if (!isItem(entry)) continue;
        if (isItem(entry[SELECT])) selecting.push({ baseline: c.baseline, item: entry });
        else pushTo(keyed, keyOf(plan, entry), { baseline: c.baseline, item: entry });
      }
    }
    const out: JsonValue[] = [];
    const seen = new Set<string>();
    (ownValue ?? []).forEach((own, i) => {
      if (!isItem(own)) {
        out.push(own);
        return;
      }
      const key = keyOf(plan, own);
      seen.add(key);
      const matching = selecting.filter((s) => selectionMatches(plan, s.item[SELECT] as Json, own));
      const contributions = [...(keyed.get(key) ?? []), ...matching];
      const itemPath = `${path}${itemStep(key)}`;
      this.declaredDespiteRemove(itemPath, contributions, at && [...at, i]);
      out.push(this.item(plan, own, contributions, itemPath, at && [...at, i]));
    });
    for (const [key, contributions] of keyed) {
      if (seen.has(key)) continue;
      seen.add(key);
      const itemPath = `${path}${itemStep(key)}`;
      if (this.removed(itemPath, contributions)) continue;
      out.push(this.item(plan, undefined, contributions, itemPath));
    }
    return out;
  }

  private mapCollection(
    plan: KindPlan,
    ownValue: JsonValue | undefined,
    given: readonly Contribution[],
    name: string,
    path: string,
    at: NodePath | undefined,
  ): unknown {
    if (ownValue !== undefined && !isItem(ownValue)) return ownValue;
    // By identity, each with the map key its first baseline wrote it under.
    const keyed = new Map<string, { key: string; contributions: Contribution[] }>();
    for (const c of given) {
      const map = c.item[name];
      if (!isItem(map)) continue;
      for (const [key, entry] of Object.entries(map)) {
        if (!isItem(entry)) continue;
        const identity = keyOf(plan, entry, key);
        const known = keyed.get(identity);
        if (known) known.contributions.push({ baseline: c.baseline, item: entry });
        else keyed.set(identity, { key, contributions: [{ baseline: c.baseline, item: entry }] });
      }
    }
    const out: Json = {};
    for (const [key, own] of Object.entries(ownValue ?? {})) {
      if (!isItem(own)) {
        out[key] = own;
        continue;
      }
      const identity = keyOf(plan, own, key);
      const contributions = keyed.get(identity)?.contributions ?? [];
      const itemPath = `${path}${itemStep(identity)}`;
      this.declaredDespiteRemove(itemPath, contributions, at && [...at, key]);
      out[key] = this.item(plan, own, contributions, itemPath, at && [...at, key]);
      keyed.delete(identity);
    }
    for (const [identity, { key, contributions }] of keyed) {
      const itemPath = `${path}${itemStep(identity)}`;
      if (this.removed(itemPath, contributions)) continue;
      out[key] = this.item(plan, undefined, contributions, itemPath);
    }
    return out;
  }

  /** An override removes a baseline's item that the document declares all the same: which one is meant? */
  private declaredDespiteRemove(
    itemPath: string,
    contributions: readonly Contribution[],
    at: NodePath | undefined,
  ): void {
    const override = this.overrides.get(itemPath);
    if (!override?.remove || contributions.length === 0) return;
    override.used = true;
    this.findings.push({ type: 'remove-declared', path: itemPath, entry: override, at: at ?? [] });
  }

  /** A baseline's item the document leaves out with an override (`remove: true`). */
  private removed(itemPath: string, contributions: readonly Contribution[]): boolean {
    const override = this.overrides.get(itemPath);
    if (!override?.remove) return false;
    const [first] = contributions as [Contribution];
    override.used = true;
    this.applied.push({
      path: override.path,
      reason: override.reason,
      remove: true,
      baseline: first.baseline.name,
      entry: override.index,
      baselinePlace: this.placeOf(first.item),
    });
    return true;
  }

  /** Whether a baseline item holds `select` entries below it (they never reach a document as they are). */
  private hasSelect(plan: KindPlan, item: Json): boolean {
    let answers = SELECTING.get(plan);
    if (!answers) SELECTING.set(plan, (answers = new WeakMap()));
    const known = answers.get(item);
    if (known !== undefined) return known;
    let found = false;
    for (const [key, child] of plan.children ?? []) {
      const value = item[key];
      if (child.csv || value === undefined) continue;
      const entries = Array.isArray(value) ? value : isItem(value) ? Object.values(value) : [];
      for (const entry of entries) {
        if (!isItem(entry)) continue;
        if (isItem(entry[SELECT]) || this.hasSelect(child.plan, entry)) found = true;
      }
    }
    answers.set(item, found);
    return found;
  }

  private placeOf(node: Json): Place {
    const place = this.provenance.ownPlace(node);
    if (!place) throw new Error('baseline merge: a baseline node without a place');
    return place;
  }

  private placeOfKey(node: Json, key: string): Place {
    const place = this.placeOf(node);
    return { file: place.file, doc: place.doc, path: [...place.path, key] };
  }
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function isEmpty(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : isItem(value) && Object.keys(value).length === 0;
}

/** Whether a baseline's collection (a list, or a map keyed by identity) gives an item by its identity, not by `select`. */
function givesByIdentity(collection: unknown): boolean {
  if (Array.isArray(collection)) return collection.some((entry) => isItem(entry) && !isItem(entry[SELECT]));
  return isItem(collection) && Object.values(collection).some(isItem);
}
