/**
 * The routing engine's tables (Document 3) as manifests declare them: a `RoutingTable`
 * document whose records become `RoutingRow` objects. They are not platform kinds (the
 * routing side reads, plans and writes them, and the manifest loader keeps their rows
 * compact), but their names live here, with every other kind's.
 */
export const routingTableKind = {
  /** The document kind and the kind of its table object. */
  kind: 'RoutingTable',
  /** The kind of one record of a table. */
  rowKind: 'RoutingRow',
  /** The document's schema in `schemas/`. */
  schema: 'routing-table.schema.json',
  /** The first segment of every table and row address. */
  addressWord: 'routing',
  /** `routing/<service>/<version>/<table>`; a row's address adds `/<key>=<value>,…`. */
  address: (service: string, version: string, name: string): string => `routing/${service}/${version}/${name}`,
} as const;
