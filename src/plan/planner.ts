import fastJsonPatch from 'fast-json-patch';
import { kindOf } from '../kinds/index.js';
import { pendingId } from '../kinds/fields.js';
import type { IdChain, KindContext, KindDefinition, LiveObject, ParentRef, RequestSpec } from '../kinds/types.js';
import type { DesiredNode, LastApplied, LiveState } from '../state/types.js';
import { createdFields, deletedFields, diffFields, fingerprintFields } from './diff.js';
import { compareKeys, digestOf } from '../core/canonical-json.js';
import { orderChanges } from './order.js';
import type { Change, PatchOperation, PlanMessage, PlannedRequest, ReasonCode } from './types.js';
import { idChain } from '../kinds/id-chain.js';

/** Options that change what the planner proposes. */
export interface PlannerOptions {
  /** `--prune`: prune every declared collection, whatever the documents say. */
  prune: boolean;
  /** Live addresses never deleted, whatever prune says (`--exclude`d ones). */
  keep?: (address: string) => boolean;
}

export interface PlannerInput {
  desired: readonly DesiredNode[];
  live: LiveState;
  lastApplied: LastApplied;
  ctx: KindContext;
  options: PlannerOptions;
}

/**
 * The requests the planner built for one change, bodies included: apply sends exactly these
 * (with pending ids filled in) instead of building them again. Never part of a plan file.
 */
export interface BuiltRequests {
  create?: readonly RequestSpec[];
  update?: readonly RequestSpec[];
  delete?: readonly RequestSpec[];
}

export interface PlannerOutput {
  changes: Change[];
  /** The requests of each change, by address. */
  requests: Map<string, BuiltRequests>;
  noop: number;
  unmanaged: { address: string; kind: string; id?: string }[];
  /** Spec constraints a change would break (refusals, exit 3). */
  refusals: PlanMessage[];
  /** Changes the API cannot make, said plainly (product deletes, …). */
  warnings: PlanMessage[];
  /** Mistakes that make the plan impossible (unknown references): exit 1. */
  problems: PlanMessage[];
}

/**
 * The pure heart of the platform's plan: desired objects + live state → changes (of the
 * `platform` provider) and the requests each needs. Generic over the kind table; sends no
 * request but the kinds' reference-data reads.
 */
export async function computeChanges(input: PlannerInput): Promise<PlannerOutput> {
  const planner = new Planner(input);
  return planner.run();
}

class Planner {
  private readonly out: PlannerOutput = {
    changes: [],
    requests: new Map(),
    noop: 0,
    unmanaged: [],
    refusals: [],
    warnings: [],
    problems: [],
  };
  private readonly desiredByAddress: Map<string, DesiredNode>;
  /** Addresses whose object is (re)created by this plan: their descendants are created too. */
  private readonly recreated = new Set<string>();
  /** Declared addresses nothing is planned for: refused by the reader, and what hangs under them unread. */
  private readonly skipped = new Set<string>();

  constructor(private readonly input: PlannerInput) {
    this.desiredByAddress = new Map(input.desired.map((d) => [d.address, d]));
  }

  async run(): Promise<PlannerOutput> {
    // What the reader found, taken in an order of its own: the reader's follows its answers.
    for (const problem of inAddressOrder(this.input.live.problems))
      this.out.problems.push({ code: 'SB_LIVE_PARENT', ...problem });
    for (const refusal of inAddressOrder(this.input.live.refusals ?? [])) {
      this.out.refusals.push(refusal);
      this.skipped.add(refusal.address);
    }
    for (const node of this.input.desired) await this.planNode(node);
    this.planUndeclared();
    this.out.changes = orderChanges(this.out.changes);
    return this.out;
  }

