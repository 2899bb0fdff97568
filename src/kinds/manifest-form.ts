/**
 * The kind table's manifest columns: how a kind appears in manifests (the loader's whole
 * knowledge of it), what its fields' values may be (the schemas' constraints), and the kind
 * contract every kind passes. Re-exported by types.ts.
 */
import type { FieldType } from './types.js';

/**
 * How a kind appears in manifests. The loader walks each document with these columns: for
 * every key of a spec (and of every item in it) it finds the kind whose `parentKinds` hold
 * the item's kind and whose `collection` (or `csv.key`) is the key, takes the item's fields
 * from the field table, and emits `kind.address(parent, kind.identity(fields))`. A field
 * the table types `string` that a manifest writes as a number (a house number, a postal
 * code, a country code) becomes text; object and list values get their keys sorted, so
 * that digests do not depend on key order.
 */
export interface ManifestForm {
  /** The manifest's word for one object, for diagnostics ("the subscription declares no address"). */
  noun: string;
  /** The fields that identify an object inside its parent (`DesiredObject.identity`); several when alternatives. */
  identity: readonly string[];
  /** A top-level document kind (`kind: Tenant`); absent for kinds nested in a parent's spec. */
  document?: DocumentForm;
  /**
   * How the parent's `collection` holds the items: `list`, an array of items (the default);
   * `map`, an object keyed by the first identity field (a subscription's `numbers` by number,
   * a group's `branding` by type).
   */
  shape?: 'list' | 'map';
  /**
   * What one object is, for people: the description of its items (or document) in the
   * schemas and the field reference (generated, like the fields' `doc`).
   */
  doc: string;
  /** What the parent's collection of these objects is, when it says more than `doc` (the group block list). */
  collectionDoc?: string;
  /**
   * Manifest keys that are no field of the table, kept as fields for a hook to resolve
   * (`canonicalize` turns an entitlement's `typeId` into its `type`).
   */
  extraFields?: readonly ExtraField[];
  /**
   * The identity fields are alternatives, of which an item gives exactly one (an
   * entitlement's `type` or `typeId`); otherwise they are parts, each required (a location's
   * street, number and postal code).
   */
  identityAlternatives?: boolean;
  /**
   * Keys of the API's view of the object that a manifest may not write, and why: the schema
   * refuses them with the reason (`SB_IGNORED_FIELD`) instead of calling them unknown.
   * `readOnly`: the platform assigns or computes it. (A `readOnly` field of the table is
   * refused with its `doc`; a document's `metadataFields` in its `spec` say where they go.)
   */
  refused?: Readonly<Record<string, { why: string; readOnly?: boolean }>>;
  /**
   * The name of the item's definition in the schemas, when several kinds share one form (the
   * three kinds of calling plans); by default the kind's name, in lower camel case.
   */
  schemaDef?: string;
  /**
   * Its collection comes before the parent's other collections in manifests and exports
   * (administrators: who administers an object reads first).
   */
  listedFirst?: boolean;
  /** A CSV file, named in the parent's item, whose rows add objects of this kind to the collection. */
  csv?: CsvSource;
  /**
   * The identity is unique across the whole platform, not only inside its parent (an
   * administrator's e-mail): a second declaration anywhere in the set is an error.
   */
  uniqueInPlatform?: { ignoreCase: boolean; why: string };
  /**
   * A field naming a sibling object of `kind` by identity (a number's `address`, by full
   * address): the loader warns when the parent declares that collection without it.
   */
  refersTo?: { field: string; kind: string };
  /**
   * The object's identity is a name the API can change on the same id (`field`, an `update`
   * field): a manifest may list the names it had before under `renamedFrom` (in `metadata`
   * for a document, a key of the item for a nested kind), and an object found live under one
   * of them is renamed (one update) instead of created again.
   */
  renamable?: { field: string };
}

/**
 * How a top-level document maps to its object. Its parent, one of `parentKinds`, is named in
 * `metadata` under that kind's name in lower case (`group:`, `distributor:`, `reseller:`),
 * by name or `{uuid}`.
 */
