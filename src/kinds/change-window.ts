/**
 * ChangeWindow documents: when the objects of a scope may change (docs/assurance.md
 * "Change windows"), enforced by `apply`. Nothing is read, planned or written for the
 * document itself; its kind is a name like every other kind's, so it lives here.
 */
export const changeWindowKind = {
  /** The document kind. */
  kind: 'ChangeWindow',
  /** The document's schema in `schemas/`. */
  schema: 'change-window.schema.json',
  /** `change-window/<name>`: the document's address (the manifests' digest, diagnostics). */
  address: (name: string): string => `change-window/${name}`,
} as const;