  private async planNode(node: DesiredNode): Promise<void> {
    const kind = kindOf(node.kind);
    if (kind.assumedToExist) return;
    const parentAddress = this.parentAddressOf(node);
    if (this.skipped.has(node.address)) return;
    // Below a refused object that is not live, nothing was read: planning creates there would mislead.
    if (
      parentAddress !== undefined &&
      this.skipped.has(parentAddress) &&
      !this.input.live.byAddress.has(parentAddress)
    ) {
      this.skipped.add(node.address);
      return;
    }
    const parentRecreated = parentAddress !== undefined && this.recreated.has(parentAddress);
    const live = parentRecreated ? undefined : this.input.live.byAddress.get(node.address);
    try {
      const withParent = parentRecreated && this.input.live.byAddress.has(node.address);
      if (!live) await this.planCreate(node, kind, parentAddress, withParent);
      // An ancestor kept for what the plan selects below it: it exists, and that is all it is here for.
      else if (node.dependencyOnly) this.out.noop++;
      else await this.planExisting(node, kind, live, parentAddress);
    } catch (error) {
      this.out.problems.push({
        code: codeOf(error),
        message: error instanceof Error ? error.message : String(error),
        address: node.address,
      });
    }
  }

  private async planCreate(
    node: DesiredNode,
    kind: KindDefinition,
    parentAddress: string | undefined,
    withParent = false,
  ): Promise<void> {
    if (!kind.create) {
      this.out.problems.push({
        code: 'SB_CANNOT_CREATE',
        address: node.address,
        message: `${kind.kind} ${node.address} does not exist on the platform and the API cannot create it`,
      });
      return;
    }
    const parent = this.parentRef(node, parentAddress);
    const requests = await kind.create(node, parent, this.input.ctx);
    const { after, sensitiveDigests } = createdFields(node);
    this.recreated.add(node.address);
    this.out.requests.set(node.address, { create: requests });
    this.push(node, kind, 'create', {
      before: null,
      after,
      sensitiveDigests,
      requests,
      parentAddress,
      ...(withParent
        ? { reason: 'its parent is replaced: created again under it', reasonCode: 'parent-replaced' as const }
        : { reason: 'declared, not found live', reasonCode: 'not-found-live' as const }),
    });
  }

  private async planExisting(
    node: DesiredNode,
    kind: KindDefinition,
    live: LiveObject,
    parentAddress: string | undefined,
  ): Promise<void> {
    const diff = diffFields(node, live, this.input.lastApplied);
    if (diff.changed.length === 0) {
      this.out.noop++;
      return;
    }
    const base = {
      before: diff.before,
      after: diff.after,
      sensitiveDigests: diff.sensitiveDigests,
      parentAddress,
      live,
    };
    if (diff.needsReplace) {
      const replaced = diff.changed.filter((name) => kind.fields.find((f) => f.name === name)?.change === 'replace');
      const parent = this.parentRef(node, parentAddress);
      const create = kind.create ? await kind.create(node, parent, this.input.ctx) : [];
      const remove = kind.delete ? kind.delete(live, this.input.ctx) : [];
      this.recreated.add(node.address);
      this.out.requests.set(node.address, { create, delete: remove });
      const requests = kind.createBeforeDelete ? [...create, ...remove] : [...remove, ...create];
      const renamed = live.previousAddress === undefined ? '' : `; renamed from ${live.previousAddress}`;
      const reason = `the API cannot change ${replaced.join(', ')}${renamed}`;
      this.push(node, kind, 'replace', {
        ...base,
        requests,
        reason,
        reasonCode: 'immutable-field',
        replacedBy: replaced,
      });
      return;
    }
    const refusal = kind.checkUpdate?.(node, live);
    if (refusal) this.out.refusals.push({ code: 'SB_CONSTRAINT', address: node.address, message: refusal });
    const requests = kind.update ? await kind.update(node, live, this.input.ctx, diff.changed) : [];
    this.out.requests.set(node.address, { update: requests });
    const reasonCode = live.previousAddress === undefined ? 'field-differs' : 'renamed';
    this.push(node, kind, 'update', { ...base, requests, reason: updateReason(kind, live, diff.changed), reasonCode });
  }

