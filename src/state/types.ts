import type { LiveObject } from '../kinds/types.js';

/**
 * A desired object as the planner needs it. The manifest loader's objects satisfy it; the
 * engine reads nothing else from them.
 */
export interface DesiredNode {
  kind: string;
  address: string;
  /** Address of the declared parent document or object. */
  parentAddress?: string;
  /** A parent not declared in the manifests: by uuid, or by name (must exist live). */
  parentRef?: { kind: string; uuid?: string; name?: string };
  /** Declared fields only, manifest spelling; nested collections are separate nodes. */
  fields: Record<string, unknown>;
  /** Fields whose declared value is secret (e.g. it came from `${VAR}`): never shown. */
  sensitiveFields?: readonly string[];
  prune?: boolean;
  protect?: boolean;
  /** Child collections this object declares (e.g. `subscriptions`, `addresses`). */
  declaredCollections?: readonly string[];
  /** The addresses it had under its former names (`renamedFrom`): a live object there is renamed. */
  previousAddresses?: readonly string[];
  /** The live id it is bound to (`metadata.uuid`): found by id, never created. */
  pinnedId?: string;
  /** `file:line:col` of the object, for messages. */
  source?: string;
  /**
   * The address as the manifest spells it, when the kind's `canonicalize` hook rewrote it
   * (an entitlement declared by type id is planned under its type's name): `--target`,
   * `--exclude` and a saved plan's scope match either.
   */
  declaredAs?: string;
  /**
   * Kept only so that it exists first: an ancestor of what `--target` or a scoped plan
   * (`--changed-since`) selects. Created when it is not live; when it is, nothing of it is
   * planned (its own fields, a rename, a replace are its document's plan, not this one's).
   */
  dependencyOnly?: true;
}

/**
 * What the last successful apply wrote, by address: digests of write-only values (never the
 * values) and the object's identity fields (for kinds the API cannot read back).
 */
export interface LastAppliedEntry {
  kind: string;
  digests: Readonly<Record<string, string>>;
  identity?: Readonly<Record<string, unknown>>;
}
export type LastApplied = ReadonlyMap<string, LastAppliedEntry>;

/** One live collection the reader listed: everything in it is in scope. */
export interface ListedCollection {
  kind: string;
  parentAddress?: string;
  addresses: string[];
}

/** What the reader found. */
export interface LiveState {
  byAddress: Map<string, LiveObject>;
  collections: ListedCollection[];
  /** Problems that make a plan impossible (an undeclared parent that does not exist, …); `code` defaults to `SB_LIVE_PARENT`. */
  problems: { address: string; message: string; code?: string }[];
  /** What the plan should say about how it read (a missing read it planned around), once each. */
  warnings?: { code: string; message: string; address?: string }[];
  /**
   * Declared objects whose live identity the API cannot reconcile (exit 3): found under
   * another owner than declared, renamed onto a name that is taken, pinned to an id that
   * does not exist. Nothing is planned for them.
   */
  refusals?: { code: string; message: string; address: string }[];
  /** The last-applied record as the live addresses see it, when a rename moved entries. */
  lastApplied?: LastApplied;
}

/** The subset of the API client the reader uses (the client satisfies it; tests fake it). */
export interface ListingClient {
  listPages<T = unknown>(options: {
    path: string;
    itemsKey: string;
    style: 'page' | 'token' | 'none';
    query?: Record<string, string>;
    role?: string;
    notFoundIsEmpty?: boolean;
    /** Told the requests a consistent read took (a client that never calls it reads lists in one). */
    onRead?: (read: { pages: number }) => void;
  }): Promise<T[]>;
  request<T = unknown>(options: {
    method: 'GET';
    path: string;
    query?: Record<string, string>;
    role?: string;
    notFoundIsEmpty?: boolean;
  }): Promise<{ status: number; body: T }>;
}
