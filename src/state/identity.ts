import { hasKind, kindOf } from '../kinds/index.js';
import type { KindDefinition, LiveObject } from '../kinds/types.js';
import { moveRecorded } from './last-applied.js';
import { ByKindAndId, SearchScope, type DeclaredParent, type OwnerRef, type ReaderPort } from './search-scope.js';
import type { DesiredNode, LastApplied } from './types.js';

/**
 * Which live object a declared object is. By its pinned id (`metadata.uuid`), else by its
 * name, else by one of its former names (`renamedFrom`: a rename, the live object then known
 * by its new address). For a kind whose parent cannot change (`fixedParent`), an object not
 * found under its declared parent is looked for in the scope that can see it, and one found
 * under another owner refuses the plan: it is never updated where it is, nor created again.
 */
export class Identities {
  /**
   * By kind and the address the object was read at → the address a rename gave it. The read
   * address, not the id: some kinds' ids are unique only under their parent (a group's
   * branding `font`, the default template `0` of every subscription). Only objects claimed
   * under another address are here: asked for every listed object, a map of every claim
   * (250,000 at national scale) cost a string hash per lookup and ~20 MB.
   */
  private readonly claimed = new ByKindAndId<string>();
  /** By kind and read address → the declared object that claimed it, and how: one live object is declared once. */
  private readonly claimants = new ByKindAndId<Claim>();
  private view: LastApplied;
  private readonly search: SearchScope;

  constructor(
    private readonly port: ReaderPort,
    record: LastApplied,
  ) {
    this.view = record;
    this.search = new SearchScope(port);
  }

  /** The last-applied record as the live addresses see it: entries of a renamed object follow it. */
  get lastApplied(): LastApplied {
    return this.view;
  }

  /** The address a rename gave a listed object, if one did (undefined when claimed at its own address). */
  renamedTo(live: LiveObject): string | undefined {
    return this.claimed.get(live.kind, live.address);
  }

  /** Binds a node to the live object it declares, among `listing` (its declared parent's list). */
  async bind(
    node: DesiredNode,
    kind: KindDefinition,
    parent: DeclaredParent | undefined,
    listing: readonly LiveObject[],
  ): Promise<void> {
    const match = node.pinnedId === undefined ? this.byName(node, listing) : this.byPin(node, listing);
    if (match === 'refused') return;
    if (!match) {
      await this.lookElsewhere(node, kind, parent);
      return;
    }
    const found = match.live;
    if (kind.fixedParent && parent && node.previousAddresses && (await this.takenElsewhere(node, kind, parent, found)))
      return;
    // A pinned rename: the new name may be taken under another owner, which the parent's list does not show.
    const renamedByPin = match.means === 'metadata.uuid' && found.address !== node.address;
    if (kind.fixedParent && parent && renamedByPin && (await this.pinnedNameTaken(node, kind, parent, found))) return;
    if (!this.claim(found, node, match.means)) return;
    const owner = this.port.ownerOf(found);
    if (kind.fixedParent && parent && 'id' in parent && owner && (owner.kind !== parent.kind || owner.id !== parent.id))
      this.refuseOwner(node, kind, parent, found);
  }

  /** A node whose declared parent this plan creates: the object may exist already, under another owner. */
  async bindUnderPending(node: DesiredNode, kind: KindDefinition, parentAddress: string): Promise<void> {
    if (kind.fixedParent || node.pinnedId !== undefined)
      await this.lookElsewhere(node, kind, { pending: parentAddress });
  }

  private byName(node: DesiredNode, listing: readonly LiveObject[]): Match | 'refused' | undefined {
    const index = this.search.indexOf(listing);
    const current = index.byAddress.get(node.address);
    const former = (node.previousAddresses ?? []).flatMap((a) => index.byAddress.get(a) ?? []);
    if (former.length === 0) return current && { live: current, means: 'its name' };
    if (current || former.length > 1) {
      this.refuseAmbiguous(node, [...(current ? [current] : []), ...former]);
      return 'refused';
    }
    return { live: former[0] as LiveObject, means: 'renamedFrom' };
  }

  private byPin(node: DesiredNode, listing: readonly LiveObject[]): Match | 'refused' | undefined {
    const index = this.search.indexOf(listing);
    const pinned = node.pinnedId === undefined ? undefined : index.byId.get(node.pinnedId);
    if (!pinned) return undefined;
    if (pinned.address === node.address) return { live: pinned, means: 'metadata.uuid' };
    const taken = index.byAddress.get(node.address) ?? this.port.state.byAddress.get(node.address);
    if (taken && taken.id !== pinned.id) {
      this.refuse(node, 'SB_RENAME_CONFLICT', pinTaken(node, pinned, taken));
      return 'refused';
    }
    return { live: pinned, means: 'metadata.uuid' };
  }

