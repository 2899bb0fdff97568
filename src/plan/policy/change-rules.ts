import type { Pacer } from '../../core/pacer.js';
import { rowIndexAt, type PolicyRule } from '../../manifest/index.js';
import type { DesiredNode } from '../../state/types.js';
import { overwrites } from '../safety.js';
import type { Change } from '../types.js';
import { FormerNames } from '../former-names.js';
import { matchesObject } from './conditions.js';
import type { PolicyFacts } from './facts.js';
import type { ViolationSink } from './object-rules.js';

const NO_RENAMES = new FormerNames([]);

/**
 * The rules over the plan's changes: `forbid` (an action on a matched object) and
 * `threshold` (a share of the kind's, or table's, live objects in scope updated or deleted;
 * an update counts when it overwrites a live value, as for --max-update-percent).
 */
export class ChangeRules {
  private declared: Map<string, DesiredNode> | undefined;

  constructor(
    private readonly facts: PolicyFacts,
    private readonly sink: ViolationSink,
    /** Hands the event loop a turn now and then: a signal stops the check (src/core/pacer.ts). */
    private readonly pacer: Pacer,
  ) {}

  async check(rule: PolicyRule): Promise<void> {
    if (rule.check.type === 'forbid') await this.forbid(rule, rule.check.actions, rule.check.replacedBy);
    else if (rule.check.type === 'threshold') await this.threshold(rule, rule.check);
  }

  private async forbid(rule: PolicyRule, actions: readonly string[], replacedBy?: readonly string[]): Promise<void> {
    for (const change of this.facts.changes) {
      if (this.pacer.due()) await this.pacer.pause();
      if (change.kind !== rule.match.kind || !actions.includes(change.action)) continue;
      const forcing = change.replacedBy?.filter((field) => replacedBy?.includes(field)) ?? [];
      if (change.action === 'replace' && replacedBy && forcing.length === 0) continue;
      // The object before the change and after it: a rule that stops the update of one kind of
      // row stops it whether the update keeps the row of that kind or makes it another.
      const states = rule.match.where.length > 0 ? this.statesOf(change) : [{}];
      // The object under its former names too (a rename, a renamed ancestor): a rule written for it still holds.
      const names = (this.facts.former ?? NO_RENAMES).of(change);
      if (!names.some((address) => states.some((fields) => matchesObject(rule.match, address, fields)))) continue;
      const cause = forcing.length > 0 ? ` because of ${forcing.join(', ')}` : '';
      this.sink.add(rule, `the plan would ${change.action} it${cause}, which the rule forbids`, change.address, () =>
        change.source === undefined ? rule.source : change.source,
      );
    }
  }

  /**
   * What the changed object looks like to `where`, before the change and after it: its
   * declared fields (an object's, or a routing row's: what the change leaves is the same live),
   * with the live values the change replaces, or with the new ones. A change's before and
   * after hold only what changes.
   */
  private statesOf(change: Change): Record<string, unknown>[] {
    const declared = this.declaredFields(change.address);
    const before = { ...declared, ...change.before };
    const after = { ...declared, ...change.after };
    // A delete has no after, a create no before: only the side that exists is the object.
    if (change.action === 'delete') return [before];
    if (change.action === 'create') return [after];
    return [before, after];
  }

  private declaredFields(address: string): Readonly<Record<string, unknown>> | undefined {
    if (!this.declared) this.declared = new Map(this.facts.declared.map((d) => [d.address, d]));
    const node = this.declared.get(address);
    if (node) return node.fields;
    for (const table of this.facts.tables) {
      const index = rowIndexAt(table, address);
      if (index === undefined) continue;
      const row = table.rows[index] as readonly unknown[];
      return Object.fromEntries(table.columns.flatMap((c, j) => (row[j] === undefined ? [] : [[c, row[j]]])));
    }
    return undefined;
  }

  private async threshold(rule: PolicyRule, check: { update?: number; delete?: number; min: number }): Promise<void> {
    const { table, kind } = rule.match;
    const live =
      table === undefined ? (this.facts.liveCounts.get(kind) ?? 0) : (this.facts.tableLiveCounts.get(table) ?? 0);
    if (live === 0 || live < check.min) return;
    let updates = 0;
    let deletes = 0;
    for (const change of this.facts.changes) {
      if (this.pacer.due()) await this.pacer.pause();
      if (change.kind !== kind || (table !== undefined && !change.address.startsWith(`${table}/`))) continue;
      if (change.action === 'delete') deletes++;
      else if (overwrites(change)) updates++;
    }
    const scope = table ?? `${kind} objects`;
    const over = (what: string, count: number, limit: number | undefined) => {
      const percent = (Math.min(count, live) / live) * 100;
      if (limit === undefined || percent <= limit) return;
      const message = `the plan ${what} ${count} of the ${live} live ${table === undefined ? scope : `rows of ${scope}`} in scope (${percent.toFixed(1)}%), above the rule's ${limit}%`;
      this.sink.add(rule, message, undefined, () => rule.source);
    };
    over('overwrites values of', updates, check.update);
    over('deletes', deletes, check.delete);
  }
}
