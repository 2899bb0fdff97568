import { REFUSED, withAffinity } from './affinity.js';
import { GENERIC_500, SimHttpError, type SimFieldSeed, type SimRow, type SimTableSeed } from './types.js';

interface UniqueIndex {
  /** Constraint name as PostgreSQL would make it (`<table>_<fields>_key`). */
  name: string;
  fields: string[];
  /** Joined value → id. Rows with a null in the constraint are not indexed (SQL semantics). */
  byValue: Map<string, number>;
}

/**
 * One table: rows by id, unique indexes by value, and a cached id order. Every write
 * validates first and applies after, so a failing batch changes nothing (Doc3 §4.2 `_bulk`).
 */
export class SimTable {
  readonly name: string;
  readonly fields: ReadonlyMap<string, Required<SimFieldSeed>>;
  readonly fieldNames: readonly string[];
  readonly uniques: readonly UniqueIndex[];
  readonly rows = new Map<number, SimRow>();
  /** Bumped on every write; lets query caches know they are stale. */
  revision = 0;
  private nextId = 1;
  private idOrder: number[] | null = [];
  /** Values are stored as SQLite's type affinity stores them (the `typeAffinity` quirk, ./affinity.ts). */
  private readonly typeAffinity: boolean;

  constructor(name: string, seed: SimTableSeed, options: { typeAffinity?: boolean } = {}) {
    this.name = name;
    this.typeAffinity = options.typeAffinity === true;
    const fields = new Map<string, Required<SimFieldSeed>>();
    for (const [field, def] of Object.entries(seed.fields)) {
      fields.set(field, { type: def.type, nullable: def.nullable ?? true, unique: def.unique ?? false });
    }
    this.fields = fields;
    this.fieldNames = [...fields.keys()];
    const constraints = [
      ...this.fieldNames.filter((f) => fields.get(f)?.unique).map((f) => [f]),
      ...(seed.unique ?? []),
    ];
    this.uniques = constraints.map((cols) => ({
      name: `${name}_${cols.join('_')}_key`,
      fields: cols,
      byValue: new Map(),
    }));
    if (seed.rows) this.loadRows(seed.rows);
  }

  /** Ids in ascending order (the default order of list responses, Doc3 §4.1). */
  orderedIds(): number[] {
    if (!this.idOrder) this.idOrder = [...this.rows.keys()].sort((a, b) => a - b);
    return this.idOrder;
  }

  /** The index of a single-field unique constraint, for indexed lookups by value. */
  uniqueIndexOf(field: string): Map<string, number> | undefined {
    return this.uniques.find((u) => u.fields.length === 1 && u.fields[0] === field)?.byValue;
  }

  /** Validates and inserts records in one transaction; `bulk` makes errors name the record index. */
  insert(bodies: unknown[], bulk: boolean): SimRow[] {
    const pending = new Map<string, Map<string, number>>();
    const rows: SimRow[] = [];
    bodies.forEach((body, index) => {
      try {
        const row = this.validateCreate(body, this.nextId + index);
        this.checkUnique(row, pending);
        rows.push(row);
      } catch (error) {
        throw bulk ? withIndex(error, index) : error;
      }
    });
    for (const row of rows) this.put(row);
    this.nextId += rows.length;
    this.revision++;
    return rows;
  }

  /** Applies the same partial change to every id, atomically. */
  update(ids: number[], body: unknown): SimRow[] {
    const changes = this.validateChanges(body);
    const pending = new Map<string, Map<string, number>>();
    const updated: SimRow[] = [];
    const touched = new Set(ids);
    for (const id of ids) {
      const current = this.rows.get(id);
      if (!current) throw new SimHttpError(404, `No result found for id ${id}`);
      const next = { ...current, ...changes } as SimRow;
      this.checkNotNull(next);
      this.checkUnique(next, pending, touched);
      updated.push(next);
    }
    for (const id of ids) this.unindex(this.rows.get(id) as SimRow);
    for (const row of updated) this.put(row);
    this.revision++;
    return updated;
  }

  remove(id: number): boolean {
    const row = this.rows.get(id);
    if (!row) return false;
    this.unindex(row);
    this.rows.delete(id);
    this.idOrder = null;
    this.revision++;
    return true;
  }

  /** Rows as a seed would hold them, ids included, so `reset(state())` round-trips. */
  snapshot(): SimTableSeed {
    const fields: Record<string, SimFieldSeed> = {};
    for (const [name, def] of this.fields) fields[name] = { ...def };
    const multi = this.uniques.filter((u) => u.fields.length > 1 || !this.fields.get(u.fields[0] ?? '')?.unique);
    return {
      fields,
      ...(multi.length ? { unique: multi.map((u) => [...u.fields]) } : {}),
      rows: this.orderedIds().map((id) => ({ ...(this.rows.get(id) as SimRow) })),
    };
  }

