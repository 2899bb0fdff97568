import { kindOf, kinds } from '../kinds/index.js';
import type { CapacityReport, IdChain, KindContext, KindDefinition, LiveObject, RequestSpec } from '../kinds/types.js';
import type { CapacityRead, CapacityReads } from '../state/capacity-reads.js';
import type { DesiredNode, LiveState } from '../state/types.js';
import { PlanIndex } from './plan-index.js';
import type { CapacityRow, Change, PlanMessage } from './types.js';

/** A headroom under this share of its quantity gets a warning. */
const LOW_HEADROOM_PERCENT = 10;

export interface CapacityInput {
  /** The platform's planned changes. */
  changes: readonly Change[];
  desired: readonly DesiredNode[];
  live: LiveState;
  ctx: KindContext;
  reads: CapacityReads;
}

export interface CapacityOutput {
  rows: CapacityRow[];
  /** A live reference that does not exist (a subscription on a UC platform its group does not enable). */
  refusals: PlanMessage[];
  /** Low headroom; what could not be checked, and why. */
  warnings: PlanMessage[];
  /** A report that cannot be what the API documents say: the request and the problem (a misread answer). */
  misread?: { request: RequestSpec; problem: string };
}

/**
 * The capacity pre-flight, before anything is sent, over what the plan touches only:
 *
 * - for each object the plan touches (itself or below it) whose kind holds capacities (a
 *   subscription: the kinds with a `capacity` column below it, its `capacityReport`), one
 *   row per capacity: declared against assigned and reserved, and the headroom, with a
 *   warning under {@link LOW_HEADROOM_PERCENT} %;
 * - for each create or replace of a kind with a `liveReference` (a subscription's `uc`),
 *   the referenced live objects under the ancestor (the group's enabled UC platforms): a
 *   value that is not among them is refused.
 *
 * Reads are made once per parent or ancestor. Generic over the kind table: no kind is named.
 */
export async function capacityPreflight(input: CapacityInput): Promise<CapacityOutput> {
  return new Preflight(input).run();
}

class Preflight {
  private readonly out: CapacityOutput = { rows: [], refusals: [], warnings: [] };
  private readonly index: PlanIndex;
  private readonly reports = new Map<string, Promise<CapacityRead<unknown>>>();
  private readonly lists = new Map<string, Promise<CapacityRead<LiveObject[]>>>();
  private readonly unchecked = new Set<string>();
  private ancestors: Promise<CapacityRead<LiveObject[]>> | undefined;

  constructor(private readonly input: CapacityInput) {
    this.index = new PlanIndex(input.desired, input.live, input.changes);
  }

  async run(): Promise<CapacityOutput> {
    for (const address of this.touchedScopes().sort()) await this.scopeRows(address);
    for (const change of this.input.changes) await this.checkLiveReference(change);
    return this.out;
  }

  /** Objects of a capacity-holding kind that a change touches (itself or below), in plan order. */
  private touchedScopes(): string[] {
    const scopes = new Set<string>();
    for (const change of this.input.changes) {
      for (let at: string | undefined = change.address; at !== undefined; at = this.index.parentOf(at)) {
        const kind = this.index.kindAt(at);
        if (!kind || !holdsCapacity(kind)) continue;
        if (this.index.action(at) !== 'delete') scopes.add(at);
        break;
      }
    }
    return [...scopes];
  }

  private async scopeRows(address: string): Promise<void> {
    const kind = this.index.kindAt(address) as KindDefinition;
    const live = this.index.liveAt(address);
    const rows: CapacityRow[] = [];
    for (const child of kinds.filter((k) => k.capacity && k.parentKinds.includes(kind.kind))) {
      for (const row of await this.childRows(child, address, live)) rows.push(row);
    }
    if (kind.capacityReport && live) rows.push(...(await this.reportRows(kind, live)));
    rows.sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
    for (const row of rows) this.flagLow(row);
    this.out.rows.push(...rows);
  }

  /** One row per capacity object below the scope: declared ones and live ones, deletes left out. */
  private async childRows(child: KindDefinition, parent: string, parentLive?: LiveObject): Promise<CapacityRow[]> {
    const byAddress = new Map<string, { desired?: DesiredNode; live?: LiveObject }>();
    for (const node of this.index.declaredUnder(parent))
      if (node.kind === child.kind) byAddress.set(node.address, { desired: node });
    if (parentLive) {
      for (const live of await this.liveChildren(child, parentLive)) {
        if (this.index.action(live.address) === 'delete') continue;
        byAddress.set(live.address, { ...byAddress.get(live.address), live });
      }
    }
    return [...byAddress].map(([address, { desired, live }]) => {
      // What a replace or a create leaves is a new object: the live one's figures do not count.
      const action = this.index.action(address);
      const current = action === 'create' || action === 'replace' ? undefined : live;
      const figure = (child.capacity as NonNullable<KindDefinition['capacity']>)(desired, current);
      const { of: _of, ...row } = figure;
      return { address, scope: parent, ...row };
    });
  }

  /** The live children of a kind: as the plan read them, else listed now (once). */
  private async liveChildren(child: KindDefinition, parent: LiveObject): Promise<LiveObject[]> {
    const listed = this.index.listedUnder(child.kind, parent.address);
    if (listed) return listed;
    const read = await this.list(child.kind, parent);
    if ('ok' in read) return read.ok;
    this.uncheck(parent.address, `its ${child.manifest.noun}s cannot be read: ${read.unreadable}`);
    return [];
  }

