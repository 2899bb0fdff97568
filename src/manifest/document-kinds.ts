import { kinds } from '../kinds/index.js';
import { baselineKind } from '../kinds/baseline.js';
import { policyKind } from '../kinds/policy.js';
import { routingTableKind } from '../kinds/routing-table.js';
import { routingTestKind } from '../kinds/routing-test.js';
import { changeWindowKind } from '../kinds/change-window.js';

/**
 * The document kinds a manifest may hold (docs/manifests.md) and their schemas: the kind table's
 * kinds with a `manifest.document` column, in the table's order, then the routing engine's
 * tables, then the policies, the baselines, the routing tests and the change windows. Which builder reads each one is documents.ts's business.
 */
export const SCHEMA_FILES: Readonly<Record<string, string>> = Object.fromEntries([
  ...kinds.flatMap((kind) => (kind.manifest.document ? [[kind.kind, kind.manifest.document.schema] as const] : [])),
  [routingTableKind.kind, routingTableKind.schema] as const,
  [policyKind.kind, policyKind.schema] as const,
  [baselineKind.kind, baselineKind.schema] as const,
  [routingTestKind.kind, routingTestKind.schema] as const,
  [changeWindowKind.kind, changeWindowKind.schema] as const,
]);

/**
 * The document kinds, for `kind:` (`Group`, `Reseller`, `Tenant`, `RoutingTable`, `Policy`, `Baseline`,
 * `RoutingTest`, `ChangeWindow`).
 */
export const MANIFEST_KINDS: readonly string[] = Object.keys(SCHEMA_FILES);
