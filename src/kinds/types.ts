/**
 * The kind table's contract. A resource kind is one small module of mostly data: its
 * identity, its parent, its API paths and roles, and a field table; hooks exist only
 * where the API is quirky. The reader, the planner, the renderers and the executor work
 * from these declarations and never name a kind (STYLE.md points 1 and 2).
 */
import type { FieldManifest, KindContract, ManifestForm } from './manifest-form.js';

export type * from './manifest-form.js';

/** How a declared field behaves when its value differs from the live one. */
export type FieldChange =
  /** Sent in the update body. */
  | 'update'
  /** The API cannot change it: a difference means delete + create (a replace). */
  | 'replace'
  /** Never returned by the API: compared through the last-applied digest, sent on create/update. */
  | 'writeOnly'
  /**
   * Read from the API and shown (a delete's `before`), never declared or sent: the create and
   * update calls do not accept it, and the manifest schema refuses it (`x-ignored`).
   */
  | 'readOnly';

/** How values are normalised on both sides before they are compared. */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'list' | 'set' | 'object';

/** One row of a kind's field table. */
export interface FieldSpec {
  /** The manifest's name for the field (`spec.<name>`, or the nested item's key). */
  name: string;
  /** The API's name in request bodies and reads, when it differs. */
  api?: string;
  change: FieldChange;
  type: FieldType;
  /** Rendered as `(sensitive)`, stored as a digest, never logged. */
  sensitive?: boolean;
  /** Replaces the type's normalisation (both sides), e.g. to compare a list of objects as a set. */
  normalize?: (value: unknown) => unknown;
  /**
   * For a value the API reads as a list: what each element must be, a scalar type or the
   * fields of an object (`?` marks an optional one). A misread element fails the read.
   */
  elements?: ValueShape;
  /** For a value the API reads as an object: the type of every value (a map), or its fields. */
  entries?: ValueShape;
  /**
   * The value the manifest loader gives the field when a manifest leaves it out, formed from
   * the object's other fields (an address's full address from its parts). Export leaves the
   * field out when the live value is the derived one.
   */
  derived?: (fields: Record<string, unknown>) => unknown;
  /**
   * What the field is, for people: the schemas' `description` (editor hover) and the field
   * reference of docs/manifests.md, both generated (`npm run schemas:generate`). For a
   * `readOnly` field: why a manifest cannot set it (the refusal's reason).
   */
  doc: string;
  /** What a manifest may write for the field beyond its type: the schemas' constraints. */
  manifest?: FieldManifest;
}

/** A scalar type, or the fields of an object (`?` marks an optional one). */
export type ValueShape = ElementType | Readonly<Record<string, ElementType | `${ElementType}?`>>;

/**
 * The type of a list element, or of a field of an object element: `integer` accepts a
 * numeric string (the API spells some numbers so), `scalar` a string or a number, `object`
 * a JSON object.
 */
export type ElementType = 'string' | 'integer' | 'boolean' | 'scalar' | 'object';

/** The ids a path needs: the live (or soon created) ids of the object's ancestors by kind. */
export type IdChain = Readonly<Record<string, string>>;

/** The parent an object is created under: its kind and its id chain (ids may be pending). */
export interface ParentRef {
  kind: string;
  ids: IdChain;
}

/** An HTTP request a kind asks for; the executor fills `{id:ADDRESS}` placeholders. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  role?: string;
  body?: unknown;
  query?: Record<string, string>;
  /** Not a POST, but it creates (a bulk PUT starts a job that creates, Doc 2 §4.5): never re-sent as a write would be. */
  creates?: true;
}

/** How a collection is listed (see the client's pagination styles). */
export interface ListSpec {
  path: string;
  itemsKey: string;
  /** `none`: one GET returning an array under itemsKey; `object`: the body is the one item. */
  style: 'page' | 'token' | 'none' | 'object';
  role?: string;
  query?: Record<string, string>;
  /** The endpoint answers 404 when the collection is empty (calling plans, prefixes). */
  notFoundIsEmpty?: boolean;
  /** Values merged into every item read (what the request's query implied, e.g. a type). */
  inject?: Record<string, unknown>;
  /**
   * The list holds scalars, not objects (a group's enabled UC platforms: an array of
   * strings, Doc 1 §4.2): each one is read as the item `{ [scalarItems]: value }`.
   */
  scalarItems?: string;
}

