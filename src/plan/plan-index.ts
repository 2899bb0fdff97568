import { parentAddressOf } from '../kinds/address-path.js';
import { kindOf } from '../kinds/index.js';
import type { KindDefinition, LiveObject } from '../kinds/types.js';
import type { DesiredNode, LiveState } from '../state/types.js';
import type { Change } from './types.js';

/**
 * Lookups over a platform plan's declared objects, live state and changes, each index
 * built on first use (a plan of 20,000 tenants asks many times): what the checks made
 * after the plan (the capacity pre-flight) walk.
 */
export class PlanIndex {
  private readonly desired: Map<string, DesiredNode>;
  private readonly changed: Map<string, Change>;
  private childrenOf: Map<string, DesiredNode[]> | undefined;
  private listed: Map<string, readonly string[]> | undefined;
  private liveById: Map<string, LiveObject> | undefined;

  constructor(
    desired: readonly DesiredNode[],
    private readonly live: LiveState,
    changes: readonly Change[],
  ) {
    this.desired = new Map(desired.map((d) => [d.address, d]));
    this.changed = new Map(changes.map((c) => [c.address, c]));
  }

  declared(address: string): DesiredNode | undefined {
    return this.desired.get(address);
  }

  /** The action this plan takes on an address, if any. */
  action(address: string): Change['action'] | undefined {
    return this.changed.get(address)?.action;
  }

  /** The live object at an address, unless this plan creates it anew. */
  liveAt(address: string): LiveObject | undefined {
    const action = this.action(address);
    return action === 'create' || action === 'replace' ? undefined : this.live.byAddress.get(address);
  }

  kindAt(address: string): KindDefinition | undefined {
    const kind = this.desired.get(address)?.kind ?? this.live.byAddress.get(address)?.kind;
    return kind === undefined ? undefined : kindOf(kind);
  }

  /** The parent of an object: declared, live, or read from its address. */
  parentOf(address: string): string | undefined {
    return (
      this.desired.get(address)?.parentAddress ??
      this.live.byAddress.get(address)?.parentAddress ??
      parentAddressOf(address)
    );
  }

  /** Declared objects by parent address. */
  declaredUnder(address: string): readonly DesiredNode[] {
    if (!this.childrenOf) {
      this.childrenOf = new Map();
      for (const node of this.desired.values()) {
        if (node.parentAddress === undefined) continue;
        const list = this.childrenOf.get(node.parentAddress);
        if (list) list.push(node);
        else this.childrenOf.set(node.parentAddress, [node]);
      }
    }
    return this.childrenOf.get(address) ?? [];
  }

  /** The live objects of a collection the plan read, by kind and parent; undefined when it was not read. */
  listedUnder(kind: string, parent: string): LiveObject[] | undefined {
    this.listed ??= new Map(this.live.collections.map((c) => [`${c.kind}@${c.parentAddress ?? ''}`, c.addresses]));
    return this.listed.get(`${kind}@${parent}`)?.flatMap((a) => {
      const live = this.live.byAddress.get(a);
      return live ? [live] : [];
    });
  }

  /** A live object by kind and id. */
  liveObject(kind: string, id: string): LiveObject | undefined {
    if (!this.liveById) {
      this.liveById = new Map();
      for (const o of this.live.byAddress.values()) this.liveById.set(`${o.kind}\u0000${o.id}`, o);
    }
    return this.liveById.get(`${kind}\u0000${id}`);
  }

  /** The nearest live object above an address that this plan does not create. */
  liveAncestor(address: string): LiveObject | undefined {
    for (let at = this.parentOf(address); at !== undefined; at = this.parentOf(at)) {
      const live = this.liveAt(at);
      if (live) return live;
      // A document names its parent (`reseller: north`) instead of hanging under its address.
      const node = this.desired.get(at);
      const ref = node?.parentAddress === undefined ? node?.parentRef : undefined;
      if (ref?.uuid !== undefined) return this.liveObject(ref.kind, ref.uuid);
      if (ref?.name !== undefined) return this.live.byAddress.get(kindOf(ref.kind).address(undefined, ref.name));
    }
    return undefined;
  }
}
