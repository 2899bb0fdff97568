import { canonicalJson } from '../../core/canonical-json.js';
import type { Json } from '../build-context.js';
import { fieldsOf } from '../kind-plans.js';
import { pointer } from '../normalize.js';
import type { NodePath } from '../positions.js';
import type { Reporter } from '../reporter.js';
import { fieldName, type SchemaIssue } from '../schema-errors.js';
import type { DesiredObject, JsonValue } from '../types.js';
import { BaselineCodes, type BaselineSet } from './baseline-set.js';
import { isItem, Merger, type Contribution, type MergeFinding, type OverrideEntry } from './merge.js';
import { formatPath, parsePath } from './path.js';
import type { Place } from './places.js';
import { selects } from './selector.js';

/** A document merged with its baselines: what documents.ts validates and builds instead of the document. */
export interface Resolved {
  /** The effective document: the document with its spec merged. */
  document: Json;
  spec: Json;
  /** Reports the schema's findings on the effective document where their nodes were written. */
  report(issues: readonly SchemaIssue[]): void;
  /** Points the objects built from the effective spec at the lines that wrote them, and records the resolution. */
  finish(objects: readonly DesiredObject[]): void;
}

/** Where a document is. */
export interface ResolveSource {
  file: string;
  doc: number;
}

/**
 * Merges a document the baselines may select (`BaselineSet.takes`) with those that select it.
 * Undefined when nothing applies (the document is built as written); `invalid` when the merge
 * found an error (a difference without an override, two baselines setting one value, an
 * override that cannot apply), which it reported.
 */
export function resolveDocument(
  set: BaselineSet,
  source: ResolveSource,
  value: Json,
  reporter: Reporter,
): Resolved | 'invalid' | undefined {
  const metadata = value['metadata'];
  if (!isItem(metadata)) return undefined;
  let facts: SelectionInput | undefined;
  const selection = (): SelectionInput => (facts ??= selectionInput(set, metadata));
  if (set.recordSelections) recordSelection(set, selection());
  if (set.baselines.length === 0 && metadata['overrides'] === undefined) return undefined;
  const noun = set.target.manifest.noun;
  const at = (path: NodePath, key = false) => ({ file: source.file, doc: source.doc, path, key });
  const overrides = overridesOf(metadata, reporter, at);
  const { address, labels, ancestors } = selection();
  const selected = set.baselines.filter((b) => selects(b.selector, ancestors, labels));
  const spec = isItem(value['spec']) ? value['spec'] : value['spec'] === undefined ? {} : undefined;
  if (selected.length === 0 || spec === undefined) {
    for (const o of overrides === 'invalid' ? [] : overrides.values()) {
      reporter.warning(
        BaselineCodes.staleOverride,
        `stale override: no baseline selects this ${noun}, so ${o.path} differs from none; remove the override`,
        at(['metadata', 'overrides', o.index]),
      );
    }
    return overrides === 'invalid' ? 'invalid' : undefined;
  }
  const table = overrides === 'invalid' ? new Map<string, OverrideEntry>() : overrides;
  const merger = new Merger(set.provenance, table);
  const contributions: Contribution[] = selected.map((b) => ({ baseline: b, item: b.values }));
  const merged = merger.item(set.targetPlan, spec, contributions, 'spec', ['spec']);
  let ok = overrides !== 'invalid';
  for (const finding of merger.findings) ok = reportFinding(set, finding, source, address, noun, reporter) && ok;
  for (const o of table.values()) {
    if (o.used) continue;
    const why =
      o.equalTo !== undefined
        ? `${o.path} is what baseline ${o.equalTo} sets: it no longer differs`
        : `no baseline that selects this ${noun} sets ${o.path}`;
    reporter.warning(
      BaselineCodes.staleOverride,
      `stale override: ${why}; remove the override`,
      at(['metadata', 'overrides', o.index]),
    );
  }
  if (!ok) return 'invalid';
  const document: Json = { ...value, spec: merged };
  const root: Place = { file: source.file, doc: source.doc, path: [] };
  return {
    document,
    spec: merged,
    report(issues) {
      for (const issue of issues) {
        const place = set.provenance.placeAt(document, root, issue.path);
        const where = { ...place, ...(issue.key ? { key: true } : {}) };
        if (place.file === source.file && place.doc === source.doc) reporter.error(issue.code, issue.message, where);
        else {
          // Said in the baseline's terms: its own index of an item, not the merged document's.
          const message = issue.message.replace(`"${fieldName(issue.path)}"`, `"${fieldName(place.path)}"`);
          set.sharedDiagnostic({ severity: 'error', code: issue.code, id: message, message }, where, address);
        }
      }
    },
    finish(objects) {
      const sensitive = selected.some((b) => b.sensitive.size > 0);
      for (const object of objects) placeObject(set, object, document, root, sensitive);
      set.resolutions.set(address, {
        address,
        file: source.file,
        doc: source.doc,
        baselines: selected.map((b) => b.name),
        overrides: merger.applied,
      });
    },
  };
}

/** What selecting a document depends on, and its address. */
interface SelectionInput {
  address: string;
  labels: Json | undefined;
  ancestors: Map<string, string>;
}

function selectionInput(set: BaselineSet, metadata: Json): SelectionInput {
  return {
    address: set.target.address(undefined, set.target.identity(fieldsOf(set.targetPlan, {}, undefined, metadata))),
    labels: isItem(metadata['labels']) ? metadata['labels'] : undefined,
    ancestors: set.ancestorsOf(metadata),
  };
}

function recordSelection(set: BaselineSet, { address, labels, ancestors }: SelectionInput): void {
  set.selections.set(address, {
    ...(labels ? { labels: labels as Record<string, string> } : {}),
    ancestors: Object.fromEntries(ancestors),
  });
}

