import type { Diagnostic, SourcePosition } from '../core/errors.js';
import type { StringIndex } from '../core/string-index.js';
import type { ScalarColumnType } from '../core/values.js';

export type { Diagnostic, SourcePosition };

/** A document kind of docs/manifests.md: one of `MANIFEST_KINDS` (see document-kinds.ts). */
export type ManifestKind = string;

export type JsonScalar = string | number | boolean | null;
export type JsonValue = JsonScalar | JsonValue[] | { [key: string]: JsonValue };

/**
 * A parent that the manifest set does not declare. By name: it must exist live (the
 * planner looks it up by name). By uuid: an existing object.
 */
export type ParentRef = { kind: string; name: string } | { kind: string; uuid: string };

/**
 * Where a desired object was written: the manifest file, the document's index in it, and
 * the path of the object's node in that document (`['spec', 'subscriptions', 0]`); or a
 * CSV file and line. Turned into file:line:col by {@link DesiredSet.sourceOf}, lazily,
 * because computing positions for every node costs more than the whole fast parse.
 */
export type Origin =
  | {
      type: 'yaml';
      file: string;
      doc: number;
      path: readonly (string | number)[];
      /** Document-level objects: their fields sit under `spec`, except these under `metadata`. */
      document?: { metadataFields: readonly string[] };
    }
  | { type: 'csv'; file: string; line: number };

/**
 * One object the manifests declare. Plain data except for nothing: safe to serialise. Its
 * kind is one of the kind table's (`src/kinds/`), or a routing table or row.
 */
export interface DesiredObject {
  kind: string;
  /** docs/plans.md address, unique in the set. */
  address: string;
  /** Address of the parent when the parent is declared in the manifest set. */
  parentAddress?: string;
  /** The parent when it is not declared: by name (must exist live) or by uuid. */
  parentRef?: ParentRef;
  /** The fields that identify the object inside its parent (also present in `fields`). */
  identity: Record<string, JsonScalar>;
  /**
   * Only the fields the manifest declares, in manifest spelling, after `${VAR}`
   * interpolation. Omitted = unmanaged; an explicit null is kept as null. Identity fields
   * are included. Child collections are not fields: they are objects of their own.
   */
  fields: Record<string, JsonValue>;
  /** Fields whose value came from `${VAR}` (or are secret by nature): render as `(sensitive)`. */
  sensitiveFields: readonly string[];
  /** Inherited from the document's `metadata.prune`. */
  prune: boolean;
  /** Inherited from the document's `metadata.protect`: never delete or replace. */
  protect: boolean;
  /**
   * The child collections this object declares: the manifest keys of its item that are a
   * child kind's `collection` (`subscriptions`, `addresses`, …; a CSV source such as
   * `addressesFrom` declares its kind's collection), or `records` for a routing table.
   * Prune only touches these (docs/plans.md).
   */
  declaredCollections: readonly string[];
  /**
   * The addresses the object had under the names its `renamedFrom` lists (a kind the table
   * marks `renamable`): the plan renames a live object found there instead of creating one.
   */
  previousAddresses?: readonly string[];
  /** `metadata.uuid` of a pinnable document: the live object it is bound to. */
  pinnedId?: string;
  /** Address of the document's top object (`tenant/acme-corp` for its entitlements). */
  documentAddress: string;
  origin: Origin;
  /**
   * Fields written elsewhere than the object's own item: a baseline's value merged into the
   * document's item (docs/baselines.md). Absent for almost every object.
   */
  fieldOrigins?: Readonly<Record<string, Extract<Origin, { type: 'yaml' }>>>;
}

/** A row value: scalars only; `undefined` in a row = the field is not given for that row. */
export type RowValue = JsonScalar | undefined;

/**
 * The rows of one RoutingTable, kept compact: one array of values per row aligned with
 * `columns`, and packed sources, instead of one DesiredObject per row (a million-row
 * table stays a few arrays). {@link DesiredSet.get} materialises a `RoutingRow` object
 * for a row address on demand.
 */
export interface DesiredRoutingTable {
  /** The RoutingTable desired object (`routing/<service>/<version>/<table>`). */
  table: DesiredObject;
  service: string;
  version: string;
  name: string;
  key: string[];
  fieldTypes: Record<string, ScalarColumnType>;
  /** Union of the field names of all rows, in first-seen order. */
  columns: string[];
  rows: RowValue[][];
  /**
   * Row index by key: the key value itself for a one-field key, the values joined by
   * U+001F otherwise (see `rowKey` / `indexKeyOf` in build-routing.ts). A StringIndex, not a
   * Map, for a CSV's million rows (src/core/string-index.ts says why).
   */
  index: StringIndex;
  /**
   * Per row, 3 numbers: index into `sourceFiles`, line, column. For an inline record the
   * line is 0 and the third number is the document index (its position is resolved from
   * `inlinePaths` on demand).
   */
  rowSources: number[];
  sourceFiles: string[];
  /** Per row: document path of an inline record, or undefined for CSV rows. */
  inlinePaths: (readonly (string | number)[] | undefined)[];
  /**
   * By row index, the fields of the row whose value came from `${VAR}` (only rows that have
   * one; inline records only, CSV cells are read as written): the plan shows them as
   * `(sensitive)` with a digest, as an object's `sensitiveFields`.
   */
  sensitiveCells: Map<number, readonly string[]>;
}

/** A parent referenced by name and not declared: must exist live. */
export interface ExternalParent {
  kind: string;
  name: string;
  /** Addresses of the objects that reference it. */
  referencedBy: string[];
}
