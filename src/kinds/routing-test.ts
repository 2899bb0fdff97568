/**
 * RoutingTest documents: test vectors over a routing-engine table (docs/assurance.md
 * "Routing assertions"), checked against the declared rows by `validate` and `plan`, and
 * against the live engine by `verify` and `apply --verify`. Nothing is read, planned or
 * written for the document itself; its kind is a name like every other kind's, so it lives here.
 */
export const routingTestKind = {
  /** The document kind. */
  kind: 'RoutingTest',
  /** The document's schema in `schemas/`. */
  schema: 'routing-test.schema.json',
  /** `routing-test/<name>`: the document's address (the manifests' digest, diagnostics, the journal). */
  address: (name: string): string => `routing-test/${name}`,
} as const;