  private loadRows(rows: Record<string, unknown>[]): void {
    for (const seedRow of rows) {
      const { id, ...body } = seedRow;
      const rowId = typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : this.nextId;
      if (this.rows.has(rowId)) throw new Error(`seed: duplicate id ${rowId} in table ${this.name}`);
      const row = this.validateCreate(body, rowId);
      this.checkUnique(row, null);
      this.put(row);
      this.nextId = Math.max(this.nextId, rowId + 1);
    }
    this.idOrder = null;
  }

  private put(row: SimRow): void {
    const isNew = !this.rows.has(row.id);
    this.rows.set(row.id, row);
    for (const u of this.uniques) {
      const key = uniqueKey(row, u.fields);
      if (key !== null) u.byValue.set(key, row.id);
    }
    if (isNew && this.idOrder) {
      const last = this.idOrder[this.idOrder.length - 1];
      if (last === undefined || last < row.id) this.idOrder.push(row.id);
      else this.idOrder = null;
    }
  }

  private unindex(row: SimRow): void {
    for (const u of this.uniques) {
      const key = uniqueKey(row, u.fields);
      if (key !== null && u.byValue.get(key) === row.id) u.byValue.delete(key);
    }
  }

  private validateCreate(body: unknown, id: number): SimRow {
    const changes = this.validateChanges(body);
    const row = { id } as SimRow;
    for (const field of this.fieldNames) row[field] = changes[field] ?? null;
    this.checkNotNull(row);
    return row;
  }

  /** Field names must exist (400) and values must fit their column type (500, Doc3 §4.2). */
  private validateChanges(body: unknown): Record<string, unknown> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new SimHttpError(400, 'Unable to decode data: the body must be a JSON object');
    }
    const out: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(body)) {
      if (field === 'id') throw new SimHttpError(400, 'Field "id" is assigned by the server and cannot be set');
      const def = this.fields.get(field);
      if (!def) throw new SimHttpError(400, `Model does not have field '${field}'`);
      if (this.typeAffinity) {
        const stored = withAffinity(value, def.type);
        if (stored === REFUSED) throw new SimHttpError(500, GENERIC_500);
        out[field] = stored;
        continue;
      }
      if (value !== null && !fitsType(value, def.type)) throw new SimHttpError(500, GENERIC_500);
      out[field] = value;
    }
    return out;
  }

  private checkNotNull(row: SimRow): void {
    for (const [field, def] of this.fields) {
      if (!def.nullable && (row[field] === null || row[field] === undefined)) {
        throw new SimHttpError(
          400,
          `(psycopg2.errors.NotNullViolation) null value in column "${field}" of relation "${this.name}" violates not-null constraint`,
        );
      }
    }
  }

  /** Unique check against the table (ignoring rows being rewritten) and the batch so far (null: rows are indexed one by one). */
  private checkUnique(row: SimRow, pending: Map<string, Map<string, number>> | null, rewritten?: Set<number>): void {
    for (const u of this.uniques) {
      const key = uniqueKey(row, u.fields);
      if (key === null) continue;
      const existing = u.byValue.get(key);
      const inBatch = pending?.get(u.name)?.get(key);
      const clash =
        (existing !== undefined && existing !== row.id && !rewritten?.has(existing)) ||
        (inBatch !== undefined && inBatch !== row.id);
      if (clash) {
        const cols = u.fields.join(', ');
        const vals = u.fields.map((f) => String(row[f])).join(', ');
        throw new SimHttpError(
          400,
          `(psycopg2.errors.UniqueViolation) duplicate key value violates unique constraint "${u.name}"\nDETAIL:  Key (${cols})=(${vals}) already exists.`,
        );
      }
      if (!pending) continue;
      let batch = pending.get(u.name);
      if (!batch) pending.set(u.name, (batch = new Map()));
      batch.set(key, row.id);
    }
  }
}

function fitsType(value: unknown, type: SimFieldSeed['type']): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
  }
}

/** The value a unique index is keyed by; null when any column is null. */
function uniqueKey(row: Record<string, unknown>, fields: readonly string[]): string | null {
  if (fields.length === 1) {
    const v = row[fields[0] as string];
    return v === null || v === undefined ? null : String(v);
  }
  const values = fields.map((f) => row[f]);
  return values.some((v) => v === null || v === undefined) ? null : JSON.stringify(values);
}

function withIndex(error: unknown, index: number): unknown {
  if (!(error instanceof SimHttpError)) return error;
  return new SimHttpError(error.status, `record ${index}: ${error.message}`, { ...error.extra, index });
}
