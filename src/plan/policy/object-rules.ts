import { CAPACITY_FIELDS, rowAddress, type DesiredRoutingTable, type PolicyRule } from '../../manifest/index.js';
import type { Pacer } from '../../core/pacer.js';
import { kindOf } from '../../kinds/index.js';
import type { DesiredNode } from '../../state/types.js';
import type { CapacityRow } from '../types.js';
import { matchesPattern } from '../targets.js';
import { matchesObject, passes } from './conditions.js';
import type { PolicyFacts } from './facts.js';
import { limitCheck, valueCheck, type ValueCheck } from './values.js';

/** Where a rule's violations go (the position is asked for only when the violation is listed). */
export interface ViolationSink {
  add(rule: PolicyRule, message: string, address: string | undefined, source: () => string | undefined): void;
}

/**
 * The rules over the declared objects (limit, require, reference): each declared object of
 * the plan's scope that the rule matches, and each row of the routing tables in scope.
 */
export class ObjectRules {
  private children: Map<string, number> | undefined;
  private capacityAt: Map<string, CapacityRow[]> | undefined;

  constructor(
    private readonly facts: PolicyFacts,
    /** The kind routing rows carry (the routing provider's). */
    private readonly rowKind: string,
    private readonly sink: ViolationSink,
    /** Hands the event loop a turn now and then: a signal stops the check (src/core/pacer.ts). */
    private readonly pacer: Pacer,
  ) {}

  async check(rule: PolicyRule): Promise<void> {
    if (rule.match.kind === this.rowKind) {
      for (const table of this.facts.tables)
        if (rule.match.table === undefined || rule.match.table === table.table.address)
          await this.checkRows(rule, table);
      return;
    }
    const check = this.objectCheck(rule);
    for (const node of this.facts.declared) {
      if (this.pacer.due()) await this.pacer.pause();
      if (node.kind !== rule.match.kind || !matchesObject(rule.match, node.address, node.fields)) continue;
      check(node);
    }
  }

  /** The rule's test of one declared object. */
  private objectCheck(rule: PolicyRule): (node: DesiredNode) => void {
    const c = rule.check;
    const report = (node: DesiredNode, message: string, field?: string) =>
      this.sink.add(rule, message, node.address, () => this.facts.sourceOf(node.address, field));
    if (c.type === 'limit' && c.count !== undefined) {
      const { count: collection, min, max } = c;
      return (node) => {
        if (!node.declaredCollections?.includes(collection)) return;
        const n = this.childCount(node.address, collection);
        const bound =
          min !== undefined && n < min
            ? `below the minimum ${min}`
            : max !== undefined && n > max
              ? `above the maximum ${max}`
              : undefined;
        if (bound) report(node, `declares ${n} ${collection}, ${bound}`, collection);
      };
    }
    if (c.type === 'limit' && c.field !== undefined && CAPACITY_FIELDS.includes(c.field)) {
      const figure = c.field as 'headroom' | 'assigned' | 'reserved';
      return (node) => {
        for (const row of this.capacityRows(node.address)) {
          const problem = limitCheck(`${row.subject}: ${figure}`, c.min, c.max)(row[figure]);
          if (problem) report(node, problem);
        }
      };
    }
    const field = c.type === 'limit' || c.type === 'require' || c.type === 'reference' ? c.field : undefined;
    const test = valueCheck(c, this.facts.references.get(rule.id));
    if (field === undefined || !test) return () => undefined;
    return (node) => {
      const problem = test(node.fields[field]);
      if (problem) report(node, problem, field in node.fields ? field : undefined);
    };
  }

  /** Declared children of an object in one collection (counted once for every rule). */
  private childCount(address: string, collection: string): number {
    if (!this.children) {
      this.children = new Map();
      for (const node of this.facts.declared) {
        const own = node.parentAddress === undefined ? undefined : kindOf(node.kind).collection;
        if (own === undefined) continue;
        const key = `${node.parentAddress ?? ''}\u0000${own}`;
        this.children.set(key, (this.children.get(key) ?? 0) + 1);
      }
    }
    return this.children.get(`${address}\u0000${collection}`) ?? 0;
  }

  private capacityRows(address: string): readonly CapacityRow[] {
    if (!this.capacityAt) {
      this.capacityAt = new Map();
      // A row counts for its object and for the object whose capacity it is part of (an
      // entitlement's row for its subscription too: "subscriptions (each of their rows)").
      const add = (address: string, row: CapacityRow) => {
        const list = this.capacityAt?.get(address);
        if (list) list.push(row);
        else this.capacityAt?.set(address, [row]);
      };
      for (const row of this.facts.capacity) {
        add(row.address, row);
        if (row.scope !== undefined && row.scope !== row.address) add(row.scope, row);
      }
    }
    return this.capacityAt.get(address) ?? [];
  }

  /**
   * A rule over the rows of one table, on its compact arrays: columns looked up once, no
   * object per row; a violating row's address and position are made only when reported.
   */
  private async checkRows(rule: PolicyRule, table: DesiredRoutingTable): Promise<void> {
    const column = (field: string) => table.columns.indexOf(field);
    const where = rule.match.where.map(({ field, test }) => ({ at: column(field), test }));
    const address = rule.match.address;
    const c = rule.check;
    const field = c.type === 'limit' || c.type === 'require' || c.type === 'reference' ? c.field : undefined;
    const test: ValueCheck | undefined =
      field === undefined ? undefined : valueCheck(c, this.facts.references.get(rule.id));
    if (field === undefined || !test) return;
    const at = column(field);
    const rows = table.rows;
    for (let i = 0; i < rows.length; i++) {
      if (this.pacer.due()) await this.pacer.pause();
      const row = rows[i] as readonly unknown[];
      let selected = true;
      for (const w of where) {
        if (!passes(w.test, w.at < 0 ? undefined : row[w.at])) {
          selected = false;
          break;
        }
      }
      if (!selected) continue;
      const problem = test(at < 0 ? undefined : row[at]);
      if (!problem) continue;
      const rowAt = rowAddress(table, i);
      if (address !== undefined && !matchesPattern(address, rowAt)) continue;
      this.sink.add(rule, problem, rowAt, () => this.facts.sourceOf(rowAt));
    }
  }
}
