/**
 * Policy documents: plan-time rules reviewed in git (docs/policies.md). A policy is no
 * resource of the platform or the routing engine (nothing is read, planned or written for
 * it), but its document kind is a name like every other kind's, so it lives here.
 */
export const policyKind = {
  /** The document kind. */
  kind: 'Policy',
  /** The document's schema in `schemas/`. */
  schema: 'policy.schema.json',
  /** `policy/<name>`: the document's address (the manifests' digest, diagnostics). */
  address: (name: string): string => `policy/${name}`,
} as const;
