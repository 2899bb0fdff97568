import { kindOf, hasKind } from '../../kinds/index.js';
import type { DesiredSet } from '../desired-set.js';
import type { DesiredObject, JsonValue, SourcePosition } from '../types.js';
import type { BaselineSet } from './baseline-set.js';
import type { AppliedOverride } from './merge.js';
import { itemPath } from './path.js';

/**
 * Where each value of an object comes from: the document that declares the object, a
 * baseline that gave it, or the document's override of a baseline (with its reason). What
 * `explain` prints and plans carry for each changed field.
 */
export interface FieldSource {
  from: 'document' | 'baseline' | 'override';
  /** The field's path (docs/baselines.md), as overrides write it. */
  path: string;
  /** The line that wrote the value. */
  position?: SourcePosition;
  /** The baseline that gave the value, or that the override differs from. */
  baseline?: string;
  /** The override's reason. */
  reason?: string;
  /** What the baseline sets, for an override. */
  baselineValue?: JsonValue;
}

const overridesByPath = new WeakMap<readonly AppliedOverride[], Map<string, AppliedOverride>>();

/** The path of an object (`spec.subscriptions[main].templates[TPL-STD]`; `spec` for a document's own). */
export function objectPath(set: DesiredSet, object: DesiredObject): string {
  const steps: string[] = [];
  for (let at: DesiredObject | undefined = object; at && at.address !== at.documentAddress;) {
    if (!hasKind(at.kind)) break;
    const kind = kindOf(at.kind);
    steps.unshift(itemPath(kind.collection ?? '', kind.identity(at.fields)));
    at = at.parentAddress === undefined ? undefined : set.get(at.parentAddress);
  }
  return ['spec', ...steps].join('.');
}

/** The path of a field of an object (a document's metadata fields are under `metadata`). */
function fieldPathOf(set: DesiredSet, object: DesiredObject, field: string): string {
  const origin = object.origin;
  if (origin.type === 'yaml' && origin.document?.metadataFields.includes(field)) return `metadata.${field}`;
  return `${objectPath(set, object)}.${field}`;
}

/** The baseline an object as a whole comes from (an item only a baseline declares), if any. */
export function objectBaseline(baselines: BaselineSet | undefined, object: DesiredObject): string | undefined {
  if (!baselines || object.origin.type !== 'yaml') return undefined;
  return baselines.atPlace(object.origin.file, object.origin.doc)?.name;
}

/** Where one field's value comes from. */
export function fieldSource(
  set: DesiredSet,
  baselines: BaselineSet | undefined,
  object: DesiredObject,
  field: string,
): FieldSource {
  const path = fieldPathOf(set, object, field);
  const position = set.sourceOf(object, field);
  const at = position ? { position } : {};
  const origin = object.fieldOrigins?.[field] ?? object.origin;
  const baseline = origin.type === 'yaml' ? baselines?.atPlace(origin.file, origin.doc) : undefined;
  if (baseline) return { from: 'baseline', path, ...at, baseline: baseline.name };
  const override = overrideAt(baselines, object.documentAddress, path);
  if (override && !override.remove) {
    return {
      from: 'override',
      path,
      ...at,
      baseline: override.baseline,
      reason: override.reason,
      ...(override.baselineValue !== undefined ? { baselineValue: override.baselineValue } : {}),
    };
  }
  return { from: 'document', path, ...at };
}

/** The override of a document at a path, if one applies. */
function overrideAt(
  baselines: BaselineSet | undefined,
  documentAddress: string,
  path: string,
): AppliedOverride | undefined {
  const overrides = baselines?.resolutions.get(documentAddress)?.overrides;
  if (!overrides || overrides.length === 0) return undefined;
  let byPath = overridesByPath.get(overrides);
  if (!byPath) {
    byPath = new Map(overrides.map((o) => [o.path, o]));
    overridesByPath.set(overrides, byPath);
  }
  return byPath.get(path);
}