  /**
   * Live objects of listed collections that nothing declares: pruned or reported as unmanaged.
   * The collections are taken by parent and kind: the reader lists them in the order their
   * answers came, which two runs of the same plan need not share.
   */
  private planUndeclared(): void {
    const collections = [...this.input.live.collections].sort(
      (a, b) => compareKeys(a.parentAddress ?? '', b.parentAddress ?? '') || compareKeys(a.kind, b.kind),
    );
    for (const collection of collections) {
      const kind = kindOf(collection.kind);
      const owner =
        collection.parentAddress === undefined ? undefined : this.desiredByAddress.get(collection.parentAddress);
      // Only collections a document declares are in scope; other lists were read to find parents.
      if (!owner || kind.collection === undefined || !(owner.declaredCollections ?? []).includes(kind.collection))
        continue;
      const pruning = owner.prune === true || this.input.options.prune;
      for (const address of collection.addresses) {
        if (this.desiredByAddress.has(address)) continue;
        const live = this.input.live.byAddress.get(address);
        // Given to every parent and never deletable (the default template): no manifest could manage it away.
        if (!live || kind.isUndeletable?.(live)) continue;
        if (!pruning || this.input.options.keep?.(address)) {
          this.out.unmanaged.push({ address, kind: kind.kind, id: live.id });
          continue;
        }
        this.planDelete(kind, live, owner);
      }
    }
  }

  private planDelete(kind: KindDefinition, live: LiveObject, owner: DesiredNode): void {
    if (kind.cannotDelete) {
      this.out.warnings.push({
        code: 'SB_CANNOT_DELETE',
        address: live.address,
        message: `not declared, but ${kind.cannotDelete}`,
      });
    }
    if (!kind.delete) {
      // Nothing to delete (a number's address link): the object simply stays unmanaged.
      this.out.unmanaged.push({ address: live.address, kind: kind.kind, id: live.id });
      return;
    }
    const refusal = kind.checkDelete?.(live);
    if (refusal) this.out.refusals.push({ code: 'SB_CONSTRAINT', address: live.address, message: refusal });
    const why = owner.prune ? `prune: true in ${owner.source ?? owner.address}` : '--prune';
    const requests = kind.delete(live, this.input.ctx);
    this.out.requests.set(live.address, { delete: requests });
    this.out.changes.push({
      address: live.address,
      kind: kind.kind,
      provider: 'platform',
      action: 'delete',
      id: live.id,
      before: deletedFields(kind, live),
      after: null,
      patch: [],
      reason: `not declared in ${owner.address}, which manages its ${kind.collection ?? 'collection'} (${why})`,
      reasonCode: 'not-declared-prune',
      liveDigest: liveDigest(live),
      dependsOn: [],
      requests: requests.map(planned),
    });
  }

  private push(
    node: DesiredNode,
    kind: KindDefinition,
    action: 'create' | 'update' | 'replace',
    detail: {
      before: Record<string, unknown> | null;
      after: Record<string, unknown>;
      sensitiveDigests: Record<string, string>;
      requests: RequestSpec[];
      parentAddress: string | undefined;
      reason: string;
      reasonCode: ReasonCode;
      replacedBy?: string[];
      live?: LiveObject;
    },
  ): void {
    const change: Change = {
      address: node.address,
      kind: kind.kind,
      provider: 'platform',
      action,
      before: detail.before,
      after: detail.after,
      patch: fastJsonPatch.compare(detail.before ?? {}, detail.after) as PatchOperation[],
      reason: detail.reason,
      reasonCode: detail.reasonCode,
      dependsOn:
        detail.parentAddress !== undefined && this.recreated.has(detail.parentAddress) ? [detail.parentAddress] : [],
      requests: detail.requests.map(planned),
    };
    if (detail.live) {
      change.id = detail.live.id;
      if (detail.live.previousAddress !== undefined) change.previousAddress = detail.live.previousAddress;
      change.liveDigest = liveDigest(detail.live, node);
    }
    if (detail.replacedBy) change.replacedBy = detail.replacedBy;
    if (Object.keys(detail.sensitiveDigests).length > 0) change.sensitiveDigests = detail.sensitiveDigests;
    // A position costs a yaml parse of its document, more than planning the change: it is
    // computed when something reads it (a saved or JSON plan, a failure), not for every change.
    Object.defineProperty(change, 'source', { enumerable: true, configurable: true, get: () => node.source });
    this.out.changes.push(change);
  }