/** The document's overrides by their path (written canonically), or `invalid` after reporting why. */
function overridesOf(
  metadata: Json,
  reporter: Reporter,
  at: (path: NodePath, key?: boolean) => { file: string; doc: number; path: NodePath },
): Map<string, OverrideEntry> | 'invalid' {
  const table = new Map<string, OverrideEntry>();
  const list = metadata['overrides'];
  if (!Array.isArray(list)) return table;
  let ok = true;
  list.forEach((entry, index) => {
    if (!isItem(entry) || typeof entry['path'] !== 'string' || typeof entry['reason'] !== 'string') return;
    const parsed = parsePath(entry['path']);
    const where = at(['metadata', 'overrides', index, 'path']);
    if ('problem' in parsed) {
      reporter.error(BaselineCodes.invalid, `not a path: ${parsed.problem}`, where);
      ok = false;
      return;
    }
    const path = formatPath(parsed.steps);
    const known = table.get(path);
    if (known) {
      reporter.error(BaselineCodes.invalid, `${path} is overridden twice (first at overrides[${known.index}])`, where);
      ok = false;
      return;
    }
    table.set(path, { index, path, reason: entry['reason'], remove: entry['remove'] === true, used: false });
  });
  return ok ? table : 'invalid';
}

function reportFinding(
  set: BaselineSet,
  finding: MergeFinding,
  source: ResolveSource,
  address: string,
  noun: string,
  reporter: Reporter,
): boolean {
  const here = (path: NodePath) => ({ file: source.file, doc: source.doc, path });
  const position = (place: Place) => {
    const p = reporter.resolve(place);
    return `${p.file}:${p.line}:${p.column}`;
  };
  switch (finding.type) {
    case 'missing':
      reporter.error(
        BaselineCodes.overrideMissing,
        `${finding.path} is ${shown(finding.value)} here, but baseline ${finding.baseline.name} sets ${shown(finding.baselineValue)} ` +
          `(${position(finding.baselinePlace)}): declare the difference in metadata.overrides ` +
          `(- { path: ${finding.path}, reason: … }), or leave the value to the baseline`,
        here(finding.at),
      );
      return false;
    case 'remove-declared':
      reporter.error(
        BaselineCodes.invalid,
        `the override of ${finding.path} (metadata.overrides[${finding.entry.index}]) removes the baseline's value, ` +
          `but this ${noun} declares one: leave the value out, or drop remove: true to replace the baseline's`,
        here(finding.at),
      );
      return false;
    case 'conflict': {
      const [a, b] = finding.places;
      const first = finding.first.baseline.name;
      const second = finding.second.baseline.name;
      const who =
        first === second ? `baseline ${first} sets` : `baselines ${first} (${position(a)}) and ${second} both set`;
      const twice = first === second ? ` twice (${position(a)} and here)` : '';
      set.sharedDiagnostic(
        {
          severity: 'error',
          code: BaselineCodes.conflict,
          id: `${position(a)}`,
          message:
            `${who} ${finding.path}${twice}: a value of a ${noun} has one baseline; ` +
            'narrow a selector or a select, or keep the value in one baseline',
        },
        b,
        address,
      );
      return false;
    }
  }
}

/** A value as messages show it (one line of JSON, cut). */
function shown(value: JsonValue): string {
  const text = canonicalJson(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/**
 * An object built from an effective spec: its origin becomes the line that wrote its item (a
 * baseline's, for an item a baseline gave), a field a baseline gave inside the document's own
 * item gets that line too, and a baseline's `${VAR}` values count as sensitive.
 */
function placeObject(set: BaselineSet, object: DesiredObject, document: Json, root: Place, sensitive: boolean): void {
  const origin = object.origin;
  if (origin.type !== 'yaml' || origin.file !== root.file || origin.doc !== root.doc) return;
  const isDocument = origin.document !== undefined;
  const nodePath = isDocument ? ['spec'] : origin.path;
  const node = nodeAt(document, nodePath);
  if (!isDocument) {
    const place = set.provenance.placeAt(document, root, origin.path);
    if (place.file !== root.file || place.doc !== root.doc)
      object.origin = { type: 'yaml', file: place.file, doc: place.doc, path: place.path };
  }
  const keys = node === undefined ? undefined : set.provenance.merged.get(node)?.keys;
  if (keys) {
    const origins: Record<string, Extract<DesiredObject['origin'], { type: 'yaml' }>> = {};
    for (const field of Object.keys(object.fields)) {
      const place = keys.get(field);
      if (place) origins[field] = { type: 'yaml', file: place.file, doc: place.doc, path: place.path };
    }
    if (Object.keys(origins).length > 0) object.fieldOrigins = origins;
  }
  if (sensitive) addSensitive(set, object);
}

/** Fields whose value came from a baseline's `${VAR}`. */
function addSensitive(set: BaselineSet, object: DesiredObject): void {
  const found = new Set(object.sensitiveFields);
  for (const field of Object.keys(object.fields)) {
    const origin = object.fieldOrigins?.[field] ?? object.origin;
    if (origin.type !== 'yaml') continue;
    const baseline = set.atPlace(origin.file, origin.doc);
    if (!baseline || baseline.sensitive.size === 0) continue;
    const own = pointer(object.fieldOrigins?.[field] ? origin.path : [...origin.path, field]);
    for (const p of baseline.sensitive) if (p === own || p.startsWith(`${own}/`)) found.add(field);
  }
  if (found.size > object.sensitiveFields.length) object.sensitiveFields = [...found];
}

function nodeAt(root: unknown, path: NodePath): object | undefined {
  let node: unknown = root;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  return node !== null && typeof node === 'object' ? node : undefined;
}
