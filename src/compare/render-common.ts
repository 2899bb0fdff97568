import { canonicalJson } from '../core/canonical-json.js';
import { safeText } from '../plan/render-common.js';
import { SENSITIVE } from '../plan/types.js';
import type { Comparison, DifferenceType, FieldDifference, IgnoredFields, ObjectDifference } from './types.js';
import { countText } from '../core/count-text.js';

/** A value as one line of canonical JSON, safe to display; `(sensitive)` bare; a side without the field says so. */
export function valueText(field: FieldDifference, side: 'before' | 'after'): string {
  if (!(side in field)) return NOT_SET;
  if (field.sensitive) return SENSITIVE;
  return safeText(canonicalJson(field[side] ?? null));
}

/** What a side that does not declare a field shows. */
export const NOT_SET = '(not set)';

/** `1 added, 2 removed, 0 renamed, 3 changed, 40 the same.` */
export function summaryLine(c: Comparison): string {
  const s = c.summary;
  return `${s.added} added, ${s.removed} removed, ${s.renamed} renamed, ${s.changed} changed, ${s.same} the same.`;
}

/** `manifests/ (7 files, 42 objects)` */
export function treeLine(tree: Comparison['a']): string {
  return `${safeText(tree.paths.join(' '))} (${plural(tree.files, 'file')}, ${plural(tree.objects, 'object')})`;
}

/** What one `--ignore` pattern hid, as a sentence. */
export function ignoredLine(i: IgnoredFields): string {
  const hid =
    i.differences === 0
      ? 'matched no difference'
      : `hid ${plural(i.differences, 'field difference')} in ${plural(i.objects, 'object')}`;
  const same = i.objectsNowSame > 0 ? ` (${plural(i.objectsNowSame, 'object')} otherwise the same)` : '';
  return `--ignore ${safeText(i.pattern)} ${hid}${same}`;
}

/** `renamed from tenant/old (metadata.renamedFrom)` and the like, for a difference at another address. */
export function renameText(d: ObjectDifference): string {
  if (d.previousAddress === undefined) return '';
  const why =
    d.renamedBy === 'uuid'
      ? 'the same metadata.uuid'
      : d.renamedBy === 'parent'
        ? 'its parent renamed'
        : 'metadata.renamedFrom';
  return `renamed from ${safeText(d.previousAddress)} (${why})`;
}

export const TYPE_WORDS: Record<DifferenceType, string> = {
  added: 'added',
  removed: 'removed',
  renamed: 'renamed',
  changed: 'changed',
};

function plural(n: number, word: string): string {
  return `${countText(n)} ${word}${n === 1 ? '' : 's'}`;
}