  /**
   * A renamed object of a kind whose parent cannot change: the other name may be taken under
   * another owner of the group, which the declared parent's list does not show.
   */
  private async takenElsewhere(
    node: DesiredNode,
    kind: KindDefinition,
    parent: DeclaredParent,
    found: LiveObject,
  ): Promise<boolean> {
    const names = new Set([node.address, ...(node.previousAddresses ?? [])]);
    const others = (await this.search.scope(kind, this.search.rootOf(parent))).filter(
      (o) => o.id !== found.id && names.has(o.address),
    );
    if (others.length === 0) return false;
    this.refuseAmbiguous(node, [found, ...others]);
    return true;
  }

  /** A pinned object renamed to a name another live object of its kind has, under another owner of the group. */
  private async pinnedNameTaken(
    node: DesiredNode,
    kind: KindDefinition,
    parent: DeclaredParent,
    found: LiveObject,
  ): Promise<boolean> {
    const taken = (await this.search.scope(kind, this.search.rootOf(parent))).find(
      (o) => o.id !== found.id && o.address === node.address,
    );
    if (!taken) return false;
    this.refuse(node, 'SB_RENAME_CONFLICT', pinTaken(node, found, taken));
    return true;
  }

  /** Several live objects carry the names a node goes by: which one it means, nobody can tell. */
  private refuseAmbiguous(node: DesiredNode, live: readonly LiveObject[]): void {
    const all = live.map((o) => `${o.address} (id ${o.id})`);
    this.refuse(
      node,
      'SB_RENAME_CONFLICT',
      `renamedFrom cannot tell which live object this is: ${all.join(' and ')} ${all.length === 2 ? 'both' : 'all'} ` +
        'exist. Delete or rename the one that is not meant on the platform, or take its name out of renamedFrom.',
    );
  }

  /** Not under its declared parent: a moved object of a `fixedParent` kind, or a pinned id that does not exist. */
  private async lookElsewhere(
    node: DesiredNode,
    kind: KindDefinition,
    parent: DeclaredParent | undefined,
  ): Promise<void> {
    if (!kind.fixedParent && node.pinnedId === undefined) return;
    // A top-level object has no elsewhere: its list was the whole list. A name is looked for in
    // its declared owner's group (where billing ids are unique, Doc 1 §2.4); an id, which names
    // one object on the whole platform, wherever the caller can see.
    const root = node.pinnedId === undefined && parent ? this.search.rootOf(parent) : undefined;
    const candidates = this.search.indexOf(parent ? await this.search.scope(kind, root) : []);
    const byName = node.pinnedId === undefined ? candidates.byAddress.get(node.address) : undefined;
    const found =
      node.pinnedId !== undefined
        ? candidates.byId.get(node.pinnedId)
        : (byName ?? node.previousAddresses?.map((a) => candidates.byAddress.get(a)).find((o) => o !== undefined));
    if (found && parent) {
      const means = node.pinnedId !== undefined ? 'metadata.uuid' : byName ? 'its name' : 'renamedFrom';
      // Its children are read where it is, so the plan still shows what would change in them.
      if (!this.claim(found, node, means)) return;
      // Under the very parent declared, yet not in that parent's list: the list shifted while
      // it was read (an object deleted on an earlier page). Not a move: the list is read again.
      if ('id' in parent && this.ownedBy(found, parent)) {
        this.port.missed(kind, parent);
        return;
      }
      this.refuseOwner(node, kind, parent, found);
      return;
    }
    if (node.pinnedId === undefined) return;
    const where = !parent
      ? 'among those these credentials can list'
      : `${'id' in parent ? `under ${parent.address} or ` : ''}anywhere these credentials can see`;
    this.refuse(
      node,
      'SB_PINNED_MISSING',
      `metadata.uuid ${node.pinnedId}: no ${kind.manifest.noun} with this uuid exists ${where}, and a pinned ` +
        `document is never created. Correct the uuid, or remove metadata.uuid to create a new ${kind.manifest.noun}.`,
    );
  }

  /** Whether the live object's listed owner is `parent` itself. */
  private ownedBy(live: LiveObject, parent: LiveObject): boolean {
    const owner = this.port.ownerOf(live);
    return owner !== undefined && owner.kind === parent.kind && owner.id === parent.id;
  }

