import type { SourcePosition } from '../core/errors.js';
import { BaselineCodes, fieldSource, type DesiredObject, type LoadResult } from '../manifest/index.js';
import { fieldLines } from '../plan/render-common.js';
import type { Change, FieldOrigin, Plan, PlanBaseline, PlanMessage } from '../plan/types.js';

/**
 * What a plan says of baselines (docs/baselines.md): each change a baseline has a part in (a
 * changed field's value comes from a baseline, or from a document's override of one) carries
 * where each of its changed fields' values comes from, and the plan lists the baselines with the
 * overrides of the documents they select, so that the renderers can say which baseline
 * caused a change and which documents keep their own value. Absent without baselines.
 */
export function withBaselines(
  plan: Plan,
  loaded: Pick<LoadResult, 'set' | 'baselines' | 'diagnostics'>,
  edited: readonly string[] = [],
): Plan {
  const baselines = loaded.baselines;
  const stale = staleOverrides(loaded);
  const warnings = stale.length > 0 ? { warnings: [...plan.warnings, ...stale] } : {};
  if (!baselines) return { ...plan, ...warnings };
  const changes = plan.changes.map((change) => {
    const object = loaded.set.get(change.address);
    if (!object || !baselines.resolutions.has(object.documentAddress)) return change;
    const sources = changedFieldSources(loaded, object, change);
    return sources ? withFieldSources(change, sources) : change;
  });
  const editedSet = new Set(edited);
  const reported: PlanBaseline[] = baselines.baselines.map((baseline) => {
    const selected = baselines.selectedBy(baseline.name);
    const overrides = selected.flatMap((document) => {
      const resolution = baselines.resolutions.get(document);
      if (!resolution) return [];
      return resolution.overrides
        .filter((o) => o.baseline === baseline.name)
        .map((o) => ({
          document,
          path: o.path,
          reason: o.reason,
          ...(o.remove ? { remove: true } : {}),
          source: at(
            baselines.position({
              file: resolution.file,
              doc: resolution.doc,
              path: ['metadata', 'overrides', o.entry],
            }),
          ),
          // A field's position is its key's, as the changes' field sources give it; an item's is the item's.
          baselineSource: at(baselines.position({ ...o.baselinePlace, key: o.baselineValue !== undefined })),
        }));
    });
    return {
      name: baseline.name,
      source: at(baselines.positionOf(baseline)),
      selector: baselines.selectorOf(baseline.name),
      documentKind: baselines.target.kind,
      documents: selected.length,
      ...(editedSet.has(baseline.address) ? { edited: true } : {}),
      overrides,
    };
  });
  return { ...plan, changes, baselines: reported, ...warnings };
}

/**
 * The load's stale overrides (an override that no longer differs from any baseline) as plan
 * warnings: a reviewer of the plan sees them where they see the plan, not only in `validate`.
 */
function staleOverrides(loaded: Pick<LoadResult, 'diagnostics'>): PlanMessage[] {
  return loaded.diagnostics
    .filter((d) => d.code === BaselineCodes.staleOverride)
    .map((d) => ({ code: d.code, message: d.message, ...(d.source ? { source: at(d.source) } : {}) }));
}

function changedFieldSources(
  loaded: Pick<LoadResult, 'set' | 'baselines'>,
  object: DesiredObject,
  change: Change,
): Record<string, FieldOrigin> | undefined {
  const names = fieldLines(change)
    .filter((line) => line.type !== 'remove')
    .map((line) => line.field)
    .filter((name) => Object.hasOwn(object.fields, name));
  if (names.length === 0) return undefined;
  const out: Record<string, FieldOrigin> = {};
  let fromBaselines = false;
  for (const name of names) {
    const { from, path, position, baseline, reason } = fieldSource(loaded.set, loaded.baselines, object, name);
    out[name] = {
      from,
      path,
      ...(position ? { source: at(position) } : {}),
      ...(baseline !== undefined ? { baseline } : {}),
      ...(reason !== undefined ? { reason } : {}),
    };
    if (from !== 'document') fromBaselines = true;
  }
  // A change of the document's own values only: its `source` says where they are.
  return fromBaselines ? out : undefined;
}

/** The change with its field sources, keeping its lazily computed `source`. */
function withFieldSources(change: Change, fieldSources: Record<string, FieldOrigin>): Change {
  const copy = Object.create(Object.getPrototypeOf(change) as object) as Change;
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(change));
  copy.fieldSources = fieldSources;
  return copy;
}

function at(p: SourcePosition): string {
  return `${p.file}:${p.line}:${p.column}`;
}
