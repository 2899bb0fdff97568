/**
 * Checking the plan file's records of baselines (docs/baselines.md): each change's
 * `fieldSources` and the plan's `baselines` with their overrides. They say where values come
 * from and are not part of what apply sends, but a reader shows them, so their shape is
 * checked like the rest. Part of plan-validate.ts.
 */
import type { Json, Problems } from './plan-problems.js';

const ORIGINS = ['document', 'baseline', 'override'];

/** A change's `fieldSources`: one origin per changed field. */
export function checkFieldSources(change: Json, at: string, p: Problems): void {
  const sources = change['fieldSources'];
  if (sources === undefined || !p.object(sources, `${at}.fieldSources`)) return;
  for (const [field, origin] of Object.entries(sources)) {
    const where = `${at}.fieldSources.${field}`;
    if (!p.object(origin, where)) continue;
    p.oneOf(origin['from'], ORIGINS, `${where}.from`);
    p.string(origin['path'], `${where}.path`);
    for (const key of ['source', 'baseline', 'reason']) p.optionalString(origin[key], `${where}.${key}`);
    if (origin['from'] === 'override' && origin['reason'] === undefined) p.add(`${where}.reason is missing`);
    if (origin['from'] !== 'document' && origin['baseline'] === undefined) p.add(`${where}.baseline is missing`);
  }
}

/** The plan's `baselines`, each with the overrides of the documents it selects. */
export function checkBaselines(plan: Json, p: Problems): void {
  const baselines = plan['baselines'];
  if (baselines === undefined || !p.array(baselines, 'baselines')) return;
  baselines.forEach((baseline, i) => {
    const at = `baselines[${i}]`;
    if (!p.object(baseline, at)) return;
    for (const key of ['name', 'source', 'selector', 'documentKind']) p.string(baseline[key], `${at}.${key}`);
    p.count(baseline['documents'], `${at}.documents`);
    if (baseline['edited'] !== undefined) p.exactly(baseline['edited'], true, `${at}.edited`);
    const overrides = baseline['overrides'];
    if (!p.array(overrides, `${at}.overrides`)) return;
    overrides.forEach((override, j) => {
      const where = `${at}.overrides[${j}]`;
      if (!p.object(override, where)) return;
      for (const key of ['document', 'path', 'reason', 'source', 'baselineSource'])
        p.string(override[key], `${where}.${key}`);
      if (override['remove'] !== undefined) p.exactly(override['remove'], true, `${where}.remove`);
    });
  });
}