export interface DocumentForm {
  /** The document's schema in `schemas/` (its `$schema`). */
  schema: string;
  /** Fields taken from `metadata` instead of `spec` (the name). */
  metadataFields: readonly string[];
  /**
   * `metadata.uuid` binds the document to the live object with that id (the kind's id is a
   * uuid): a name that differs is a rename, and an id that does not exist is an error, never
   * a create.
   */
  pinnable?: boolean;
  /**
   * Baseline documents (docs/baselines.md) may select documents of this kind, by their
   * labels and their ancestors, and give them values: its `metadata` takes `labels` (what
   * baselines select by) and `overrides` (where the document differs from its baselines, and
   * why). One document kind of the table has it.
   */
  baselines?: boolean;
}

/** A manifest key of a kind that is no field of its table (see `ManifestForm.extraFields`). */
export interface ExtraField {
  name: string;
  type: FieldType;
  doc: string;
  manifest?: FieldManifest;
}

/**
 * The constraints of a field's manifest value, as JSON Schema says them (src/manifest/schema-kinds.ts
 * writes them into `schemas/`). The type comes from the field's `type`, `elements` and `entries`.
 */
export interface FieldManifest {
  /**
   * Every item (or document) must declare it. Identity fields are required without saying
   * so, unless they are derived or alternatives (`ManifestForm.identityAlternatives`).
   */
  required?: boolean;
  /** `null` may be written (the doc says what it means: `suspensionProfile: null` lifts a suspension). */
  nullable?: boolean;
  /**
   * Why `null` cannot be written, and what to write instead: the validation message for a
   * `null` here (the API cannot do what a null would ask, e.g. detach a number's address).
   */
  nullRefused?: string;
  /** A `string` field a manifest may also write as an integer (a house number): the loader makes it text. */
  integerAsText?: boolean;
  /** The only values allowed (the schema then says no `type`: the values do). */
  enum?: readonly string[];
  /** A regular expression (JSON Schema `pattern`) a string value must match. */
  pattern?: string;
  format?: 'email';
  minLength?: number;
  minimum?: number;
  maximum?: number;
  /** Typical values, shown by editors and in the field reference. */
  examples?: readonly (string | number | boolean)[];
  /**
   * For an object value (`entries` with fields) or list of objects (`elements` with fields):
   * the schema definition it is written as (its name, shared by fields of one shape), what
   * one such object is, and each of its fields' doc and constraints.
   */
  shape?: { def: string; doc: string; fields: Readonly<Record<string, FieldManifest & { doc: string }>> };
  /**
   * The field exists only under these keys of a map-shaped collection whose keys are a fixed
   * set (a branding type: `allowed` under `font` and `theme`).
   */
  onlyUnder?: readonly string[];
}

/** A CSV source of a kind's objects (`addressesFrom`). */
export interface CsvSource {
  /** The key in the parent's item that names the file, relative to the manifest. */
  key: string;
  /** The only columns allowed, in the platform's order. */
  header: readonly string[];
  /** The schema each row is validated against (`file#/$defs/...`): the collection's item schema. */
  rowSchema: string;
}

/** A step of the kind contract. */
export type ContractStep = 'create' | 'update' | 'replace' | 'rename' | 'delete' | 'export';

/** What the kind contract test needs of a kind (see `KindDefinition.contract`). */
export interface KindContract {
  /** One object's fields as a manifest writes them, identity included (a map item's key too). */
  sample: Readonly<Record<string, unknown>>;
  /** New values of `update` or `writeOnly` fields: the update step. */
  update?: Readonly<Record<string, unknown>>;
  /** New values of `replace` fields other than the identity: the replace step. */
  replace?: Readonly<Record<string, unknown>>;
  /**
   * Steps the kind cannot take that its columns do not say already (no `create` hook, no
   * `delete` hook, `cannotDelete`, no collection, not `renamable`, `unreadable`, …), and why.
   */
  cannot?: Readonly<Partial<Record<ContractStep, string>>>;
}