/** One live object, normalised to manifest field names. */
export interface LiveObject {
  kind: string;
  address: string;
  /** The platform's id of this object, as a string. */
  id: string;
  parentAddress?: string;
  /** Ids of this object and its ancestors by kind, for building paths. */
  ids: IdChain;
  /** Managed fields as the manifest would spell them (normalised). */
  fields: Record<string, unknown>;
  /** Facts the safety checks need (assigned counts, deletable flags), not diffed. */
  facts?: Record<string, unknown>;
  /**
   * The address the object had when it was read, when a manifest renames it (`renamedFrom`, or
   * a pinned `metadata.uuid` under another name): it is then known by its new address.
   */
  previousAddress?: string;
  /**
   * Known only from the last-applied record, because its read was missing (`readMayBeMissing`):
   * every declared field is compared through its recorded digest, as write-only fields are.
   */
  fromRecord?: boolean;
}

/**
 * A list of reference data a kind reads to translate names and ids (suspension profiles,
 * entitlement types, postal codes), declared by the kind module that needs it and read
 * through {@link ReferenceData}: once per run and source, every item checked.
 */
export interface ReferenceList<T> {
  /** Names the list in messages and tests. */
  name: string;
  /** Where the list is read, for the id chain of the object that needs it; one read per distinct path. */
  source(P: string, ids: IdChain): ReferenceSource;
  /** What each item must hold: a misread item fails the read instead of mapping a name to a wrong id. */
  shape: ValueShape;
  /** The value the kind works with, from one checked item. */
  value(item: Record<string, unknown>): T;
}

/** The request that lists a reference list (see the client's pagination styles). */
export interface ReferenceSource {
  path: string;
  itemsKey: string;
  style: 'page' | 'token' | 'none';
  role?: string;
  /** The page-size parameter, when the endpoint spells it otherwise (`size`). */
  pageSizeParam?: string;
}

/** Reference data, read once per run and source, that kinds use to translate names and ids. */
export interface ReferenceData {
  /** The items of `list` for the object whose id chain is `ids` (default: the instance's own list). */
  read<T>(list: ReferenceList<T>, ids?: IdChain): Promise<T[]>;
}

/** Connection settings that change a kind's requests (from the config file or the environment). */
export interface KindSettings {
  /** Where the group's branding is read, below `P/groups/{uuid}/` (the documents do not show it). */
  brandingReadPath?: string;
}

/** What hooks may consult while reading or building requests. */
export interface KindContext {
  /** `P` of the spec: `/api/v01/draas/{instance}`. */
  P: string;
  refs: ReferenceData;
  settings?: KindSettings;
}

/** A desired object as the manifest loader produces it (only what the engine reads). */
export interface DesiredLike {
  kind: string;
  address: string;
  parentAddress?: string;
  fields: Record<string, unknown>;
}

