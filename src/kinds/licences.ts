import { isPlainObject } from '../core/values.js';
import { pathId } from './fields.js';
import type { CapacityFigure, CapacityReport, LiveObject } from './types.js';

type Json = Record<string, unknown>;

/**
 * A subscription's licences, from its group's licence report (`GET G/licenses?detailed=true`,
 * Doc 2 §4.2): the detailed report nests the group's distributors, resellers and tenants
 * (§2.2), each tenant with its subscriptions and each subscription with its licences map.
 * A licence's `assigned` is what the subscription holds; `inUse` (users licence only) what
 * is used of it. Licences are not declared in manifests (orders change them, §4.1).
 */
export const subscriptionLicences: CapacityReport = {
  ancestor: 'Group',
  request: (groupId, ctx) => ({
    method: 'GET',
    path: `${ctx.P}/groups/${groupId}/licenses`,
    query: { detailed: 'true' },
    role: 'groups.instance.licenses.list',
  }),
  figures: (report, live) => {
    const index = indexOf(report);
    if (!index) return { problem: 'the detailed report has no "group" object' };
    const tenant = index.tenants.get(pathId(live.ids, 'Tenant'));
    const subscriptions = tenant?.['subscriptions'];
    if (!Array.isArray(subscriptions)) return undefined;
    const entry = subscriptions.find((s) => isPlainObject(s) && String(s['id']) === live.id) as Json | undefined;
    return entry ? licenceFigures(entry['licenses'], live) : undefined;
  },
  covers: (report, ids) => {
    const index = indexOf(report);
    if (!index) return false;
    return ['Tenant', 'Reseller', 'Distributor'].some((kind) => {
      const id = ids[kind];
      return id !== undefined && index.owners.has(id);
    });
  },
};

/** A report's tenants by uuid and every owner's uuid in it, made once per report (not once per subscription). */
interface ReportIndex {
  tenants: Map<string, Json>;
  owners: Set<string>;
}

const indexes = new WeakMap<Json, ReportIndex>();

function indexOf(report: unknown): ReportIndex | undefined {
  const group = isPlainObject(report) ? report['group'] : undefined;
  if (!isPlainObject(group)) return undefined;
  let index = indexes.get(group);
  if (!index) {
    const tenants = new Map<string, Json>();
    for (const tenant of entriesOf(group, 'tenants')) {
      const uuid = tenant['uuid'];
      // The first entry of a uuid answers, as a search through the list would.
      if (typeof uuid === 'string' && !tenants.has(uuid)) tenants.set(uuid, tenant);
    }
    const owners = new Set(
      (['tenants', 'resellers', 'distributors'] as const).flatMap((key) =>
        entriesOf(group, key).map((e) => String(e['uuid'])),
      ),
    );
    index = { tenants, owners };
    indexes.set(group, index);
  }
  return index;
}

/** Every entry of a list (`tenants`, `resellers`, `distributors`) wherever it hangs in the report. */
function entriesOf(node: Json, key: 'tenants' | 'resellers' | 'distributors'): Json[] {
  const list = node[key];
  const own = Array.isArray(list) ? list.filter(isPlainObject) : [];
  const below = (['distributors', 'resellers'] as const).flatMap((nested) => {
    const children = node[nested];
    return Array.isArray(children) ? children.filter(isPlainObject).flatMap((c) => entriesOf(c, key)) : [];
  });
  return [...own, ...below];
}

function licenceFigures(licences: unknown, live: LiveObject): CapacityFigure[] | { problem: string } {
  if (!isPlainObject(licences)) return { problem: `subscription ${live.id} has no "licenses" map` };
  const figures: CapacityFigure[] = [];
  for (const [key, licence] of Object.entries(licences)) {
    const assigned = isPlainObject(licence) ? licence['assigned'] : undefined;
    const inUse = isPlainObject(licence) ? licence['inUse'] : undefined;
    if (!Number.isInteger(assigned) || (inUse !== undefined && !Number.isInteger(inUse)))
      return { problem: `licence "${key}" of subscription ${live.id} has no integer "assigned" (or "inUse")` };
    // A licence the subscription does not hold says nothing about its capacity.
    if (assigned === 0 && !inUse) continue;
    const figure: CapacityFigure = {
      subject: `licence ${key}`,
      declared: null,
      assigned: assigned as number,
      reserved: 0,
      headroom: inUse === undefined ? null : (assigned as number) - (inUse as number),
      of: assigned as number,
    };
    if (inUse !== undefined) figure.inUse = inUse as number;
    figures.push(figure);
  }
  return figures;
}
