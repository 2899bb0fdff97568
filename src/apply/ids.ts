import { kindOf } from '../kinds/index.js';
import type { IdChain, LiveObject, RequestSpec } from '../kinds/types.js';
import type { DesiredNode, LiveState } from '../state/types.js';
import { idChain } from '../kinds/id-chain.js';

const PLACEHOLDER = /\{id:([^}]*)\}/g;
const WHOLE_PLACEHOLDER = /^\{id:([^}]*)\}$/;

/** A pending id (`{id:ADDRESS}`) that no earlier change of this run has created. */
class UnresolvedIdError extends Error {
  readonly code = 'SB_APPLY_UNRESOLVED_ID';
  constructor(readonly address: string) {
    super(`the id of ${address} is not known: it was not created in this run`);
  }
}

/**
 * The ids the platform assigned during this run, by address, and the ids of live objects:
 * what fills `{id:ADDRESS}` placeholders and the id chains of objects created under
 * objects created earlier in the same run.
 */
export class IdRegistry {
  private readonly created = new Map<string, { id: string; raw: unknown }>();
  private readonly desired: ReadonlyMap<string, DesiredNode>;

  constructor(
    desired: readonly DesiredNode[],
    private readonly live: LiveState,
  ) {
    this.desired = new Map(desired.map((d) => [d.address, d]));
  }

  /** Records the id the platform gave the object at `address` (as it came: number or string). */
  setCreated(address: string, raw: unknown): void {
    this.created.set(address, { id: String(raw), raw });
  }

  createdId(address: string): string | undefined {
    return this.created.get(address)?.id;
  }

  /** The current id of an address: created in this run, else live; undefined when neither. */
  idOf(address: string): string | undefined {
    return this.created.get(address)?.id ?? this.live.byAddress.get(address)?.id;
  }

  /**
   * The real id chain of an object (itself included when it has an id): its ancestors' ids
   * as created in this run or read live. A parent named by uuid contributes that uuid.
   */
  idsOf(address: string): IdChain {
    const created = this.created.get(address);
    const node = this.desired.get(address);
    if (!created) {
      const live = this.live.byAddress.get(address);
      if (live) return live.ids;
    }
    if (!node) return {};
    const parent = this.parentLink(node);
    const parentIds =
      parent === undefined
        ? {}
        : parent.uuid !== undefined
          ? { [parent.kind]: parent.uuid }
          : this.idsOf(parent.address);
    return created ? idChain(parentIds, node.kind, created.id) : parentIds;
  }

  /** The parent of a desired object as the kind hooks take it, with real ids. */
  parentRefOf(node: DesiredNode): { kind: string; ids: IdChain; address: string } | undefined {
    const parent = this.parentLink(node);
    if (!parent) return undefined;
    const ids = parent.uuid !== undefined ? { [parent.kind]: parent.uuid } : this.idsOf(parent.address);
    return { kind: parent.kind, ids, address: parent.address };
  }

  /** Replaces every placeholder of a path; ids are URL-encoded there. */
  resolvePath(path: string): string {
    return path.replace(PLACEHOLDER, (_m, address: string) => encodeURIComponent(this.require(address).id));
  }

  /** Replaces placeholders inside a body, deeply; a string that is only a placeholder keeps the id's type. */
  resolveBody(value: unknown): unknown {
    if (typeof value === 'string') {
      const whole = WHOLE_PLACEHOLDER.exec(value);
      if (whole) return this.require(whole[1] ?? '').raw;
      return value.replace(PLACEHOLDER, (_m, address: string) => this.require(address).id);
    }
    if (Array.isArray(value)) return value.map((v) => this.resolveBody(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.resolveBody(v)]));
    }
    return value;
  }

  resolve(request: RequestSpec): RequestSpec {
    const resolved: RequestSpec = { ...request, path: this.resolvePath(request.path) };
    if (request.body !== undefined) resolved.body = this.resolveBody(request.body);
    if (request.query)
      resolved.query = Object.fromEntries(
        Object.entries(request.query).map(([k, v]) => [k, this.resolveBody(v) as string]),
      );
    return resolved;
  }

  /** The planner's reading of a node's parent (docs/manifests.md: declared, by uuid, or by name). */
  parentLink(node: DesiredNode): ParentLink | undefined {
    const ref = node.parentRef;
    if (node.parentAddress !== undefined) {
      const kind =
        ref?.kind ?? this.desired.get(node.parentAddress)?.kind ?? this.live.byAddress.get(node.parentAddress)?.kind;
      return kind === undefined ? undefined : { kind, address: node.parentAddress };
    }
    if (!ref) return undefined;
    if (ref.uuid !== undefined)
      return { kind: ref.kind, address: `${ref.kind.toLowerCase()}/${ref.uuid}`, uuid: ref.uuid };
    return ref.name === undefined
      ? undefined
      : { kind: ref.kind, address: kindOf(ref.kind).address(undefined, ref.name) };
  }

  private require(address: string): { id: string; raw: unknown } {
    const created = this.created.get(address);
    if (created) return created;
    const live = this.live.byAddress.get(address);
    if (live) return { id: live.id, raw: live.id };
    throw new UnresolvedIdError(address);
  }
}

/** A live-object stand-in for a parent known only by address and ids (lookups, hooks). */
export function parentStandIn(parent: { kind: string; ids: IdChain; address: string }): LiveObject {
  return { kind: parent.kind, address: parent.address, id: parent.ids[parent.kind] ?? '', ids: parent.ids, fields: {} };
}

/** A desired node's parent: a declared document (by address), or an existing object by uuid or name. */
export interface ParentLink {
  kind: string;
  address: string;
  uuid?: string;
}
