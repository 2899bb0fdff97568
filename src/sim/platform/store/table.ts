/**
 * One entity table of the simulator's store, with the indexes that keep list pages cheap
 * at 20,000+ rows: by key, by direct parent, by ancestor (subtree), and by name within a
 * parent. Sorted views of a scope are cached and dropped only for the scopes a mutation
 * touches, so paging through a large list sorts once, not once per page.
 *
 * Rows are plain JSON objects (they are what `GET /_sim/state` and `--state FILE` dump).
 * Change rows through `update` (never by assigning fields of a stored row), so that every
 * index follows; the ancestors array of a row must not be mutated in place.
 */
export interface TableOptions<T> {
  /** Table name, also its key in snapshots. */
  name: string;
  /** Primary key (uuid, or an integer id as a string). */
  key: (row: T) => string;
  /** Key of the direct parent (owner, tenant, subscription …), for `children()`. */
  parent?: (row: T) => string | undefined;
  /** Keys of every ancestor, nearest first, for `descendants()` (subtree lists). */
  ancestors?: (row: T) => readonly string[];
  /** Name indexed per parent, for `findByName()`. */
  nameOf?: (row: T) => string;
  /** Properties that `search` matches (Document 1 §1.9). */
  searchable?: readonly string[];
  /** Extra unique-ish lookups (e.g. users by e-mail, sessions by token): name → value of a row. */
  lookups?: Record<string, (row: T) => string | undefined>;
}

/** Where a list comes from: the whole table, one parent's children, or a subtree. */
export type Scope = { kind: 'all' } | { kind: 'parent'; key: string } | { kind: 'ancestor'; key: string };

export interface SortSpec {
  field: string;
  dir: 'asc' | 'desc';
}

type SortValue = string | number;

export class IndexedTable<T extends object> {
  readonly options: TableOptions<T>;
  private readonly byKey = new Map<string, T>();
  private readonly byParent = new Map<string, Set<string>>();
  private readonly byAncestor = new Map<string, Set<string>>();
  private readonly byName = new Map<string, Set<string>>();
  private readonly byLookup = new Map<string, Map<string, Set<string>>>();
  /** scope id → sort id → rows in order. */
  private readonly sortedCache = new Map<string, Map<string, T[]>>();
  private readonly onChange: () => void;

  constructor(options: TableOptions<T>, onChange: () => void = () => {}) {
    this.options = options;
    this.onChange = onChange;
  }

  get size(): number {
    return this.byKey.size;
  }

  get(key: string | number): T | undefined {
    return this.byKey.get(String(key));
  }

  has(key: string | number): boolean {
    return this.byKey.has(String(key));
  }

  /** Every row, in insertion order. */
  rows(): T[] {
    return [...this.byKey.values()];
  }

  insert(row: T): T {
    const key = this.options.key(row);
    if (this.byKey.has(key)) throw new Error(`${this.options.name}: duplicate key ${key}`);
    this.byKey.set(key, row);
    this.index(key, row);
    this.touched(row);
    return row;
  }

  /** Applies `changes` to the row in place and re-indexes it (parent, ancestors, name, lookups). */
  update(key: string | number, changes: Partial<T>): T | undefined {
    const k = String(key);
    const row = this.byKey.get(k);
    if (!row) return undefined;
    this.unindex(k, row);
    this.touched(row);
    Object.assign(row, changes);
    this.index(k, row);
    this.touched(row);
    return row;
  }

  delete(key: string | number): T | undefined {
    const k = String(key);
    const row = this.byKey.get(k);
    if (!row) return undefined;
    this.byKey.delete(k);
    this.unindex(k, row);
    this.touched(row);
    return row;
  }

  clear(): void {
    this.byKey.clear();
    this.byParent.clear();
    this.byAncestor.clear();
    this.byName.clear();
    this.byLookup.clear();
    this.sortedCache.clear();
    this.onChange();
  }

  /** Direct children of a parent key, unordered. */
  children(parentKey: string): T[] {
    return this.resolve(this.byParent.get(parentKey));
  }

  countChildren(parentKey: string): number {
    return this.byParent.get(parentKey)?.size ?? 0;
  }

  /** Every row with `ancestorKey` among its ancestors, unordered. */
  descendants(ancestorKey: string): T[] {
    return this.resolve(this.byAncestor.get(ancestorKey));
  }

  countDescendants(ancestorKey: string): number {
    return this.byAncestor.get(ancestorKey)?.size ?? 0;
  }

  /** Rows with this exact name under `parentKey` (or anywhere when the table has no parent). */
  findByName(name: string, parentKey = ''): T[] {
    return this.resolve(this.byName.get(nameKey(parentKey, name)));
  }