  private list(kind: string, parent: LiveObject): Promise<CapacityRead<LiveObject[]>> {
    const key = `${kind}@${parent.kind}/${parent.id}`;
    let read = this.lists.get(key);
    if (!read) {
      read = this.input.reads.listUnder(kind, parent);
      this.lists.set(key, read);
    }
    return read;
  }

  private async reportRows(kind: KindDefinition, live: LiveObject): Promise<CapacityRow[]> {
    const report = kind.capacityReport as CapacityReport;
    const ancestorId = await this.ancestorId(kind, live.ids, report.ancestor);
    if (ancestorId === undefined) {
      this.uncheck(live.address, `no ${report.ancestor.toLowerCase()} this plan can read lists it`);
      return [];
    }
    const read = await this.report(report, ancestorId);
    if (!('ok' in read)) {
      this.uncheck(live.address, read.unreadable);
      return [];
    }
    const figures = report.figures(read.ok, live);
    if (figures !== undefined && !Array.isArray(figures)) {
      this.out.misread ??= { request: report.request(ancestorId, this.input.ctx), problem: figures.problem };
      return [];
    }
    return (figures ?? []).map(({ of: _of, ...figure }) => ({ address: live.address, ...figure }));
  }

  /** An ancestor's report, read once. */
  private report(report: CapacityReport, ancestorId: string): Promise<CapacityRead<unknown>> {
    let body = this.reports.get(ancestorId);
    if (!body) {
      body = this.input.reads.get(report.request(ancestorId, this.input.ctx));
      this.reports.set(ancestorId, body);
    }
    return body;
  }

  /**
   * The id of an object's ancestor of a kind: from its id chain, else (an owner named by
   * uuid: a distributor's reseller) the one, among those the caller can list, whose report
   * lists an object of the chain.
   */
  private async ancestorId(kind: KindDefinition, ids: IdChain, ancestor: string): Promise<string | undefined> {
    const known = ids[ancestor];
    const report = kind.capacityReport;
    if (known !== undefined || !report || report.ancestor !== ancestor) return known;
    this.ancestors ??= this.input.reads.listAll(ancestor);
    const candidates = await this.ancestors;
    if (!('ok' in candidates)) return undefined;
    for (const candidate of candidates.ok) {
      const read = await this.report(report, candidate.id);
      if ('ok' in read && report.covers(read.ok, ids)) return candidate.id;
    }
    return undefined;
  }

  private flagLow(row: CapacityRow & { of?: number | null }): void {
    const quantity = row.declared ?? row.assigned;
    if (row.headroom === null || quantity <= 0) return;
    const percent = (row.headroom / quantity) * 100;
    if (percent >= LOW_HEADROOM_PERCENT) return;
    row.warning = `headroom ${row.headroom} of ${quantity} (${percent.toFixed(0)}%), under ${LOW_HEADROOM_PERCENT}%`;
    this.out.warnings.push({
      code: 'SB_CAPACITY_LOW',
      address: row.address,
      message: `${row.subject}: ${row.warning}`,
    });
  }

  /** A create or replace setting a field that must name a live object under an ancestor. */
  private async checkLiveReference(change: Change): Promise<void> {
    if (change.action !== 'create' && change.action !== 'replace') return;
    const kind = kindOf(change.kind);
    const reference = kind.liveReference;
    const value = reference && this.index.declared(change.address)?.fields[reference.field];
    if (!reference || value === null || value === undefined) return;
    const ancestor = this.index.liveAncestor(change.address);
    const id = ancestor && (await this.ancestorId(kind, ancestor.ids, reference.under));
    if (id === undefined) {
      this.uncheck(change.address, `no ${reference.under.toLowerCase()} this plan can read holds it`);
      return;
    }
    const owner = this.index.liveObject(reference.under, id);
    const parent: LiveObject = owner ?? {
      kind: reference.under,
      address: `${reference.under.toLowerCase()}/${id}`,
      id,
      ids: { [reference.under]: id },
      fields: {},
    };
    const read = await this.list(reference.kind, parent);
    if (!('ok' in read)) {
      this.uncheck(
        change.address,
        `the ${kindOf(reference.kind).manifest.noun}s of ${parent.address} cannot be read: ${read.unreadable}`,
      );
      return;
    }
    const target = kindOf(reference.kind);
    const names = read.ok.map((o) => target.identity(o.fields));
    // An empty list restricts nothing (the simulator, too, then takes the first platform it knows).
    if (names.length === 0 || names.includes(String(value))) return;
    this.out.refusals.push({
      code: reference.code,
      address: change.address,
      message: `${reference.field} "${String(value)}" is not one of the ${target.manifest.noun}s of ${parent.address} (${names.join(', ')}): ${reference.why}`,
    });
  }

  private uncheck(address: string, why: string): void {
    if (this.unchecked.has(address)) return;
    this.unchecked.add(address);
    this.out.warnings.push({ code: 'SB_CAPACITY_UNCHECKED', address, message: `capacity not checked: ${why}` });
  }
}

/** A kind whose objects hold capacities: a `capacityReport`, or children with a `capacity`. */
function holdsCapacity(kind: KindDefinition): boolean {
  return kind.capacityReport !== undefined || kinds.some((k) => k.capacity && k.parentKinds.includes(kind.kind));
}