  private parentAddressOf(node: DesiredNode): string | undefined {
    if (node.parentAddress !== undefined) return node.parentAddress;
    const ref = node.parentRef;
    if (!ref) return undefined;
    if (ref.uuid !== undefined) return `${ref.kind.toLowerCase()}/${ref.uuid}`;
    return ref.name === undefined ? undefined : kindOf(ref.kind).address(undefined, ref.name);
  }

  private parentRef(node: DesiredNode, parentAddress: string | undefined): ParentRef | undefined {
    if (parentAddress === undefined) return undefined;
    const kind = node.parentRef?.kind ?? this.desiredByAddress.get(parentAddress)?.kind;
    if (node.parentRef?.uuid !== undefined)
      return { kind: node.parentRef.kind, ids: { [node.parentRef.kind]: node.parentRef.uuid } };
    if (!kind) return undefined;
    return { kind, ids: this.idsOf(parentAddress) };
  }

  /** Ids of an object: live ones, or pending placeholders for objects this plan creates. */
  private idsOf(address: string): IdChain {
    const live = this.input.live.byAddress.get(address);
    if (live && !this.recreated.has(address)) return live.ids;
    const node = this.desiredByAddress.get(address);
    if (!node) return {};
    const parentAddress = this.parentAddressOf(node);
    const parentIds = parentAddress === undefined ? {} : this.parentIdsFor(node, parentAddress);
    return idChain(parentIds, node.kind, pendingId(address));
  }

  private parentIdsFor(node: DesiredNode, parentAddress: string): IdChain {
    if (node.parentRef?.uuid !== undefined) return { [node.parentRef.kind]: node.parentRef.uuid };
    return this.idsOf(parentAddress);
  }
}

/** Why an object is updated: what differs, a rename first (its name is the identity that changes). */
function updateReason(kind: KindDefinition, live: LiveObject, changed: readonly string[]): string {
  const renamedBy = live.previousAddress === undefined ? undefined : kind.manifest.renamable?.field;
  const others = changed.filter((name) => name !== renamedBy);
  const differ =
    others.length === 0 ? '' : `declared ${others.join(', ')} ${others.length === 1 ? 'differs' : 'differ'} from live`;
  if (live.previousAddress === undefined) return differ;
  return differ ? `renamed from ${live.previousAddress}; ${differ}` : `renamed from ${live.previousAddress}`;
}

function planned(request: RequestSpec): PlannedRequest {
  const result: PlannedRequest = { method: request.method, path: request.path };
  if (request.role) result.role = request.role;
  return result;
}

/** A stable digest of the normalised live object, for stale-plan detection (sensitive values as their digests). */
export function liveDigest(live: LiveObject, desired?: DesiredNode): string {
  return digestOf({ id: live.id, fields: fingerprintFields(live, desired) });
}

function codeOf(error: unknown): string {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
    ? error.code
    : 'SB_PLAN';
}

/** By address, then message (a stable sort: one address's messages keep their order). */
function inAddressOrder<T extends { address?: string; message: string }>(messages: readonly T[]): T[] {
  return [...messages].sort(
    (a, b) => compareKeys(a.address ?? '', b.address ?? '') || compareKeys(a.message, b.message),
  );
}
