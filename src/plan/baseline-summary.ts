/**
 * A plan's changes by baseline (docs/baselines.md, "Plans"): what the markdown comment and
 * the HTML report show before the per-object changes. The changes a baseline's values cause
 * are folded into one line per baseline value and new value ("1,240 tenants change
 * `spec.subscriptions[*].templates[TPL-STD].vrp` "vrp-std" → "vrp-std2"; 3 tenants keep
 * their override (acme-corp: contract 2026-114, …)"), and one per item a baseline adds.
 * Pure: plan data in (`fieldSources`, `baselines`), lines out; names no kind.
 */
import { addressPairs } from '../kinds/address-path.js';
import { compact } from './render-common.js';
import type { Change, Plan, PlanBaseline, PlanOverride } from './types.js';
import { countText } from '../core/count-text.js';

/** One folded line of a baseline's part in a plan. */
export interface BaselineLine {
  /** `change`: a value; `create`: items a baseline declares that do not exist live. */
  type: 'change' | 'create';
  /** The field's (or item's) path, with `[*]` where documents differ (`spec.subscriptions[*].templates[TPL-STD].vrp`). */
  path: string;
  /** The values before (one, or how many different ones), and the value after; a change's only. */
  before?: { value: string } | { several: number };
  after?: string;
  /** Documents whose objects change, and the changes. */
  documents: number;
  changes: number;
  /** Documents that keep their own value (an override of this very baseline value), with their reasons. */
  kept: { document: string; reason: string }[];
}

export interface BaselineReport {
  baseline: PlanBaseline;
  lines: BaselineLine[];
  /** Changes of this plan a value of the baseline has a part in. */
  changes: number;
}

interface Group {
  type: BaselineLine['type'];
  source: string;
  paths: string[];
  befores: Set<string>;
  after?: string;
  documents: Set<string>;
  changes: number;
}

