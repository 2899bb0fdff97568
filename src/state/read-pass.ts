import { kindOf, kinds } from '../kinds/index.js';
import type { KindContext, KindDefinition, LiveObject } from '../kinds/types.js';
import { ApiError } from '../api/errors.js';
import { listKey, liveObject, readCollection, type ListRead } from './collection-read.js';
import { Identities } from './identity.js';
import { ByKindAndId, type OwnerRef, type ReaderPort } from './search-scope.js';
import { assertReadable } from './item-shape.js';
import { recordedObjects } from './recorded.js';
import type { DesiredNode, LastApplied, ListedCollection, ListingClient, LiveState } from './types.js';
import { idChain } from '../kinds/id-chain.js';
import { compareKeys } from '../core/canonical-json.js';

/**
 * Declared objects whose reads are under way at once. The client's concurrency limit is
 * what bounds the requests (32 at most); this bounds the reads waiting for it. Started all
 * at once, the reads of 50,000 declared tenants held 50,000 suspended calls each with its
 * pending request: a plan of 250,000 objects peaked at 1.9 GB, 0.85 GB with this bound.
 */
const READS_UNDER_WAY = 256;

/** Runs `task` for each item in order, at most `limit` at once; stops starting new ones after a failure, and rejects with it. */
async function eachAtMost<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<unknown> | undefined,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      try {
        // An item with nothing to wait for (undefined) is not awaited: no promise, no microtask.
        const waiting = task(items[next++] as T);
        if (waiting) await waiting;
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The nodes of one level in the order their reads start: the first node under each parent,
 * then the others as declared. A node's read is its parent's list, shared by its siblings;
 * in declared order the reads under way at once ({@link READS_UNDER_WAY}) were siblings
 * waiting for one or two lists (a reseller's 1,000 tenants), and the lists were read a few
 * at a time instead of at the client's concurrency.
 */
export function parentsFirst(nodes: readonly DesiredNode[]): DesiredNode[] {
  const seen = new Set<string>();
  const first: DesiredNode[] = [];
  const rest: DesiredNode[] = [];
  for (const node of nodes) {
    const parent = node.parentAddress ?? parentRefKey(node.parentRef);
    if (seen.has(parent)) rest.push(node);
    else {
      seen.add(parent);
      first.push(node);
    }
  }
  return rest.length === 0 ? first : first.concat(rest);
}

function parentRefKey(ref: DesiredNode['parentRef']): string {
  // Not an address (addresses have no NUL): a named or pinned parent of another kind.
  return ref ? `\u0000${ref.kind}\u0000${ref.uuid ?? ''}\u0000${ref.name ?? ''}` : '';
}

/**
 * One read of exactly the live objects the manifests touch: the declared objects and their
 * parents, and the collections the manifests declare, one list request per collection
 * page (never a GET per object, except where a kind's list view lacks a declared field).
 * Collections a previous pass read and found settled are taken from `carried` instead of
 * being read again (read.ts). Generic over the kind table: no kind is named here.
 */
export class ReadPass {
  private readonly state: LiveState = { byAddress: new Map(), collections: [], problems: [] };
  private readonly listings = new Map<string, Promise<LiveObject[]>>();
  /** Lists read without taking their objects into scope (searches), and the lists listings take. */
  private readonly peeks = new Map<string, Promise<ListRead>>();
  /** The collection each declared object not found was looked for in, by address: what its absence rests on. */
  private readonly lookedIn = new Map<string, string>();
  /** Collections found to lack an object they hold (it was found elsewhere, under the very parent listed). */
  private readonly missed = new Set<string>();
  /** Owners the listed items name (kinds with `ownerOf`), by kind and id. */
  private readonly owners = new ByKindAndId<OwnerRef>();
  /** Top-level objects taken into scope (groups), by kind and id: the roots a search starts from. */
  private readonly byId = new ByKindAndId<LiveObject>();
  private declared: ReadonlyMap<string, DesiredNode> = new Map();
  private readonly identities: Identities;
  /** Kinds whose lists the platform refused (403) while looking for an owner. */
  private readonly refusedLists = new Set<string>();
  /** The warning of each kind whose read is missing: the first by its words ({@link adopt}). */
  private readonly missingReads = new Map<string, ListRead['warnings']>();

  constructor(
    private readonly client: ListingClient,
    private readonly ctx: KindContext,
    private readonly lastApplied: LastApplied = new Map(),
    private readonly carried: ReadonlyMap<string, ListRead> = new Map(),
  ) {
    this.identities = new Identities(this.port(), lastApplied);
  }

  /** Every collection this pass read (or was carried), by key. */
  reads(): Map<string, Promise<ListRead>> {
    return this.peeks;
  }

  /** The collection a declared object was looked for in (its absence rests on it). */
  lookedInFor(address: string): string | undefined {
    return this.lookedIn.get(address);
  }

  /** Collections known to lack an object they hold. */
  missedLists(): ReadonlySet<string> {
    return this.missed;
  }

  /** Reads one collection again, afresh: what a second read finds. */
  reread(kind: KindDefinition, parent: LiveObject | undefined): Promise<ListRead> {
    return this.fetchCollection(kind, parent);
  }

  async read(desired: readonly DesiredNode[], kindOrder: readonly string[]): Promise<LiveState> {
    const byAddress = new Map(desired.map((d) => [d.address, d]));
    this.declared = byAddress;
    const byKind = new Map<string, DesiredNode[]>();
    for (const d of desired) {
      const level = byKind.get(d.kind);
      if (level) level.push(d);
      else byKind.set(d.kind, [d]);
    }
    // Level after level (a parent's kind before its children's), and no barrier between them: an
    // object's read waits for its declared parent's only. Waiting for a whole level held every
    // list of the next back until the slowest of this one answered, at each level of a plan.
    const queue = kindOrder.flatMap((kindName) => parentsFirst(byKind.get(kindName) ?? []));
    // The reads under way, by address (a finished one leaves: 250,000 entries would be ~20 MB at national scale).
    const underWay = new Map<string, Promise<void>>();
    await eachAtMost(queue, READS_UNDER_WAY, (d) => {
      // Parents come first in the queue: a parent's read has started when its child's does.
      const parentRead = d.parentAddress === undefined ? undefined : underWay.get(d.parentAddress);
      const read = parentRead ? parentRead.then(() => this.readOne(d, byAddress)) : this.readOne(d, byAddress);
      underWay.set(d.address, read);
      const leave = (): void => void underWay.delete(d.address);
      read.then(leave, leave);
      return read;
    });
    await eachAtMost(desired, READS_UNDER_WAY, (d) => this.readDeclaredCollections(d));
    if (this.identities.lastApplied !== this.lastApplied) this.state.lastApplied = this.identities.lastApplied;
    return this.state;
  }

  /** What identity binding (identity.ts) may use of this reader. */
  private port(): ReaderPort {
    return {
      state: this.state,
      listed: (kind, parent) => this.listUnder(kind, parent),
      peek: (kind, parent) => this.peek(kind, parent).then((read) => read.objects),
      missed: (kind, parent) => void this.missed.add(listKey(kind.kind, parent)),
      ownerOf: (live) => this.owners.get(live.kind, live.id),
      byId: (kind, id) => this.byId.get(kind, id),
      desired: (address) => this.declared.get(address),
    };
  }

  /**
   * The live objects of a kind under a live parent, listed once per run (a collection the
   * plan already read is not read again); for the checks made after the plan.
   */
  listUnderParent(kindName: string, parent: LiveObject): Promise<LiveObject[]> {
    return this.listUnder(kindOf(kindName), parent);
  }

  /** Every live object of a kind the caller can list, under every live parent (cached as above). */
  listAll(kindName: string): Promise<LiveObject[]> {
    return this.allOf(kindName);
  }

  private async readOne(node: DesiredNode, byAddress: Map<string, DesiredNode>): Promise<void> {
    const kind = kindOf(node.kind);
    const parent = await this.resolveParent(node, byAddress);
    if (parent === 'pending') {
      // The parent is created by this plan, and so is everything below it, unless it exists elsewhere.
      if (node.parentAddress !== undefined && byAddress.has(node.parentAddress))
        await this.identities.bindUnderPending(node, kind, node.parentAddress);
      return;
    }
    if (kind.assumedToExist) {
      if (parent) this.remember(this.assumed(kind, node, parent));
      return;
    }
    if (kind.unreadable) {
      this.rememberFromLastApplied(kind, parent, node.address);
      return;
    }
    const { listing, own } = await this.listUnderOrOwn(kind, parent, node);
    if (listing) await this.identities.bind(node, kind, parent, listing);
    // Every listed item is remembered by address: a lookup, not a scan of the collection.
    const live = this.state.byAddress.get(node.address);
    // Kept for the objects not found only (a plan of 250,000 found ones held an entry and a key text for each).
    if (!live) this.lookedIn.set(node.address, listKey(kind.kind, own ? undefined : parent));
    if (live && kind.detail && Object.keys(node.fields).some((f) => !kind.detail?.listed.includes(f))) {
      await this.readDetail(kind, live, parent);
    }
  }

  /** The live parent of a node; `pending` when a declared parent does not exist yet. */
  private async resolveParent(
    node: DesiredNode,
    byAddress: Map<string, DesiredNode>,
  ): Promise<LiveObject | 'pending' | undefined> {
    if (node.parentAddress !== undefined) {
      const live = this.state.byAddress.get(node.parentAddress);
      if (live) return live;
      if (byAddress.has(node.parentAddress)) return 'pending';
      this.problem(node.address, `parent ${node.parentAddress} is neither declared nor found`);
      return 'pending';
    }
    const ref = node.parentRef;
    if (!ref) return undefined;
    if (ref.uuid !== undefined) return externalParent(ref.kind, ref.uuid);
    const found = ref.name === undefined ? undefined : await this.locate(ref.kind, ref.name, kindOf(node.kind));
    if (!found) {
      const what = `${ref.kind.toLowerCase()} "${ref.name ?? ''}"`;
      this.problem(
        node.address,
        this.refusedLists.has(ref.kind)
          ? `${what} cannot be found with these credentials (its list answered 403, and no ${node.kind.toLowerCase()} the caller can list names it as owner): name it by uuid`
          : `${what} is not declared in the manifests and does not exist on the platform`,
      );
      return 'pending';
    }
    return found;
  }

  /** Finds an undeclared object by name: under every live object of its parent kinds. */
  private async locate(kindName: string, name: string, child: KindDefinition): Promise<LiveObject | undefined> {
    let candidates: LiveObject[];
    try {
      candidates = await this.allOf(kindName);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 403) throw error;
      this.refusedLists.add(kindName);
      return this.locateThroughOwners(kindName, name, child);
    }
    return candidates.find((c) => kindOf(kindName).identity(c.fields) === name);
  }

  /**
   * Below system level the lists that lead to an owner may be refused (Doc 1 §4.2: groups
   * are for system administrators only), while the caller lists the resellers or tenants
   * under its control without naming a parent (§4.3, §4.4: `parent` is required for system
   * administrators only). The owner is then the one those objects name (`owner` with type,
   * uuid and name, §2.6).
   */
  private async locateThroughOwners(
    kindName: string,
    name: string,
    child: KindDefinition,
  ): Promise<LiveObject | undefined> {
    if (!child.ownerOf || !child.list?.(undefined, this.ctx)) return undefined;
    for (const listed of await this.listUnder(child, undefined)) {
      const owner = this.owners.get(listed.kind, listed.id);
      if (owner?.kind !== kindName || owner.name !== name) continue;
      const address = kindOf(kindName).address(undefined, name);
      const parent: LiveObject = { kind: kindName, address, id: owner.id, ids: { [kindName]: owner.id }, fields: {} };
      this.remember(parent);
      return parent;
    }
    return undefined;
  }

  /**
   * Lists under the parent; when the platform refuses that list (403: a tenant administrator
   * may not list under its reseller), the caller's own list stands in (owners are checked
   * when the node is bound). `listing` is undefined when the node cannot be read at all; `own`:
   * it was looked for in the caller's own list.
   */
  private async listUnderOrOwn(
    kind: KindDefinition,
    parent: LiveObject | undefined,
    node: DesiredNode,
  ): Promise<{ listing: LiveObject[] | undefined; own: boolean }> {
    try {
      return { listing: await this.listUnder(kind, parent), own: false };
    } catch (error) {
      if (
        !parent ||
        !(error instanceof ApiError) ||
        error.status !== 403 ||
        !kind.ownerOf ||
        !kind.list?.(undefined, this.ctx)
      )
        throw error;
      const own = await this.listUnder(kind, undefined);
      const names = new Set([node.address, ...(node.previousAddresses ?? [])]);
      if (own.some((o) => names.has(o.address) || o.id === node.pinnedId)) return { listing: own, own: true };
      // Not in it: absent or out of sight, nobody can tell; never a create planned blind.
      this.problem(
        node.address,
        `cannot be read with these credentials: the list under ${parent.address} answered 403`,
      );
      return { listing: undefined, own: true };
    }
  }

  private async allOf(kindName: string): Promise<LiveObject[]> {
    let kind: KindDefinition;
    try {
      kind = kindOf(kindName);
    } catch {
      return []; // a kind the API cannot list (distributors): only reachable by uuid
    }
    if (kind.parentKinds.length === 0) return this.listUnder(kind, undefined);
    const parents = (await Promise.all(kind.parentKinds.map((p) => this.allOf(p)))).flat();
    return (await Promise.all(parents.map((p) => this.listUnder(kind, p)))).flat();
  }

  /** Lists one collection once per run (cached), remembering every item as in scope. */
  private listUnder(kind: KindDefinition, parent: LiveObject | undefined): Promise<LiveObject[]> {
    const key = listKey(kind.kind, parent);
    let listing = this.listings.get(key);
    if (!listing) {
      listing = this.peek(kind, parent).then((read) => this.take(kind, parent, read.objects));
      this.listings.set(key, listing);
    }
    return listing;
  }

  /**
   * Lists one collection once per pass (cached), without taking its objects into scope; a
   * collection an earlier pass settled (of the same parent object) is not read again.
   */
  private peek(kind: KindDefinition, parent: LiveObject | undefined): Promise<ListRead> {
    const key = listKey(kind.kind, parent);
    let listing = this.peeks.get(key);
    if (!listing) {
      const carried = this.carried.get(key);
      const read =
        carried && carried.parent?.id === parent?.id ? Promise.resolve(carried) : this.fetchCollection(kind, parent);
      listing = read.then((r) => this.adopt(kind, r));
      this.peeks.set(key, listing);
    }
    return listing;
  }

  /**
   * What a collection's read tells this pass besides its objects: owners, warnings (once per
   * kind: the first by its words, not the first answered, so that two runs say the same).
   */
  private adopt(kind: KindDefinition, read: ListRead): ListRead {
    for (const [id, owner] of read.owners) this.owners.set(kind.kind, id, owner);
    const earlier = this.missingReads.get(kind.kind);
    if (read.warnings.length > 0 && (!earlier || read.warnings[0]!.message < earlier[0]!.message)) {
      this.missingReads.set(kind.kind, read.warnings);
      this.state.warnings = [...this.missingReads.values()].flat().sort((a, b) => compareKeys(a.message, b.message));
    }
    return read;
  }

  /** A listed collection is in scope: its objects are remembered by address (a renamed one by its new address). */
  private take(kind: KindDefinition, parent: LiveObject | undefined, objects: LiveObject[]): LiveObject[] {
    const addresses = objects.map((o) => this.identities.renamedTo(o) ?? o.address);
    const collection: ListedCollection = { kind: kind.kind, addresses };
    if (parent) collection.parentAddress = parent.address;
    this.state.collections.push(collection);
    for (const object of objects) this.remember(object);
    return objects;
  }

  private fetchCollection(kind: KindDefinition, parent: LiveObject | undefined): Promise<ListRead> {
    return readCollection(this.client, this.ctx, kind, parent, this.identities.lastApplied);
  }

  private async readDetail(kind: KindDefinition, live: LiveObject, parent: LiveObject | undefined): Promise<void> {
    const request = kind.detail?.request(live, this.ctx);
    if (!request) return;
    const response = await this.client.request<Record<string, unknown>>({
      method: 'GET',
      path: request.path,
      ...(request.query ? { query: request.query } : {}),
      ...(request.role ? { role: request.role } : {}),
    });
    const parts = await kind.fromApi({ id: live.id, ...response.body }, this.ctx, parent);
    assertReadable(kind, response.body, parts, { ...request, status: response.status });
    const detailed = liveObject(kind, parts, parent);
    live.fields = { ...live.fields, ...detailed.fields };
  }

  /**
   * Lists the collections a node declares, even when no child is declared in them (what is not
   * declared there is pruned). Undefined when there is nothing to wait for: asked of every
   * declared object (250,000 in a national plan), most of which declare no collection or had
   * theirs listed while they were bound.
   */
  private readDeclaredCollections(node: DesiredNode): Promise<unknown> | undefined {
    const live = this.state.byAddress.get(node.address);
    if (!live || !node.declaredCollections?.length) return undefined;
    let waits: Promise<unknown>[] | undefined;
    for (const kind of declaredChildKinds(node.kind, node.declaredCollections)) {
      if (kind.unreadable) this.rememberFromLastApplied(kind, live);
      else if (!kind.assumedToExist) (waits ??= []).push(this.listUnder(kind, live));
    }
    return waits && (waits.length === 1 ? waits[0] : Promise.all(waits));
  }

  /** Unreadable kinds exist as far as the last-applied record says. */
  private rememberFromLastApplied(kind: KindDefinition, parent: LiveObject | undefined, onlyAddress?: string): void {
    const addresses: string[] = [];
    for (const live of recordedObjects(
      this.identities.lastApplied,
      kind,
      parent,
      (address) => onlyAddress === undefined || address === onlyAddress,
    )) {
      this.remember(live);
      addresses.push(live.address);
    }
    if (onlyAddress === undefined) {
      const collection: ListedCollection = { kind: kind.kind, addresses };
      if (parent) collection.parentAddress = parent.address;
      this.state.collections.push(collection);
    }
  }

  private assumed(kind: KindDefinition, node: DesiredNode, parent: LiveObject): LiveObject {
    const identity = kind.identity(node.fields);
    return {
      kind: kind.kind,
      address: node.address,
      id: identity,
      parentAddress: parent.address,
      ids: idChain(parent.ids, kind.kind, identity),
      fields: { ...node.fields },
    };
  }

  private remember(live: LiveObject): void {
    const renamed = this.identities.renamedTo(live);
    if (renamed !== undefined && renamed !== live.address) return; // already in scope under its new address
    if (ROOT_KINDS.has(live.kind)) this.byId.set(live.kind, live.id, live);
    const existing = this.state.byAddress.get(live.address);
    if (existing && existing.id !== live.id) {
      this.problem(
        live.address,
        `two live objects match this address (ids ${existing.id} and ${live.id}); resolve the duplicate on the platform first`,
      );
      return;
    }
    this.state.byAddress.set(live.address, live);
  }

  private problem(address: string, message: string): void {
    if (!this.state.problems.some((p) => p.address === address && p.message === message))
      this.state.problems.push({ address, message });
  }

  /** The state as read; binding's refusals name the declared objects nothing is planned for. */
  get live(): LiveState {
    return this.state;
  }
}

/** A parent given by uuid only: known to exist (the API will say otherwise), never listed. */
function externalParent(kind: string, uuid: string): LiveObject {
  return { kind, address: `${kind.toLowerCase()}/${uuid}`, id: uuid, ids: { [kind]: uuid }, fields: {} };
}

const ROOT_KINDS: ReadonlySet<string> = new Set(kinds.filter((k) => k.parentKinds.length === 0).map((k) => k.kind));

/**
 * The child kinds whose collections a node of `kindName` declares. Asked for every declared
 * object (250,000 in a national plan), and the loader shares one list per distinct set of
 * collections: each answer is computed once per kind and list.
 */
const declaredKinds = new Map<string, WeakMap<readonly string[], KindDefinition[]>>();

function declaredChildKinds(kindName: string, collections: readonly string[]): KindDefinition[] {
  let byList = declaredKinds.get(kindName);
  if (!byList) declaredKinds.set(kindName, (byList = new WeakMap()));
  let found = byList.get(collections);
  if (!found) {
    found = kinds.filter(
      (k) => k.parentKinds.includes(kindName) && k.collection !== undefined && collections.includes(k.collection),
    );
    byList.set(collections, found);
  }
  return found;
}