/** A kind's declaration. */
export interface KindDefinition {
  kind: string;
  /** Kinds this one may live under; empty for top-level kinds. */
  parentKinds: readonly string[];
  /** The manifest collection (in the parent's spec) that declares these objects, for prune scope. */
  collection?: string;
  /** How the kind appears in manifests: the manifest loader's whole knowledge of it. */
  manifest: ManifestForm;
  /** Managed fields. Identity fields are listed too (change 'replace' or 'update'). */
  fields: readonly FieldSpec[];
  /** The identity inside the parent, from normalised fields (must agree with the manifest's address). */
  identity(fields: Record<string, unknown>): string;
  /** The object's address from its parent's address and identity (docs/plans.md). */
  address(parentAddress: string | undefined, identity: string): string;
  /** How to list the live objects of this kind under one live parent (or at the top). */
  list?(parent: LiveObject | undefined, ctx: KindContext): ListSpec | ListSpec[] | undefined;
  /**
   * Fields the list view lacks: when the manifest declares one that is not in `listed`,
   * the reader GETs the object (the one case where a GET per object is needed).
   */
  detail?: { listed: readonly string[]; request(live: LiveObject, ctx: KindContext): RequestSpec };
  /**
   * Rewrites a declared object into the form the live side identifies it by, before
   * anything is read (an entitlement declared by type id is identified by its type's name).
   */
  canonicalize?(desired: DesiredLike, ctx: KindContext): Promise<{ address: string; fields: Record<string, unknown> }>;
  /**
   * The object's actual parent as a listed API item names it (its `owner`), for lists
   * that answer a parent's whole subtree (a group's tenants include its resellers'
   * tenants). `export` places each object under this owner; the reader checks it against
   * the declared parent of a kind with `fixedParent`.
   */
  ownerOf?(item: Record<string, unknown>): { kind: string; id: string; name?: string } | undefined;
  /**
   * What the field table cannot say about a read item (a nested object the fields are read
   * from): a problem makes the read fail as a misread answer instead of planning from it.
   */
  itemProblem?(item: Record<string, unknown>): string | undefined;
  /** Turns one API item into id + manifest-named fields (+ facts). */
  fromApi(
    item: Record<string, unknown>,
    ctx: KindContext,
    parent: LiveObject | undefined,
  ): Promise<LiveParts> | LiveParts;
  /** Requests to create / update / delete; absent when the API has no such endpoint. */
  create?(
    desired: DesiredLike,
    parent: ParentRef | undefined,
    ctx: KindContext,
  ): Promise<RequestSpec[]> | RequestSpec[];
  /** `changed` names the manifest fields whose values differ (write-only ones included). */
  update?(
    desired: DesiredLike,
    live: LiveObject,
    ctx: KindContext,
    changed: readonly string[],
  ): Promise<RequestSpec[]> | RequestSpec[];
  /**
   * Where the id of a created object comes from: a response body field, a lookup by
   * identity (204 without id), or the identity itself (an object whose id is its identity).
   */
  createdId?: { from: 'body'; field: string } | { from: 'lookup' } | { from: 'identity' };
  delete?(live: LiveObject, ctx: KindContext): RequestSpec[];
  /** Why the API cannot delete this kind (products): shown instead of planning a delete. */
  cannotDelete?: string;
  /** Objects that hold customer data: a replace needs --allow-replace. */
  holdsData?: boolean;
  /** Replace by creating the new object before deleting the old one (calling plans). */
  createBeforeDelete?: boolean;
  /**
   * Objects the API gives every parent and never lets anyone delete (the default template,
   * id 0): never deleted whatever prune says, and not "unmanaged" either, since no manifest
   * could make them go.
   */
  isUndeletable?(live: LiveObject): boolean;
  /**
   * The API cannot move the object to another parent (its owner), and its address does not
   * name the parent, so a manifest can declare it under another one: a declared object found
   * live under another parent than declared is refused (`SB_OWNER_CHANGE`), never updated
   * where it is nor created a second time. Its `reference` is the API document's section
   * that says so; `remedy` says what to do instead (after "either keep the owner, or …").
   */
  fixedParent?: { reference: string; remedy: string };
  /** Spec constraints checked before anything is sent; a message refuses the change. */
  checkUpdate?(desired: DesiredLike, live: LiveObject): string | undefined;
  checkDelete?(live: LiveObject): string | undefined;
  /**
   * The object cannot be listed, created or deleted and is taken to exist when declared
   * (trunk groups: Doc 2 names them by id only); its children are read through it.
   */
  assumedToExist?: boolean;
  /** A bulk endpoint for many creates or updates of this kind under one parent. */
  bulk?: BulkRoute;
  /** The API cannot list this kind (administrators): only last-applied digests tell. */
  unreadable?: boolean;
  /**
   * The list request is one the API documents do not show, so a platform may not have it:
   * when it answers 404 (or 405), the objects it would have listed are taken from the
   * last-applied record (`fromRecord`, compared through the digests every apply records for
   * this kind) and the plan says once why, ending with `note`.
   */
  readMayBeMissing?: { note: string };
  /**
   * The object is a capacity of its parent (an entitlement: how many numbers of a type a
   * subscription may select, Doc 2 §2.3): its figure in the plan's Capacity section, from
   * what the plan leaves declared and what the platform reports (either side may be absent).
   */
  capacity?(desired: DesiredLike | undefined, live: LiveObject | undefined): CapacityFigure;
  /**
   * Capacity figures the platform reports for a live object of this kind in a report read
   * once per ancestor (a subscription's licences, in its group's licence report, Doc 2 §4.2).
   */
  capacityReport?: CapacityReport;
  /**
   * A field whose value must be the identity of a live object of another kind under an
   * ancestor of the object (a subscription's `uc`: one of its group's enabled UC platforms,
   * Doc 1 §4.2). A create or replace that sets it otherwise is refused before anything is sent.
   */
  liveReference?: { field: string; kind: string; under: string; code: string; why: string };
  /**
   * The kind contract (test/kinds/contract.test.ts): one object the simulator accepts, and
   * new values for its update and replace steps. Every kind passes the same steps (create,
   * update, replace, rename, delete, export) or says here why it cannot, where no column
   * says it already.
   */
  contract: KindContract;
  /**
   * Emergency coverage (docs/assurance.md): the objects of this kind are their parent's
   * numbers, each linked to an object of the kind `manifest.refersTo` names (its emergency
   * address) or to none. Read when a plan asks for coverage, and by the rail that refuses
   * deleting an address numbers still use.
   */
  coverage?: CoverageColumn;
}

