/**
 * Baselines (docs/baselines.md): named standards that select documents and give them values,
 * merged into each document before its objects are made, so that everything after the load
 * (planner, policies, capacity, export comparisons) sees effective values at the lines that
 * wrote them. The loader calls them through documents.ts and load.ts; the rest asks
 * `LoadResult.baselines` and these functions.
 */
export { BaselineCodes, type DocumentResolution } from './baseline-set.js';
export { explain, type Explanation, type ExplainedField, type ExplainedObject } from './explain.js';
export type { Baseline } from './merge.js';
export { type PathStep } from './path.js';
export { fieldSource, type FieldSource } from './sources.js';
export {
  ancestryOf,
  baselineDocument,
  baselineDocumentKind,
  declaredDifferences,
  documentSelected,
  selectorFromArguments,
} from './adopt.js';
export { proposeValues, type ProposeOptions } from './propose.js';
export { reduceSpec, type Reduction } from './reduce.js';
export { rewriteFile } from './rewrite.js';
export { baselineScope } from './scope.js';