  /** Rows whose lookup `lookup` (declared in the options) has this value. */
  findBy(lookup: string, value: string): T[] {
    return this.resolve(this.byLookup.get(lookup)?.get(value));
  }

  /** The rows of a scope sorted by one field (ties by key); cached until the scope changes. */
  sorted(scope: Scope, sort: SortSpec): T[] {
    const scopeId = scope.kind === 'all' ? '*' : `${scope.kind === 'parent' ? 'p' : 'a'}:${scope.key}`;
    const sortId = `${sort.field}|${sort.dir}`;
    let perScope = this.sortedCache.get(scopeId);
    const hit = perScope?.get(sortId);
    if (hit) return hit;
    const rows =
      scope.kind === 'all'
        ? this.rows()
        : scope.kind === 'parent'
          ? this.children(scope.key)
          : this.descendants(scope.key);
    const result = sortRows(rows, sort, this.options.key);
    if (!perScope) this.sortedCache.set(scopeId, (perScope = new Map()));
    perScope.set(sortId, result);
    return result;
  }

  private resolve(keys: Set<string> | undefined): T[] {
    if (!keys) return [];
    const out: T[] = [];
    for (const k of keys) {
      const row = this.byKey.get(k);
      if (row) out.push(row);
    }
    return out;
  }

  private parentOf(row: T): string {
    return this.options.parent?.(row) ?? '';
  }

  private index(key: string, row: T): void {
    if (this.options.parent) addTo(this.byParent, this.parentOf(row), key);
    for (const a of this.options.ancestors?.(row) ?? []) addTo(this.byAncestor, a, key);
    this.indexName(key, row);
  }

  private unindex(key: string, row: T): void {
    if (this.options.parent) removeFrom(this.byParent, this.parentOf(row), key);
    for (const a of this.options.ancestors?.(row) ?? []) removeFrom(this.byAncestor, a, key);
    this.unindexName(key, row);
  }

  /** Name and lookups: the indexes whose values may change on `update`. */
  private indexName(key: string, row: T): void {
    if (this.options.nameOf) addTo(this.byName, nameKey(this.parentOf(row), this.options.nameOf(row)), key);
    for (const [lookup, valueOf] of Object.entries(this.options.lookups ?? {})) {
      const value = valueOf(row);
      if (value === undefined) continue;
      let index = this.byLookup.get(lookup);
      if (!index) this.byLookup.set(lookup, (index = new Map()));
      addTo(index, value, key);
    }
  }

  private unindexName(key: string, row: T): void {
    if (this.options.nameOf) removeFrom(this.byName, nameKey(this.parentOf(row), this.options.nameOf(row)), key);
    for (const [lookup, valueOf] of Object.entries(this.options.lookups ?? {})) {
      const value = valueOf(row);
      const index = this.byLookup.get(lookup);
      if (value !== undefined && index) removeFrom(index, value, key);
    }
  }

  /** Drops the cached sorted views of every scope the row belongs to. */
  private touched(row: T): void {
    this.sortedCache.delete('*');
    if (this.options.parent) this.sortedCache.delete(`p:${this.parentOf(row)}`);
    for (const a of this.options.ancestors?.(row) ?? []) this.sortedCache.delete(`a:${a}`);
    this.onChange();
  }
}

function nameKey(parent: string, name: string): string {
  return `${parent}\u0000${name}`;
}

function addTo(index: Map<string, Set<string>>, k: string, v: string): void {
  let set = index.get(k);
  if (!set) index.set(k, (set = new Set()));
  set.add(v);
}

function removeFrom(index: Map<string, Set<string>>, k: string, v: string): void {
  const set = index.get(k);
  if (!set) return;
  set.delete(v);
  if (set.size === 0) index.delete(k);
}

/** Decorate-sort-undecorate: one field read and lower-casing per row, not per comparison. */
function sortRows<T extends object>(rows: T[], sort: SortSpec, keyOf: (row: T) => string): T[] {
  const decorated = rows.map((row) => ({
    row,
    v: sortValue((row as Record<string, unknown>)[sort.field]),
    k: keyOf(row),
  }));
  const sign = sort.dir === 'desc' ? -1 : 1;
  decorated.sort((a, b) => {
    if (a.v < b.v) return -sign;
    if (a.v > b.v) return sign;
    return a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
  });
  return decorated.map((d) => d.row);
}

function sortValue(v: unknown): SortValue {
  if (typeof v === 'number') return v;
  if (v === undefined || v === null) return '';
  return String(v).toLowerCase();
}
