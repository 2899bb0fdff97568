import { kinds } from '../kinds/index.js';
import type { KindDefinition, LiveObject } from '../kinds/types.js';
import type { ExportReader, OwnerRef } from './reader.js';

/**
 * The organisation tree (groups, resellers, tenants): the kinds that are manifest
 * documents of their own, i.e. the kinds without a `collection` in a parent's spec.
 */
export const documentKinds: readonly KindDefinition[] = kinds.filter(
  (k) => k.collection === undefined && !k.assumedToExist,
);

/** Document kinds that may live under `parentKind` (a group holds resellers and tenants). */
function documentChildren(parentKind: string): KindDefinition[] {
  return documentKinds.filter((k) => k.parentKinds.includes(parentKind));
}

/** One organisation object found live, with the parent it really hangs under. */
export interface OrgEntry {
  kind: KindDefinition;
  live: LiveObject;
  /** Its owner (the item's `owner`, else the parent it was listed under); none at the top. */
  owner?: OwnerRef;
}

interface Container {
  live: LiveObject;
  /** Keys of the containers above it, nearest last. */
  ancestors: string[];
}

const keyOf = (kind: string, id: string): string => `${kind}:${id}`;

/**
 * Walks parents → children through the document kinds' list endpoints. A list answered
 * for a parent may hold its whole subtree (the simulator's group lists do): each item's
 * `owner` says where it really belongs, and once a parent's list of a kind has shown an
 * item owned further down, the lists of that kind under its descendants are not read
 * again (they could only repeat it). Distributors cannot be listed (the spec has no such
 * endpoint): they are known only from the `owner` of the resellers and tenants listed,
 * and what a distributor owns is found only through those lists, or not at all.
 */
export class OrgWalker {
  readonly entries = new Map<string, OrgEntry>();
  /** `container key → kinds` whose list under that container answered its subtree. */
  private readonly subtree = new Map<string, Set<string>>();

  constructor(private readonly reader: ExportReader) {}

  /** Records a root object (a scope, or a top-level item) and walks below it. */
  async walk(roots: readonly OrgEntry[]): Promise<void> {
    let level: Container[] = [];
    for (const root of roots) {
      if (this.add(root)) level.push({ live: root.live, ancestors: [] });
    }
    while (level.length > 0) {
      const next: Container[] = [];
      await Promise.all(level.map((c) => this.expand(c, next)));
      level = next;
    }
  }

  private async expand(container: Container, next: Container[]): Promise<void> {
    const here = keyOf(container.live.kind, container.live.id);
    const below = [...container.ancestors, here];
    for (const kind of documentChildren(container.live.kind)) {
      if (container.ancestors.some((a) => this.subtree.get(a)?.has(kind.kind))) continue;
      const listed = await this.reader.list(kind, container.live);
      for (const { live, owner } of listed) {
        const actual = owner ?? { kind: container.live.kind, id: container.live.id };
        if (actual.id !== container.live.id) this.markSubtree(here, kind.kind);
        if (this.add({ kind, live, owner: actual }) && documentChildren(kind.kind).length > 0)
          next.push({ live, ancestors: below });
        const ownerKey = keyOf(actual.kind, actual.id);
        const listable = documentKinds.some((k) => k.kind === actual.kind);
        if (actual.id !== container.live.id && !listable && !this.seenOwners.has(ownerKey)) {
          this.seenOwners.add(ownerKey);
          // An owner no list answers (a distributor), met through its children: walked as a parent of its own.
          next.push({ live: pseudoParent(actual), ancestors: below });
        }
      }
    }
  }

  private readonly seenOwners = new Set<string>();

  private markSubtree(container: string, kind: string): void {
    const set = this.subtree.get(container) ?? new Set<string>();
    set.add(kind);
    this.subtree.set(container, set);
  }

  private add(entry: OrgEntry): boolean {
    const key = keyOf(entry.kind.kind, entry.live.id);
    if (this.entries.has(key)) return false;
    this.entries.set(key, entry);
    return true;
  }
}

/** A parent known only by its id and name (never listed): enough to list under it. */
function pseudoParent(owner: OwnerRef): LiveObject {
  return {
    kind: owner.kind,
    address: `${owner.kind.toLowerCase()}/${owner.id}`,
    id: owner.id,
    ids: { [owner.kind]: owner.id },
    fields: owner.name === undefined ? {} : { name: owner.name },
  };
}