/** How a kind's objects link to emergency addresses (see `coverage`). */
export interface CoverageColumn {
  /** A listed object's link: the id of the object it names (null: none), and whether the platform verified it (null: not said). */
  linkOf(object: LiveObject): { id: string | null; verified: boolean | null };
  /** The list of the objects under `parent` linked to the object with id `id` (a filtered list). */
  linkedTo(parent: LiveObject, id: string, ctx: KindContext): ListSpec;
}

/** One line of the plan's Capacity section. */
export interface CapacityFigure {
  /** What is counted: `entitlement BE geo`, `licence ucAlphaUsers`. */
  subject: string;
  /** The quantity the plan leaves declared; null when manifests cannot declare it (licences). */
  declared: number | null;
  /** What the platform reports as assigned (numbers under an entitlement, licences to a subscription). */
  assigned: number;
  reserved: number;
  /** What of `assigned` is used, when the platform reports it (a licence's `inUse`). */
  inUse?: number;
  /** What may still be taken; null when nothing says. */
  headroom: number | null;
  /** The quantity the headroom is a share of (the low-headroom warning); null when unknown. */
  of: number | null;
}

/** A report of an ancestor that holds capacity figures of objects below it (see `capacityReport`). */
export interface CapacityReport {
  /** The kind of the ancestor whose report it is (one read per ancestor and run). */
  ancestor: string;
  /** The GET that reads the report of the ancestor with this id. */
  request(ancestorId: string, ctx: KindContext): RequestSpec;
  /**
   * The figures of one live object in the report: undefined when the report does not list
   * it; a problem when the report cannot be what the API documents say (a misread answer).
   */
  figures(report: unknown, live: LiveObject): CapacityFigure[] | undefined | { problem: string };
  /**
   * Whether the report lists an object of this id chain (its tenant, reseller or distributor):
   * how the ancestor of an object hanging under a parent named by uuid is found.
   */
  covers(report: unknown, ids: IdChain): boolean;
}

/**
 * A bulk endpoint that stands for many single requests of a kind (Doc 2 §4.5-4.6): the
 * executor folds the changes of one parent into one bulk request, then follows the job.
 */
export interface BulkRoute {
  name: string;
  /** Does this planned request (the kind's create or update) go through the bulk endpoint? */
  matches(request: { method: string; path: string }): boolean;
  /** `always`: every match is batched; `threshold`: only groups larger than the executor's threshold. */
  when: 'always' | 'threshold';
  /**
   * The items name sibling objects by identity (a number's address, by full address), so
   * the group waits for every create under the same parent in this run.
   */
  afterSiblingCreates: boolean;
  /** The items are creates: list the collection after the job for their ids (and proof). */
  creates: boolean;
  /** The bulk endpoint for the (resolved) path of the grouped requests. */
  bulkPath(path: string): string;
  /** The job list of this kind of job. */
  jobsPath(path: string): string;
  /** `T` of the spec, for `GET T/bulks/{id}`. */
  subscriptionPath(path: string): string;
  /** The items one request contributes to the bulk body's `data`. */
  items(body: unknown): unknown[];
  /** Whether one request may go into the bulk body unchanged in meaning. */
  eligible(body: unknown): boolean;
  jobsRole: string;
  detailRole: string;
  bulkRole: string;
}

export interface LiveParts {
  id: string;
  fields: Record<string, unknown>;
  facts?: Record<string, unknown>;
}
