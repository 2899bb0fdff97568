import { kindOf, kinds } from '../kinds/index.js';
import type { KindContext, KindDefinition, ListSpec, LiveObject, LiveParts } from '../kinds/types.js';
import { ApiError } from '../api/errors.js';
import { assertReadable } from './item-shape.js';
import { fetchListItems } from './list-items.js';
import { missingReadObjects, recordedObjects } from './recorded.js';
import type { DesiredNode, LastApplied, ListedCollection, ListingClient, LiveState } from './types.js';

/**
 * Declared objects whose reads are under way at once. The client's concurrency limit is
 * what bounds the requests (32 at most); this bounds the reads waiting for it. Started all
 * at once, the reads of 50,000 declared tenants held 50,000 suspended calls each with its
 * pending request: a plan of 250,000 objects peaked at 1.9 GB, 0.85 GB with this bound.
 */
const READS_UNDER_WAY = 256;

/** Runs `task` for each item in order, at most `limit` at once; stops starting new ones after a failure, and rejects with it. */
async function eachAtMost<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      try {
        await task(items[next++] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Reads exactly the live objects the manifests touch: the declared objects and their
 * parents, and the collections the manifests declare, one list request per collection
 * page (never a GET per object, except where a kind's list view lacks a declared field).
 * Generic over the kind table: no kind is named here.
 */
export class LiveReader {
  private readonly state: LiveState = { byAddress: new Map(), collections: [], problems: [] };
  private readonly listings = new Map<string, Promise<LiveObject[]>>();
  /** Owners named by items listed without a parent (kinds with `ownerOf`), by the item's address. */
  private readonly owners = new Map<string, { kind: string; id: string; name?: string }>();
  /** Kinds whose lists the platform refused (403) while looking for an owner. */
  private readonly refusedLists = new Set<string>();
  /** Kinds whose missing read the plan already mentions. */
  private readonly missingReads = new Set<string>();

  constructor(
    private readonly client: ListingClient,
    private readonly ctx: KindContext,
    private readonly lastApplied: LastApplied = new Map(),
  ) {}

  async read(desired: readonly DesiredNode[], kindOrder: readonly string[]): Promise<LiveState> {
    const byAddress = new Map(desired.map((d) => [d.address, d]));
    const byKind = new Map<string, DesiredNode[]>();
    for (const d of desired) {
      const level = byKind.get(d.kind);
      if (level) level.push(d);
      else byKind.set(d.kind, [d]);
    }
    for (const kindName of kindOrder) {
      await eachAtMost(byKind.get(kindName) ?? [], READS_UNDER_WAY, (d) => this.readOne(d, byAddress));
    }
    await eachAtMost(desired, READS_UNDER_WAY, (d) => this.readDeclaredCollections(d));
    return this.state;
  }

  private async readOne(node: DesiredNode, byAddress: Map<string, DesiredNode>): Promise<void> {
    const kind = kindOf(node.kind);
    const parent = await this.resolveParent(node, byAddress);
    if (parent === 'pending') return; // the parent is created by this plan: so is everything below it
    if (kind.assumedToExist) {
      if (parent) this.remember(this.assumed(kind, node, parent));
      return;
    }
    if (kind.unreadable) {
      this.rememberFromLastApplied(kind, parent, node.address);
      return;
    }
    await this.listUnderOrOwn(kind, parent, node);
    // Every listed item is remembered by address: a lookup, not a scan of the collection.
    const live = this.state.byAddress.get(node.address);
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
      const owner = this.owners.get(listed.address);
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
   * may not list under its reseller), the caller's own list stands in, owners checked.
   */
  private async listUnderOrOwn(kind: KindDefinition, parent: LiveObject | undefined, node: DesiredNode): Promise<void> {
    try {
      await this.listUnder(kind, parent);
    } catch (error) {
      if (
        !parent ||
        !(error instanceof ApiError) ||
        error.status !== 403 ||
        !kind.ownerOf ||
        !kind.list?.(undefined, this.ctx)
      )
        throw error;
      await this.listUnder(kind, undefined);
      // Not in it: absent or out of sight, nobody can tell; never a create planned blind.
      if (!this.state.byAddress.has(node.address))
        this.problem(
          node.address,
          `cannot be read with these credentials: the list under ${parent.address} answered 403`,
        );
      else this.checkOwner(node, parent);
    }
  }

  /** An object listed without a parent must have the owner its manifest names: the API cannot move it (Doc 1 §4.3, §4.4). */
  private checkOwner(node: DesiredNode, parent: LiveObject): void {
    const owner = this.owners.get(node.address);
    if (owner && (owner.kind !== parent.kind || owner.id !== parent.id)) {
      const named = `${owner.kind.toLowerCase()} ${owner.name ?? owner.id}`;
      this.problem(
        node.address,
        `is owned by ${named}, not by ${parent.address}: the owner cannot change through the API`,
      );
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
    const key = `${kind.kind}@${parent?.address ?? ''}`;
    let listing = this.listings.get(key);
    if (!listing) {
      listing = this.fetchCollection(kind, parent);
      this.listings.set(key, listing);
    }
    return listing;
  }

  private async fetchCollection(kind: KindDefinition, parent: LiveObject | undefined): Promise<LiveObject[]> {
    const specs = kind.list?.(parent, this.ctx);
    if (!specs) return [];
    const missing: ListSpec[] = [];
    const items = (
      await Promise.all((Array.isArray(specs) ? specs : [specs]).map((s) => this.fetchItemsOf(kind, s, missing)))
    ).flat();
    const objects: LiveObject[] = missing.flatMap((spec) => missingReadObjects(this.lastApplied, kind, parent, spec));
    for (const { spec, item } of items) {
      // Most kinds convert synchronously: a promise per item only where fromApi needs one.
      const converted = kind.fromApi(item, this.ctx, parent);
      const parts = converted instanceof Promise ? await converted : converted;
      assertReadable(kind, item, parts, spec);
      const live = this.toLive(kind, parts, parent);
      const owner = parent ? undefined : kind.ownerOf?.(item);
      if (owner) this.owners.set(live.address, owner);
      objects.push(live);
    }
    const collection: ListedCollection = { kind: kind.kind, addresses: objects.map((o) => o.address) };
    if (parent) collection.parentAddress = parent.address;
    this.state.collections.push(collection);
    for (const object of objects) this.remember(object);
    return objects;
  }

  private async fetchItems(spec: ListSpec): Promise<{ spec: ListSpec; item: Record<string, unknown> }[]> {
    return (await this.fetchRawItems(spec)).map((item) => ({ spec, item }));
  }

  /** One spec's items; a missing read (404, 405) of a `readMayBeMissing` kind is noted and lists nothing. */
  private async fetchItemsOf(
    kind: KindDefinition,
    spec: ListSpec,
    missing: ListSpec[],
  ): Promise<{ spec: ListSpec; item: Record<string, unknown> }[]> {
    try {
      return await this.fetchItems(spec);
    } catch (error) {
      if (!kind.readMayBeMissing || !(error instanceof ApiError) || (error.status !== 404 && error.status !== 405))
        throw error;
      missing.push(spec);
      if (!this.missingReads.has(kind.kind)) {
        this.missingReads.add(kind.kind);
        (this.state.warnings ??= []).push({
          code: 'SB_READ_MISSING',
          message: `GET ${spec.path} answered ${error.status}: ${kind.kind.toLowerCase()} cannot be read. ${kind.readMayBeMissing.note}`,
        });
      }
      return [];
    }
  }

  private fetchRawItems(spec: ListSpec): Promise<Record<string, unknown>[]> {
    return fetchListItems(this.client, spec);
  }

  private toLive(kind: KindDefinition, parts: LiveParts, parent: LiveObject | undefined): LiveObject {
    const address = kind.address(parent?.address, kind.identity(parts.fields));
    const live: LiveObject = {
      kind: kind.kind,
      address,
      id: parts.id,
      ids: { ...parent?.ids, [kind.kind]: parts.id },
      fields: parts.fields,
    };
    if (parent) live.parentAddress = parent.address;
    if (parts.facts) live.facts = parts.facts;
    return live;
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
    const detailed = this.toLive(kind, parts, parent);
    live.fields = { ...live.fields, ...detailed.fields };
  }

  /** Collections a declared object declares are read even when no child is declared (prune scope). */
  private async readDeclaredCollections(node: DesiredNode): Promise<void> {
    const live = this.state.byAddress.get(node.address);
    if (!live || !node.declaredCollections?.length) return;
    const childKinds = childKindsOf(node.kind).filter(
      (k) => k.collection && node.declaredCollections?.includes(k.collection),
    );
    await Promise.all(
      childKinds.map((kind) =>
        kind.unreadable
          ? this.rememberFromLastApplied(kind, live)
          : kind.assumedToExist
            ? undefined
            : this.listUnder(kind, live),
      ),
    );
  }

  /** Unreadable kinds exist as far as the last-applied record says. */
  private rememberFromLastApplied(kind: KindDefinition, parent: LiveObject | undefined, onlyAddress?: string): void {
    const addresses: string[] = [];
    for (const live of recordedObjects(
      this.lastApplied,
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
      ids: { ...parent.ids, [kind.kind]: identity },
      fields: { ...node.fields },
    };
  }

  private remember(live: LiveObject): void {
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
}

/** A parent given by uuid only: known to exist (the API will say otherwise), never listed. */
function externalParent(kind: string, uuid: string): LiveObject {
  return { kind, address: `${kind.toLowerCase()}/${uuid}`, id: uuid, ids: { [kind]: uuid }, fields: {} };
}

function childKindsOf(kindName: string): KindDefinition[] {
  return kinds.filter((k) => k.parentKinds.includes(kindName));
}
