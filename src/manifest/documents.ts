import * as path from 'node:path';
import { BuildOutput, type DocContext, type Json } from './build-context.js';
import { buildGroup, buildReseller } from './build-org.js';
import { buildTenant } from './build-tenant.js';
import { addInlineRecords, buildRoutingTable, RowAppender } from './build-routing.js';
import { Codes } from './codes.js';
import { normaliseDocument } from './normalise.js';
import { schemaIssues } from './schema-errors.js';
import { schemaSet } from './schemas.js';
import { didYouMean } from './suggest.js';
import { MANIFEST_KINDS, type DesiredRoutingTable, type ManifestKind } from './types.js';

/** Where a document comes from. */
export interface DocumentSource {
  file: string;
  absolute: string;
  doc: number;
  /** False when the file text has no `*`, so no YAML alias (alias tracking is skipped). */
  mayHaveAliases: boolean;
}

/**
 * Checks one parsed document (envelope, `${VAR}`, schema) and, when it is valid, builds
 * its desired objects. An invalid document contributes diagnostics only, never a partial
 * object: the planner must not see half a tenant.
 */
export function processDocument(
  source: DocumentSource,
  raw: unknown,
  env: Record<string, string | undefined>,
  out: BuildOutput,
  tables: Map<DesiredRoutingTable, RowAppender>,
): void {
  const reporter = out.reporter;
  const at = (p: (string | number)[], extra: { key?: boolean; offsetInString?: number } = {}) => ({
    file: source.file,
    doc: source.doc,
    path: p,
    ...extra,
  });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    reporter.error(Codes.envelope, 'a manifest document is a mapping with apiVersion, kind, metadata and spec', at([]));
    return;
  }
  const kind = (raw as Json)['kind'];
  if (kind === undefined) {
    reporter.error(Codes.required, `missing required field "kind" (one of ${MANIFEST_KINDS.join(', ')})`, at([]));
    return;
  }
  if (typeof kind !== 'string' || !(MANIFEST_KINDS as readonly string[]).includes(kind)) {
    reporter.error(
      Codes.unknownKind,
      `unknown kind "${String(kind)}"; expected one of ${MANIFEST_KINDS.join(', ')}${didYouMean(String(kind), MANIFEST_KINDS)}`,
      at(['kind']),
    );
    return;
  }
  const normalised = normaliseDocument(raw, env, { mayHaveAliases: source.mayHaveAliases });
  for (const issue of normalised.issues)
    reporter.error(issue.code, issue.message, at(issue.path, { offsetInString: issue.offsetInString }));
  if (normalised.value === undefined) return;
  const validate = schemaSet().validators[kind as ManifestKind];
  const valid = validate(normalised.value);
  if (!valid) {
    for (const issue of schemaIssues(validate.errors ?? [], normalised.value))
      reporter.error(issue.code, issue.message, at(issue.path, { key: issue.key }));
  }
  if (!valid || normalised.issues.length > 0) return;
  build(kind as ManifestKind, source, normalised.value as Json, normalised.sensitive, out, tables);
}

function build(
  kind: ManifestKind,
  source: DocumentSource,
  document: Json,
  sensitive: Set<string>,
  out: BuildOutput,
  tables: Map<DesiredRoutingTable, RowAppender>,
): void {
  const metadata = document['metadata'] as Json;
  const spec = (document['spec'] as Json | undefined) ?? {};
  const name = String(metadata['name']);
  const documentAddress =
    kind === 'RoutingTable'
      ? `routing/${String(metadata['service'])}/${String(metadata['version'])}/${name}`
      : `${kind.toLowerCase()}/${name}`;
  out.digest.addDocument(documentAddress, document, sensitive);
  const ctx: DocContext = {
    out,
    file: source.file,
    dir: path.dirname(source.absolute),
    displayDir: path.posix.dirname(source.file),
    doc: source.doc,
    prune: metadata['prune'] === true,
    protect: metadata['protect'] === true,
    documentAddress,
    sensitive,
  };
  switch (kind) {
    case 'Group':
      return buildGroup(ctx, name, spec);
    case 'Reseller':
      return buildReseller(ctx, name, metadata, spec);
    case 'Tenant':
      return buildTenant(ctx, name, metadata, spec);
    case 'RoutingTable': {
      const table = buildRoutingTable(ctx, metadata, spec);
      const appender = new RowAppender(table, out.reporter);
      tables.set(table, appender);
      addInlineRecords(ctx, appender, (spec['records'] as Json[] | undefined) ?? []);
      if (typeof spec['recordsFrom'] === 'string') {
        const file = spec['recordsFrom'];
        out.csvJobs.push({
          type: 'records',
          absolute: path.resolve(ctx.dir, file),
          display: path.posix.normalize(path.posix.join(ctx.displayDir, file.split(path.sep).join('/'))),
          owner: table.table,
          ctx,
          path: ['spec', 'recordsFrom'],
        });
      }
      return;
    }
  }
}
