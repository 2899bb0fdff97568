import { SwitchboardError } from '../core/errors.js';
import type { FieldDifference, IgnoredFields } from './types.js';

/**
 * `--ignore PATTERN`: field differences a team does not care about. A pattern matches a
 * field when it matches the field's name (`billingId`, `metadata.uuid`) or the kind and
 * the name joined by a dot (`Tenant.markup`), whole; `*` stands for any characters
 * (`*Reference`, `Subscription.*`, `metadata.*`). Matching is a linear scan with no regular
 * expression built from the pattern. What each pattern hid is counted and reported:
 * ignoring is never silent.
 */
export class FieldFilter {
  private readonly tallies: { pattern: string; differences: number; objects: Set<string>; nowSame: number }[];

  constructor(patterns: readonly string[]) {
    for (const p of patterns) {
      if (p.trim() === '' || /\s/.test(p))
        throw new SwitchboardError(
          'SB_USAGE',
          `--ignore ${JSON.stringify(p)}: expected a field name or KIND.FIELD, with * for any characters (no spaces)`,
        );
    }
    this.tallies = [...new Set(patterns)].map((pattern) => ({
      pattern,
      differences: 0,
      objects: new Set(),
      nowSame: 0,
    }));
  }

  /**
   * The differences no pattern matches; the others are counted against the first pattern
   * matching them. `onlyFields`: the object differs in nothing but these fields (same
   * address on both sides), so with all of them ignored it counts as the same.
   */
  keep(address: string, kind: string, fields: readonly FieldDifference[], onlyFields: boolean): FieldDifference[] {
    if (this.tallies.length === 0) return [...fields];
    const kept: FieldDifference[] = [];
    const hitBy = new Set<(typeof this.tallies)[number]>();
    for (const field of fields) {
      const tally = this.tallies.find(
        (t) => wildcardMatch(t.pattern, field.field) || wildcardMatch(t.pattern, `${kind}.${field.field}`),
      );
      if (!tally) {
        kept.push(field);
        continue;
      }
      tally.differences += 1;
      tally.objects.add(address);
      hitBy.add(tally);
    }
    if (onlyFields && kept.length === 0 && fields.length > 0) for (const t of hitBy) t.nowSame += 1;
    return kept;
  }

  report(): IgnoredFields[] {
    return this.tallies.map((t) => ({
      pattern: t.pattern,
      differences: t.differences,
      objects: t.objects.size,
      objectsNowSame: t.nowSame,
    }));
  }
}

/**
 * Whether `text` matches `pattern` whole, `*` matching any run of characters: the greedy
 * scan that goes back only to the last `*` seen, so at most |pattern| × |text| steps.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p += 1;
      t += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      resume = t;
      p += 1;
    } else if (star >= 0) {
      p = star + 1;
      resume += 1;
      t = resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}