/** The plan's baselines, each with its folded lines (most documents first); empty without baselines. */
export function baselineReports(plan: Pick<Plan, 'baselines' | 'changes'>): BaselineReport[] {
  const baselines = plan.baselines ?? [];
  if (baselines.length === 0) return [];
  const groups = new Map<string, Map<string, Group>>();
  const touched = new Map<string, Set<Change>>();
  for (const change of plan.changes) {
    const sources = change.fieldSources;
    if (!sources) continue;
    const document = documentOf(change.address);
    const fromOne = wholeObjectFrom(change);
    if (fromOne) {
      const [baseline, source, path] = fromOne;
      addTo(groups, touched, baseline, change, `create\u0000${source}`, { type: 'create', source, path, document });
      continue;
    }
    for (const [field, origin] of Object.entries(sources)) {
      if (origin.from !== 'baseline' || origin.baseline === undefined) continue;
      const after = compact(change.after?.[field] ?? null);
      const before = change.before && Object.hasOwn(change.before, field) ? compact(change.before[field]) : '(none)';
      const source = origin.source ?? origin.path;
      addTo(groups, touched, origin.baseline, change, `change\u0000${source}\u0000${after}`, {
        type: 'change',
        source,
        path: origin.path,
        document,
        before,
        after,
      });
    }
  }
  return baselines.map((baseline) => {
    const lines = [...(groups.get(baseline.name)?.values() ?? [])].map((g) => lineOf(g, baseline.overrides));
    lines.sort((a, b) => b.documents - a.documents || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { baseline, lines, changes: touched.get(baseline.name)?.size ?? 0 };
  });
}

/** The baselines a change's values come from (`from: baseline`, or an override of one). */
export function changeBaselines(change: Change): { baselines: string[]; overrides: string[] } {
  const baselines = new Set<string>();
  const overrides = new Set<string>();
  for (const origin of Object.values(change.fieldSources ?? {})) {
    if (origin.from === 'baseline' && origin.baseline) baselines.add(origin.baseline);
    if (origin.from === 'override' && origin.reason !== undefined)
      overrides.add(`${origin.baseline ?? ''}: ${origin.reason}`);
  }
  return { baselines: [...baselines], overrides: [...overrides] };
}

/** A create (or replace) whose every field one baseline gives from one item: the baseline, the item's line, its path. */
function wholeObjectFrom(change: Change): [string, string, string] | undefined {
  if (change.action !== 'create' && change.action !== 'replace') return undefined;
  const origins = Object.values(change.fieldSources ?? {});
  const [first] = origins;
  if (!first || first.from !== 'baseline' || first.baseline === undefined) return undefined;
  if (!origins.every((o) => o.from === 'baseline' && o.baseline === first.baseline)) return undefined;
  const path = first.path.slice(0, first.path.lastIndexOf('.'));
  return [first.baseline, change.source ?? path, path];
}

function addTo(
  groups: Map<string, Map<string, Group>>,
  touched: Map<string, Set<Change>>,
  baseline: string,
  change: Change,
  key: string,
  entry: { type: Group['type']; source: string; path: string; document: string; before?: string; after?: string },
): void {
  let byKey = groups.get(baseline);
  if (!byKey) groups.set(baseline, (byKey = new Map()));
  let group = byKey.get(key);
  if (!group) {
    group = { type: entry.type, source: entry.source, paths: [], befores: new Set(), documents: new Set(), changes: 0 };
    if (entry.after !== undefined) group.after = entry.after;
    byKey.set(key, group);
  }
  group.paths.push(entry.path);
  if (entry.before !== undefined) group.befores.add(entry.before);
  group.documents.add(entry.document);
  group.changes += 1;
  let changes = touched.get(baseline);
  if (!changes) touched.set(baseline, (changes = new Set()));
  changes.add(change);
}

function lineOf(group: Group, overrides: readonly PlanOverride[]): BaselineLine {
  const kept = overrides
    .filter((o) => o.baselineSource === group.source)
    .map((o) => ({ document: o.document, reason: o.reason }));
  const line: BaselineLine = {
    type: group.type,
    path: pattern(group.paths),
    documents: group.documents.size,
    changes: group.changes,
    kept,
  };
  if (group.type === 'change') {
    const [only] = group.befores;
    line.before = group.befores.size === 1 && only !== undefined ? { value: only } : { several: group.befores.size };
    if (group.after !== undefined) line.after = group.after;
  }
  return line;
}

/** The paths as one, each step that differs between them written `[*]`. */
function pattern(paths: readonly string[]): string {
  const [first, ...rest] = paths.map(steps);
  if (!first) return '';
  return first
    .map((step, i) => (rest.every((other) => other[i] === step) ? step : step.startsWith('[') ? '[*]' : '*'))
    .join('');
}

/** A path's steps: `.key` and `[identity]` (an identity's `\]` stays inside its step). */
function steps(path: string): string[] {
  return path.match(/\[(?:\\.|[^\]\\])*\]|\.?[^.[]+/g) ?? [path];
}

/** The document an address belongs to (its first `word/identity`). */
export function documentOf(address: string): string {
  const [first] = addressPairs(address);
  return first ? `${first[0]}/${first[1]}` : address;
}

/** How a renderer writes a line's parts: code (a path, a value) and plain text, each escaped its way. */
export interface LineStyle {
  code: (s: string) => string;
  text: (s: string) => string;
  /** Documents named among those that keep their override (the rest is `…`). */
  keptListed: number;
}

/**
 * One folded line in words: "1,240 tenants change `path` `before` → `after`; 3 tenants keep
 * their override (acme-corp: contract 2026-114, …)". The comment and the terminal plan write
 * the same sentence, each with its escaping.
 */
export function lineWords(line: BaselineLine, kind: string | undefined, style: LineStyle): string {
  const who = style.text(documentsText(line.documents, kind));
  const path = style.code(line.path);
  const one = line.documents === 1;
  let words: string;
  if (line.type === 'create') words = `${who} ${one ? 'gets' : 'get'} ${path}`;
  else {
    const before = line.before && 'value' in line.before ? `${style.code(line.before.value)} → ` : '→ ';
    const several = line.before && 'several' in line.before ? ` (from ${line.before.several} different values)` : '';
    words = `${who} ${one ? 'changes' : 'change'} ${path} ${before}${style.code(line.after ?? '')}${several}`;
  }
  if (line.kept.length > 0) {
    const named = line.kept
      .slice(0, style.keptListed)
      .map((k) => `${style.text(k.document.slice(k.document.indexOf('/') + 1))}: ${style.text(k.reason)}`);
    const more = line.kept.length > style.keptListed ? ', …' : '';
    const verb = line.kept.length === 1 ? 'keeps its' : 'keep their';
    words += `; ${style.text(documentsText(line.kept.length, kind))} ${verb} override (${named.join(', ')}${more})`;
  }
  return words;
}

/** `1,240 tenants`: the documents' kind in lower case (`document` when the plan does not say). */
export function documentsText(count: number, kind: string | undefined): string {
  const word = kind ? kind.toLowerCase() : 'document';
  return `${countText(count)} ${word}${count === 1 ? '' : 's'}`;
}
