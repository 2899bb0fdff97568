import type { DesiredObject, DesiredSet } from '../manifest/index.js';
import { allFields, comparedFields, fieldDifferences } from './fields.js';
import { FieldFilter } from './ignore.js';
import { objectsOf, type LoadedTree } from './load.js';
import { matchObjects } from './match.js';
import {
  COMPARISON_FORMAT_VERSION,
  DIFFERENCE_TYPES,
  type Comparison,
  type DifferenceType,
  type ObjectDifference,
  type TreeSummary,
} from './types.js';

export interface CompareOptions {
  /** `--ignore` patterns (ignore.ts). */
  ignore?: readonly string[];
}

/**
 * Compares two loaded manifest trees by address: objects in B only (added), in A only
 * (removed), and in both with the fields that differ (changed; renamed when B has it under
 * another address, match.ts). Pure: no file, no network, no environment.
 */
export function compareTrees(a: LoadedTree, b: LoadedTree, options: CompareOptions = {}): Comparison {
  const filter = new FieldFilter(options.ignore ?? []);
  const aObjects = [...objectsOf(a.set)];
  const bObjects = [...objectsOf(b.set)];
  const { pairs, added, removed } = matchObjects(aObjects, bObjects);
  const differences: ObjectDifference[] = [];
  let same = 0;
  for (const { a: before, b: after, renamedBy } of pairs) {
    const all = fieldDifferences(comparedFields(before, a.set), comparedFields(after, b.set));
    // An object that only moved with its renamed parent is the same object: its parent's rename says it all.
    const renamed = renamedBy !== undefined && renamedBy !== 'parent';
    const fields = filter.keep(after.address, after.kind, all, !renamed);
    if (!renamed && fields.length === 0) {
      same += 1;
      continue;
    }
    differences.push({
      type: renamed ? 'renamed' : 'changed',
      address: after.address,
      kind: after.kind,
      ...(renamedBy === undefined ? {} : { previousAddress: before.address, renamedBy }),
      fields,
      ...sources(before, a.set, after, b.set),
    });
  }
  for (const o of added) differences.push(oneSided('added', o, b.set, filter));
  for (const o of removed) differences.push(oneSided('removed', o, a.set, filter));
  differences.sort((x, y) => compareText(x.address, y.address) || compareText(x.type, y.type));
  const summary = { ...countTypes(differences), same };
  return {
    formatVersion: COMPARISON_FORMAT_VERSION,
    a: treeSummary(a, aObjects.length),
    b: treeSummary(b, bObjects.length),
    summary,
    differences,
    ignored: filter.report(),
  };
}

function oneSided(
  type: 'added' | 'removed',
  object: DesiredObject,
  set: DesiredSet,
  filter: FieldFilter,
): ObjectDifference {
  const fields = allFields(comparedFields(object, set), type === 'added' ? 'after' : 'before');
  const source = set.sourceOf(object);
  const at = source ? `${source.file}:${source.line}:${source.column}` : undefined;
  return {
    type,
    address: object.address,
    kind: object.kind,
    fields: filter.keep(object.address, object.kind, fields, false),
    ...(at ? (type === 'added' ? { sourceB: at } : { sourceA: at }) : {}),
  };
}

function sources(
  a: DesiredObject,
  aSet: DesiredSet,
  b: DesiredObject,
  bSet: DesiredSet,
): Pick<ObjectDifference, 'sourceA' | 'sourceB'> {
  const at = (set: DesiredSet, o: DesiredObject) => {
    const s = set.sourceOf(o);
    return s ? `${s.file}:${s.line}:${s.column}` : undefined;
  };
  const sourceA = at(aSet, a);
  const sourceB = at(bSet, b);
  return { ...(sourceA ? { sourceA } : {}), ...(sourceB ? { sourceB } : {}) };
}

function countTypes(differences: readonly ObjectDifference[]): Record<DifferenceType, number> {
  const counts = Object.fromEntries(DIFFERENCE_TYPES.map((t) => [t, 0])) as Record<DifferenceType, number>;
  for (const d of differences) counts[d.type] += 1;
  return counts;
}

function treeSummary(tree: LoadedTree, objects: number): TreeSummary {
  return { paths: tree.paths, files: tree.files.length, objects, digest: tree.digest };
}

/** Code-point order: the same everywhere, whatever the locale. */
function compareText(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
