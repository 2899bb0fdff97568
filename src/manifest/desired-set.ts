import { routingTableKind } from '../kinds/routing-table.js';
import type { NodePath } from './positions.js';
import { indexKeyOf } from './build-routing.js';
import type { Reporter } from './reporter.js';
import type { DesiredObject, DesiredRoutingTable, ExternalParent, JsonScalar, SourcePosition } from './types.js';

/**
 * The flat set of desired objects of a manifest set, with lookup by address.
 *
 * Routing rows are not in `objects`: each table keeps its rows compactly (see
 * {@link DesiredRoutingTable}); {@link get} materialises a `RoutingRow` for a row address.
 * Positions are computed on demand by {@link sourceOf}.
 */
export class DesiredSet {
  private childrenOf: Map<string, DesiredObject[]> | undefined;
  private readonly tables = new Map<string, DesiredRoutingTable>();

  constructor(
    readonly objects: readonly DesiredObject[],
    readonly routingTables: readonly DesiredRoutingTable[],
    readonly externalParents: readonly ExternalParent[],
    private readonly reporter: Reporter,
    /** Objects by address (built by the caller when it has one already). */
    private readonly byAddress = new Map(objects.map((o) => [o.address, o])),
  ) {
    for (const t of routingTables) this.tables.set(t.table.address, t);
  }

  /** The objects of the platform's kinds: every object but the routing tables (whose rows are not objects). */
  platformObjects(): DesiredObject[] {
    if (this.routingTables.length === 0) return [...this.objects];
    const tables = new Set(this.routingTables.map((t) => t.table));
    return this.objects.filter((o) => !tables.has(o));
  }

  /** Whether `object` is one of the set's routing tables (not a platform object). */
  isRoutingTable(object: DesiredObject): boolean {
    return this.tables.get(object.address)?.table === object;
  }

  /** Number of objects, routing rows included. */
  get size(): number {
    return this.objects.length + this.routingTables.reduce((n, t) => n + t.rows.length, 0);
  }

  /** The object at an address (a routing row address gives a materialised `RoutingRow`). */
  get(address: string): DesiredObject | undefined {
    return this.byAddress.get(address) ?? this.routingRow(address);
  }

  /** Objects whose parent is `address` (routing rows excluded: see `routingTables`). */
  children(address: string): readonly DesiredObject[] {
    if (!this.childrenOf) {
      this.childrenOf = new Map();
      for (const o of this.objects) {
        if (o.parentAddress === undefined) continue;
        const list = this.childrenOf.get(o.parentAddress);
        if (list) list.push(o);
        else this.childrenOf.set(o.parentAddress, [o]);
      }
    }
    return this.childrenOf.get(address) ?? [];
  }

  /** The `RoutingRow` object of row `index` of a table. */
  row(table: DesiredRoutingTable, index: number): DesiredObject {
    const values = table.rows[index] ?? [];
    const fields: Record<string, JsonScalar> = {};
    table.columns.forEach((c, i) => {
      const v = values[i];
      if (v !== undefined) fields[c] = v;
    });
    const identity: Record<string, JsonScalar> = {};
    for (const k of table.key) identity[k] = fields[k] ?? null;
    const suffix = table.key.map((k) => `${k}=${String(identity[k])}`).join(',');
    const fileIndex = table.rowSources[index * 3]!;
    const line = table.rowSources[index * 3 + 1]!;
    const third = table.rowSources[index * 3 + 2]!;
    const file = table.sourceFiles[fileIndex]!;
    const inline = table.inlinePaths[index];
    return {
      kind: routingTableKind.rowKind,
      address: `${table.table.address}/${suffix}`,
      parentAddress: table.table.address,
      identity,
      fields,
      sensitiveFields: table.sensitiveCells.get(index) ?? [],
      prune: table.table.prune,
      protect: table.table.protect,
      declaredCollections: [],
      documentAddress: table.table.address,
      origin: inline ? { type: 'yaml', file, doc: third, path: inline } : { type: 'csv', file, line },
    };
  }

  /** file:line:col of an object, or of one of its fields (CSV rows: the row's line). */
  sourceOf(object: DesiredObject | string, field?: string): SourcePosition | undefined {
    const o = typeof object === 'string' ? this.get(object) : object;
    if (!o) return undefined;
    return placeOf(this.reporter, o, field);
  }

  private routingRow(address: string): DesiredObject | undefined {
    if (!address.startsWith(`${routingTableKind.addressWord}/`)) return undefined;
    const parts = address.split('/');
    const tableAddress = parts.slice(0, 4).join('/');
    const table = this.tables.get(tableAddress);
    if (!table) return undefined;
    const key = indexKeyOf(table, address.slice(tableAddress.length + 1));
    const index = key === undefined ? undefined : table.index.get(key);
    return index === undefined ? undefined : this.row(table, index);
  }
}

/** The document path of an object's field (document-level objects keep fields in spec/metadata). */
export function fieldPath(origin: Extract<DesiredObject['origin'], { type: 'yaml' }>, field: string): NodePath {
  if (!origin.document) return [...origin.path, field];
  return origin.document.metadataFields.includes(field) ? ['metadata', field] : ['spec', field];
}

/** file:line:col of an object (or of one of its fields: the field's key). */
export function placeOf(reporter: Reporter, o: DesiredObject, field?: string): SourcePosition {
  const given = field === undefined ? undefined : o.fieldOrigins?.[field];
  if (given) return reporter.resolve({ file: given.file, doc: given.doc, path: given.path, key: true });
  if (o.origin.type === 'csv') return { file: o.origin.file, line: o.origin.line, column: 1 };
  const path = field === undefined ? o.origin.path : fieldPath(o.origin, field);
  return reporter.resolve({ file: o.origin.file, doc: o.origin.doc, path, key: field !== undefined });
}
