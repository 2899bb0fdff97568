/**
 * Baseline documents (docs/baselines.md): a named standard that selects documents of the
 * kind whose document form takes baselines (`DocumentForm.baselines`) and gives them values.
 * A baseline is no resource of the platform (nothing is read, planned or written for it): its
 * values become the selected documents' own, before their objects are made. Its document
 * kind is a name like every other kind's, so it lives here.
 */
export const baselineKind = {
  /** The document kind. */
  kind: 'Baseline',
  /** The document's schema in `schemas/`. */
  schema: 'baseline.schema.json',
  /** `baseline/<name>`: the document's address (the manifests' digest, diagnostics, `--changed-since`). */
  address: (name: string): string => `baseline/${name}`,
} as const;
