import { ApiError } from '../api/errors.js';
import { hasKind, kindOf, kinds } from '../kinds/index.js';
import type { KindDefinition, LiveObject } from '../kinds/types.js';
import type { DesiredNode, LiveState } from './types.js';

/** The owner an API item names (Doc 1 §2.6), as a kind and id. */
export interface OwnerRef {
  kind: string;
  id: string;
  name?: string;
}

/** What binding identities needs of the live-state reader. */
export interface ReaderPort {
  readonly state: LiveState;
  /** The objects of `kind` listed under `parent` (top level when undefined), taken into scope. */
  listed(kind: KindDefinition, parent: LiveObject | undefined): Promise<LiveObject[]>;
  /** The same list without taking its objects into scope: a search (cached). */
  peek(kind: KindDefinition, parent: LiveObject | undefined): Promise<LiveObject[]>;
  /** The list of `kind` under `parent` lacks an object it holds (found elsewhere): it must be read again. */
  missed(kind: KindDefinition, parent: LiveObject): void;
  /** The owner the API item of a listed object named, when its kind reads one. */
  ownerOf(live: LiveObject): OwnerRef | undefined;
  /** A listed top-level object (a group) by kind and id. */
  byId(kind: string, id: string): LiveObject | undefined;
  /** A declared object by address. */
  desired(address: string): DesiredNode | undefined;
}

/** A declared parent: live, or declared and created by this plan (its address). */
export type DeclaredParent = LiveObject | { pending: string };

/** A list's objects by address and by id (the first of each, as listed). */
interface ListIndex {
  byAddress: Pick<ReadonlyMap<string, LiveObject>, 'get'>;
  byId: Pick<ReadonlyMap<string, LiveObject>, 'get'>;
}

/**
 * Lists up to this long are scanned, not indexed: most lists hold a few objects (a
 * subscription's entitlements), and two Maps kept per list cost about 400 bytes, 40 MB
 * over the 100,000 lists of a national estate.
 */
const SCANNED_LIST_LENGTH = 16;

function scannedIndex(list: readonly LiveObject[]): ListIndex {
  return {
    byAddress: { get: (address) => list.find((live) => live.address === address) },
    byId: { get: (id) => list.find((live) => live.id === id) },
  };
}

/**
 * Where identity binding looks beyond a declared parent's list (identity.ts), and the
 * indexes it looks things up in: each list indexed once, each wider scope read once.
 */
export class SearchScope {
  /** Lists indexed by address and id, once each: a scan per declared object would be quadratic. */
  private readonly indexes = new WeakMap<readonly LiveObject[], ListIndex>();
  /** The kind under every root, by kind. */
  private readonly scopes = new Map<string, Promise<LiveObject[]>>();

  constructor(private readonly port: ReaderPort) {}

  /**
   * Where else a moved object can be: the kind's list under the root object (a group's list
   * holds its whole subtree, Doc 1 §4.3, §4.4), under every root the caller can list when no
   * root is given, or the caller's own list (no parent) when it cannot list roots.
   */
  scope(kind: KindDefinition, root: LiveObject | null | undefined): Promise<LiveObject[]> {
    if (root === null) return Promise.resolve([]); // a root this plan creates holds nothing yet
    if (root) return this.port.peek(kind, root);
    const key = kind.kind;
    let scope = this.scopes.get(key);
    if (!scope) {
      scope = this.everywhere(kind);
      this.scopes.set(key, scope);
    }
    return scope;
  }

  /** The kind under every root the caller can list, else its own list. */
  private async everywhere(kind: KindDefinition): Promise<LiveObject[]> {
    try {
      const tops = (await Promise.all(rootKindsOf(kind).map((r) => this.port.listed(r, undefined)))).flat();
      return (await Promise.all(tops.map((t) => this.port.peek(kind, t)))).flat();
    } catch (error) {
      if (!isRefused(error)) throw error;
    }
    try {
      return await this.port.peek(kind, undefined);
    } catch (error) {
      if (isRefused(error)) return [];
      throw error;
    }
  }

  indexOf(list: readonly LiveObject[]): ListIndex {
    if (list.length <= SCANNED_LIST_LENGTH) return scannedIndex(list);
    let index = this.indexes.get(list);
    if (!index) {
      const byAddress = new Map<string, LiveObject>();
      const byId = new Map<string, LiveObject>();
      for (const live of list) {
        if (!byAddress.has(live.address)) byAddress.set(live.address, live);
        if (!byId.has(live.id)) byId.set(live.id, live);
      }
      index = { byAddress, byId };
      this.indexes.set(list, index);
    }
    return index;
  }

  /** The root object (a group) a declared parent hangs under; null when this plan creates it; undefined when unknown. */
  rootOf(parent: DeclaredParent): LiveObject | null | undefined {
    let at: DeclaredParent = parent;
    for (let depth = 0; depth < 10; depth++) {
      if ('id' in at) return this.rootOfLive(at);
      const live = this.port.state.byAddress.get(at.pending);
      if (live) return this.rootOfLive(live);
      const declared = this.port.desired(at.pending);
      const next = declared && declaredParentAddress(declared);
      if (!declared) return undefined;
      if (next === undefined) return null;
      at = { pending: next };
    }
    return undefined;
  }

  private rootOfLive(live: LiveObject): LiveObject | undefined {
    for (const root of kinds.filter((k) => k.parentKinds.length === 0)) {
      const id = live.ids[root.kind];
      if (id !== undefined) return live.kind === root.kind ? live : this.port.byId(root.kind, id);
    }
    return undefined;
  }
}

/**
 * Values by kind and id. A key string per lookup (`kind + id`) was built and hashed for every
 * live object, several times each: hundreds of thousands of strings in a national plan.
 */
export class ByKindAndId<T> {
  private readonly byKind = new Map<string, Map<string, T>>();

  get(kind: string, id: string): T | undefined {
    return this.byKind.get(kind)?.get(id);
  }

  set(kind: string, id: string, value: T): void {
    let ids = this.byKind.get(kind);
    if (!ids) {
      ids = new Map();
      this.byKind.set(kind, ids);
    }
    ids.set(id, value);
  }
}

/** The address a declared node's parent has (declared, or named by uuid or name in its metadata). */
function declaredParentAddress(node: DesiredNode): string | undefined {
  if (node.parentAddress !== undefined) return node.parentAddress;
  const ref = node.parentRef;
  if (!ref) return undefined;
  if (ref.uuid !== undefined) return `${ref.kind.toLowerCase()}/${ref.uuid}`;
  return ref.name === undefined || !hasKind(ref.kind) ? undefined : kindOf(ref.kind).address(undefined, ref.name);
}

/** The top-level kinds above a kind (groups), through its parent kinds. */
function rootKindsOf(kind: KindDefinition): KindDefinition[] {
  const roots = new Set<KindDefinition>();
  const visit = (k: KindDefinition) => {
    for (const name of k.parentKinds) {
      if (!hasKind(name)) continue;
      const parent = kindOf(name);
      if (parent.parentKinds.length === 0) roots.add(parent);
      else visit(parent);
    }
  };
  visit(kind);
  return [...roots];
}

function isRefused(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}
