import type { Diagnostic } from '../core/errors.js';
import type { DesiredSet, PolicyRule } from '../manifest/index.js';
import { nearestAncestor } from '../core/address-prefix.js';
import { closest } from '../manifest/suggest.js';
import type { PlanChecks } from '../plan/make-plan.js';
import type { CoverageReport } from '../plan/coverage/types.js';
import { formerNamesOf } from '../plan/former-names.js';
import type { PlanPart } from '../plan/part.js';
import { evaluatePolicies } from '../plan/policy/evaluate.js';
import { valueText, type ReferenceValues } from '../plan/policy/facts.js';
import { liveCountsByKind } from '../plan/safety.js';
import type { CapacityRow, PlanMessage } from '../plan/types.js';
import type { LiveValuesRef, Provider } from '../providers/index.js';
import type { DesiredNode } from '../state/types.js';

/** What the checks after the plan need from the run. */
export interface ChecksInput {
  set: DesiredSet;
  rules: readonly PolicyRule[];
  providers: readonly Provider[];
  parts: readonly PlanPart[];
  allowPolicy: readonly string[];
  /** The Emergency coverage section, when the plan read it (a coverage rule bounds it). */
  coverage?: CoverageReport;
}

/**
 * The checks made once every provider has planned: the capacity pre-flight of each provider
 * that has one, then the policies' rules over the declared objects in scope, the changes and
 * the capacity figures, with the values their references name read first (once each).
 */
export async function planChecks(input: ChecksInput): Promise<PlanChecks> {
  const errors: PlanMessage[] = [];
  const warnings: PlanMessage[] = [];
  const capacity: CapacityRow[] = [];
  for (const provider of input.providers) {
    const found = await provider.capacity?.();
    if (!found) continue;
    capacity.push(...found.rows);
    errors.push(...found.refusals);
    warnings.push(...found.warnings);
  }
  let policyCost: PlanChecks['policyCost'];
  if (input.rules.length > 0) {
    const begin = process.cpuUsage();
    const planned = new Set(input.parts.flatMap((p) => p.declaredAddresses));
    const outcome = await evaluatePolicies(
      input.rules,
      {
        declared: input.parts.flatMap((p) => p.declaredObjects ?? []),
        tables: input.set.routingTables.filter((t) => planned.has(t.table.address)),
        changes: input.parts.flatMap((p) => p.changes),
        former: formerNamesOf(input.parts),
        liveCounts: liveCountsByKind(input.parts),
        tableLiveCounts: new Map(input.parts.flatMap((p) => [...(p.liveCountsIn ?? [])])),
        capacity,
        ...(input.coverage ? { coverage: input.coverage } : {}),
        references: await referenceValues(input),
        sourceOf: sourceIn(input.set, input.parts),
      },
      { allowPolicy: input.allowPolicy },
    );
    errors.push(...outcome.errors);
    warnings.push(...outcome.warnings);
    const used = process.cpuUsage(begin);
    policyCost = { rules: input.rules.length, cpuMs: Math.round((used.user + used.system) / 1000) };
  }
  return { errors, warnings, capacity, overrides: [...input.allowPolicy], ...(policyCost ? { policyCost } : {}) };
}

/**
 * The values each reference rule may name: a declared table's rows (its key index when the
 * rule names the table's key), else what a provider reads live; a kind's declared objects
 * and its live ones. Undefined when nothing could read them.
 */
async function referenceValues(input: ChecksInput): Promise<Map<string, ReferenceValues>> {
  const out = new Map<string, ReferenceValues>();
  // A live value the plan takes away is not there to be named once it is applied: its object
  // (or an ancestor) is deleted or replaced, or the change sets the field anew (the declared
  // value, added below, is what stays). A rule over numbers' emergency addresses must see that
  // the same plan prunes the address they name.
  const changes = new Map(input.parts.flatMap((p) => p.changes.map((c) => [c.address, c] as const)));
  const removed = (address: string) => {
    const action = changes.get(address)?.action;
    return action === 'delete' || action === 'replace';
  };
  const takenAway = (address: string, field: string): boolean => {
    const change = changes.get(address);
    if (change?.action === 'update' && change.after?.[field] !== undefined) return true;
    return removed(address) || nearestAncestor(address, removed) !== undefined;
  };
  for (const rule of input.rules) {
    const check = rule.check;
    if (check.type !== 'reference') continue;
    if (check.table !== undefined) {
      const table = input.set.routingTables.find((t) => t.table.address === check.table);
      if (table && table.key.length === 1 && table.key[0] === check.key) out.set(rule.id, table.index);
      else if (table) {
        const column = table.columns.indexOf(check.key);
        out.set(rule.id, new Set(table.rows.flatMap((r) => (r[column] == null ? [] : [valueText(r[column])]))));
      } else out.set(rule.id, await liveValues(input.providers, { table: check.table, field: check.key }));
      continue;
    }
    const kind = check.kind ?? '';
    const field = check.key;
    const live = await liveValues(input.providers, { kind, field, gone: (address) => takenAway(address, field) });
    if (!live) {
      out.set(rule.id, undefined);
      continue;
    }
    const values = new Set(live);
    for (const o of input.set.objects)
      if (o.kind === kind && o.fields[check.key] != null) values.add(valueText(o.fields[check.key]));
    out.set(rule.id, values);
  }
  return out;
}

async function liveValues(
  providers: readonly Provider[],
  ref: LiveValuesRef,
): Promise<ReadonlySet<string> | undefined> {
  for (const provider of providers) {
    const values = await provider.liveValues?.(ref);
    if (values) return values;
  }
  return undefined;
}

/** A declared object's (or field's) position: the loader's, else the provider's (a canonical address). */
function sourceIn(
  set: DesiredSet,
  parts: readonly PlanPart[],
): (address: string, field?: string) => string | undefined {
  let nodes: Map<string, DesiredNode> | undefined;
  return (address, field) => {
    const at = set.sourceOf(address, field);
    if (at) return `${at.file}:${at.line}:${at.column}`;
    nodes ??= new Map(parts.flatMap((p) => (p.declaredObjects ?? []).map((d) => [d.address, d] as const)));
    return nodes.get(address)?.source;
  };
}

/** `--allow-policy` naming no rule of the manifests is a mistake (exit 1), said with the closest id. */
export function unknownOverrides(rules: readonly PolicyRule[], allowPolicy: readonly string[]): Diagnostic[] {
  const ids = rules.map((r) => r.id);
  return allowPolicy
    .filter((id) => !ids.includes(id))
    .map((id) => {
      const near = closest(id, ids);
      const hint = near ? `; the closest is ${near}` : ids.length > 0 ? `; the rules are ${ids.join(', ')}` : '';
      return {
        severity: 'error' as const,
        code: 'SB_POLICY_OVERRIDE',
        message: `--allow-policy ${id} names no rule of the manifests' policies${hint}`,
      };
    });
}

/** Policy rules that name a routing table no manifest declares: the run needs the routing engine to read it. */
export function readsUndeclaredTables(set: DesiredSet, rules: readonly PolicyRule[]): boolean {
  const declared = new Set(set.routingTables.map((t) => t.table.address));
  return rules.some((r) => r.check.type === 'reference' && r.check.table !== undefined && !declared.has(r.check.table));
}
