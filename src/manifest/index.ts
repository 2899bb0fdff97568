/**
 * The manifest language: load YAML manifests (files and folders) into a flat, typed set
 * of desired objects with their docs/plans.md addresses, or diagnostics with file:line:col.
 * See docs/manifests.md, and docs/development.md "The manifest loader's API".
 */
export { loadManifests, type LoadOptions, type LoadResult } from './load.js';
export { ManifestCache, type CacheReport } from './cache/index.js';
export { DesiredSet } from './desired-set.js';
export { schemaSet, SCHEMAS_DIR, SCHEMA_FILES } from './schemas.js';
export { rowAddress, rowIndexAt } from './build-routing.js';
export * from './types.js';
export * from './policy-types.js';
export * from './assurance-types.js';
export {
  answerText,
  declaredRow,
  liveIndex,
  liveRow,
  probeKeys,
  sameAnswer,
  sensitiveColumns,
  verdict,
  type Answer,
} from './vector-lookup.js';
export type { DocumentRecord, RecordedObject } from './document-records.js';
export type { FileSource } from './files.js';
export * from './baselines/index.js';