  /**
   * The live object is the node's, at the node's address (a rename when it had another).
   * False, with a problem naming both documents, when another declared object claimed it
   * already: two PUTs on one id, and the next plan would create the loser again as new.
   */
  private claim(live: LiveObject, node: DesiredNode, means: ClaimMeans): boolean {
    const earlier = this.claimants.get(live.kind, live.address);
    if (earlier && earlier.node.address !== node.address) {
      this.doubleClaim(live, earlier, { node, means });
      return false;
    }
    this.claimants.set(live.kind, live.address, { node, means });
    this.claimOnce(live, node.address);
    return true;
  }

  private doubleClaim(live: LiveObject, first: Claim, second: Claim): void {
    const noun = kindOf(live.kind).manifest.noun;
    const who = (c: Claim) => `${c.node.address} (${c.node.source ?? 'no position'}, by ${c.means})`;
    const message =
      `the live ${noun} ${live.address} (id ${live.id}) is claimed by two declared objects: ${who(first)} and ` +
      `${who(second)}. One live object is declared once: keep one of them, or correct the other's ` +
      'metadata.uuid, name or renamedFrom';
    for (const claim of [first, second]) {
      if (!this.port.state.problems.some((p) => p.address === claim.node.address && p.message === message))
        this.port.state.problems.push({ code: 'SB_DUPLICATE_CLAIM', address: claim.node.address, message });
    }
  }

  private claimOnce(live: LiveObject, address: string): void {
    const { byAddress, collections } = this.port.state;
    if (live.address === address) {
      // Found by a search (not in scope yet): what is below it is read where it is.
      if (!byAddress.has(address)) byAddress.set(address, live);
      return;
    }
    this.claimed.set(live.kind, live.address, address);
    if (byAddress.get(live.address)?.id === live.id) byAddress.delete(live.address);
    byAddress.set(address, { ...live, address, previousAddress: live.address });
    for (const collection of collections) {
      if (collection.kind !== live.kind) continue;
      const index = collection.addresses.indexOf(live.address);
      if (index !== -1) collection.addresses[index] = address;
    }
    const view = new Map(this.view);
    moveRecorded(view, live.address, address);
    this.view = view;
  }

  private refuseOwner(node: DesiredNode, kind: KindDefinition, parent: DeclaredParent, live: LiveObject): void {
    const fixed = kind.fixedParent;
    if (!fixed) return;
    const owner = this.port.ownerOf(live);
    const actual = owner
      ? ownerLabel(owner)
      : `another owner (found under ${live.parentAddress ?? 'the caller’s scope'})`;
    // Two owners spelt alike (a parent of the same name elsewhere) are told apart by their ids.
    const declared =
      'id' in parent
        ? actual.startsWith(`${parent.address} `)
          ? `${parent.address} (uuid ${parent.id})`
          : parent.address
        : `${parent.pending} (which this plan would create)`;
    const keep = owner ? ` (metadata.${owner.kind.toLowerCase()}: ${ownerReference(owner)})` : '';
    this.refuse(
      node,
      'SB_OWNER_CHANGE',
      `declared under ${declared}, but the live ${kind.manifest.noun} (id ${live.id}) is under ${actual}: the API ` +
        `cannot move it to another owner (${fixed.reference}). Either keep its owner${keep}, or ${fixed.remedy}.`,
    );
  }

  private refuse(node: DesiredNode, code: string, message: string): void {
    (this.port.state.refusals ??= []).push({ code, address: node.address, message });
  }
}

/** How a declared object claimed a live one. */
type ClaimMeans = 'metadata.uuid' | 'its name' | 'renamedFrom';

interface Claim {
  node: DesiredNode;
  means: ClaimMeans;
}

/** A live object a declared one names, and how it names it. */
interface Match {
  live: LiveObject;
  means: ClaimMeans;
}

/** `reseller/north (uuid …)`, or `distributor 5d1a… ` for an owner the manifests name by uuid only. */
function ownerLabel(owner: OwnerRef): string {
  if (owner.name !== undefined && hasKind(owner.kind))
    return `${kindOf(owner.kind).address(undefined, owner.name)} (uuid ${owner.id})`;
  return `${owner.kind.toLowerCase()} ${owner.id}`;
}

/** How a manifest names that owner: by name when its kind can be named, else `{ uuid: … }`. */
function ownerReference(owner: OwnerRef): string {
  return owner.name !== undefined && hasKind(owner.kind) ? owner.name : `{ uuid: ${owner.id} }`;
}

/** Why a pinned object cannot be renamed: its new name is another live object's. */
function pinTaken(node: DesiredNode, pinned: LiveObject, taken: LiveObject): string {
  return (
    `metadata.uuid ${node.pinnedId} is ${pinned.address}, and renaming it to ${node.address} would take the name ` +
    `of another live object (id ${taken.id}). Delete or rename that one on the platform first, or correct metadata.name.`
  );
}
