import type { DesiredSet } from '../desired-set.js';
import type { DesiredObject, JsonValue, SourcePosition } from '../types.js';
import type { BaselineSet } from './baseline-set.js';
import { fieldSource, objectBaseline, objectPath, type FieldSource } from './sources.js';

/**
 * `switchboard explain ADDRESS`: an object's effective desired state (and its subtree's),
 * each field with the line that wrote its value, the baselines that select its document and
 * the overrides that document declares, with their reasons. Plain data: the command renders it.
 */
export interface Explanation {
  /** The document the object belongs to (`tenant/acme-corp`). */
  document: string;
  /** The baselines that select the document, in the order they apply. */
  baselines: { name: string; position: SourcePosition; selector: string }[];
  /** Where the document differs from its baselines, and why. */
  overrides: ExplainedOverride[];
  /** The object and every object below it, parents first. */
  objects: ExplainedObject[];
}

export interface ExplainedOverride {
  path: string;
  reason: string;
  baseline: string;
  /** The baseline's value or item is left out. */
  remove: boolean;
  baselineValue?: JsonValue;
  value?: JsonValue;
  /** The override in the document's metadata. */
  position: SourcePosition;
}

export interface ExplainedObject {
  address: string;
  kind: string;
  path: string;
  position?: SourcePosition;
  /** The baseline that declares the object as a whole (the document does not). */
  baseline?: string;
  fields: ExplainedField[];
}

export interface ExplainedField extends FieldSource {
  name: string;
  value: JsonValue;
  /** Its value came from `${VAR}`: never shown. */
  sensitive: boolean;
}

/** The explanation of the object at `address` (as its manifest writes it), or undefined when none is declared there. */
export function explain(set: DesiredSet, baselines: BaselineSet | undefined, address: string): Explanation | undefined {
  const object = set.get(address);
  if (!object) return undefined;
  const objects = [object, ...descendants(set, address)];
  const resolution = baselines?.resolutions.get(object.documentAddress);
  return {
    document: object.documentAddress,
    baselines: (resolution?.baselines ?? []).flatMap((name) => {
      const baseline = baselines?.get(name);
      return baseline && baselines
        ? [{ name, position: baselines.positionOf(baseline), selector: baselines.selectorOf(name) }]
        : [];
    }),
    overrides: (resolution?.overrides ?? []).map((o) => ({
      path: o.path,
      reason: o.reason,
      baseline: o.baseline,
      remove: o.remove,
      ...(o.baselineValue !== undefined ? { baselineValue: o.baselineValue } : {}),
      ...(o.value !== undefined ? { value: o.value } : {}),
      position: (baselines as BaselineSet).position({
        file: resolution?.file ?? '',
        doc: resolution?.doc ?? 0,
        path: ['metadata', 'overrides', o.entry],
      }),
    })),
    objects: objects.map((o) => {
      const position = set.sourceOf(o);
      const baseline = objectBaseline(baselines, o);
      return {
        address: o.address,
        kind: o.kind,
        path: objectPath(set, o),
        ...(position ? { position } : {}),
        ...(baseline ? { baseline } : {}),
        fields: Object.entries(o.fields).map(([name, value]) => ({
          name,
          value,
          sensitive: o.sensitiveFields.includes(name),
          ...fieldSource(set, baselines, o, name),
        })),
      };
    }),
  };
}

/** The objects below an address, depth first, in the order the manifests declare them. */
function descendants(set: DesiredSet, address: string): DesiredObject[] {
  const out: DesiredObject[] = [];
  for (const child of set.children(address)) out.push(child, ...descendants(set, child.address));
  return out;
}
