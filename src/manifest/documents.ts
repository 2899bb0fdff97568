import * as path from 'node:path';
import { baselineKind } from '../kinds/baseline.js';
import { policyKind } from '../kinds/policy.js';
import { routingTableKind } from '../kinds/routing-table.js';
import { baselineDocument } from './baselines/baseline-set.js';
import { resolveDocument, type Resolved } from './baselines/resolve.js';
import { routingTestKind } from '../kinds/routing-test.js';
import { changeWindowKind } from '../kinds/change-window.js';
import { BuildOutput, type DocContext, type DocumentBuilder, type Json } from './build-context.js';
import { policyDocument } from './build-policy.js';
import { changeWindowDocument } from './build-change-window.js';
import { routingTestDocument } from './build-routing-test.js';
import { routingTableDocument } from './build-routing.js';
import { Codes } from './codes.js';
import { documentDigestInput } from './digest.js';
import { MANIFEST_KINDS } from './document-kinds.js';
import { normalizeDocument } from './normalize.js';
import { schemaIssues } from './schema-errors.js';
import { schemaSet } from './schemas.js';
import { didYouMean } from './suggest.js';
import { platformDocuments } from './walker.js';

let builders: ReadonlyMap<string, DocumentBuilder> | undefined;

/**
 * The builder of each document kind: the kind table's document kinds are walked through the
 * table (walker.ts); the routing side registers its table documents (build-routing.ts), and
 * the policies theirs (build-policy.ts).
 */
function builderOf(kind: string): DocumentBuilder {
  builders ??= new Map([
    ...platformDocuments(),
    [routingTableKind.kind, routingTableDocument],
    [policyKind.kind, policyDocument],
    [baselineKind.kind, baselineDocument],
    [routingTestKind.kind, routingTestDocument],
    [changeWindowKind.kind, changeWindowDocument],
  ]);
  const builder = builders.get(kind);
  if (!builder) throw new Error(`no builder for document kind ${kind}`);
  return builder;
}

/** Where a document comes from. */
export interface DocumentSource {
  file: string;
  absolute: string;
  /** The manifests' root: the files the document names must be inside it (manifest-root.ts). */
  root: string;
  doc: number;
  /** False when the file text has no `*`, so no YAML alias (alias tracking is skipped). */
  mayHaveAliases: boolean;
}

/**
 * Checks one parsed document (envelope, `${VAR}`, schema) and, when it is valid, builds
 * its desired objects. An invalid document contributes diagnostics only, never a partial
 * object: the planner must not see half a tenant. A document baselines may select waits
 * until every file is read (`BaselineSet.flush`), then is merged with its baselines: the
 * effective document is checked and built, at the lines of the files that wrote each value.
 */
export function processDocument(
  source: DocumentSource,
  raw: unknown,
  env: Record<string, string | undefined>,
  out: BuildOutput,
  merge = false,
  /**
   * Set for a document the manifest cache kept as parsed (cache/entry.ts): its JSON text. Its
   * file had no `${` and no alias, so normalising would give it back as it is and its digest
   * input is this text: both are skipped. It is still resolved, checked and built.
   */
  cachedText?: string,
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
  if (typeof kind !== 'string' || !MANIFEST_KINDS.includes(kind)) {
    reporter.error(
      Codes.unknownKind,
      `unknown kind "${String(kind)}"; expected one of ${MANIFEST_KINDS.join(', ')}${didYouMean(String(kind), MANIFEST_KINDS)}`,
      at(['kind']),
    );
    return;
  }
  if (!merge && out.baselines.waits(kind)) {
    out.baselines.defer(() => processDocument(source, raw, env, out, true, cachedText));
    return;
  }
  const normalised =
    cachedText === undefined
      ? normalizeDocument(raw, env, { mayHaveAliases: source.mayHaveAliases })
      : { value: raw, sensitive: NO_SENSITIVE, issues: [] };
  for (const issue of normalised.issues)
    reporter.error(issue.code, issue.message, at(issue.path, { offsetInString: issue.offsetInString }));
  if (normalised.value === undefined) return;
  // Past the wait (or with no baseline to wait for, LoadOptions.noBaselines): merged now.
  const resolved =
    out.baselines.takes(kind) && normalised.issues.length === 0
      ? resolveDocument(out.baselines, source, normalised.value as Json, reporter)
      : undefined;
  if (resolved === 'invalid') return;
  const validate = schemaSet().validators[kind];
  if (!validate) throw new Error(`no schema for document kind ${kind}`);
  const checked = resolved?.document ?? normalised.value;
  const valid = validate(checked);
  if (!valid) {
    const issues = schemaIssues(validate.errors ?? [], checked);
    if (resolved) resolved.report(issues);
    else for (const issue of issues) reporter.error(issue.code, issue.message, at(issue.path, { key: issue.key }));
  }
  if (!valid || normalised.issues.length > 0) return;
  build(builderOf(kind), source, normalised.value as Json, normalised.sensitive, out, resolved, cachedText);
}

/**
 * Builds a document the manifest cache kept (cache/entry.ts): valid against its schema when
 * it was kept, with no value from the environment, and `digestInput` its JSON text. Never
 * one of the kind the baselines apply to: those are resolved once every file is read.
 */
export function buildChecked(source: DocumentSource, document: Json, digestInput: string, out: BuildOutput): void {
  build(builderOf(document['kind'] as string), source, document, NO_SENSITIVE, out, undefined, digestInput);
}

/** Never added to: only normalising a document finds sensitive values. */
const NO_SENSITIVE = new Set<string>();

function build(
  builder: DocumentBuilder,
  source: DocumentSource,
  document: Json,
  sensitive: Set<string>,
  out: BuildOutput,
  resolved?: Resolved,
  knownDigestInput?: string,
): void {
  const metadata = document['metadata'] as Json;
  // The document as written counts for the digests; its objects come from the effective spec.
  const spec = resolved?.spec ?? (document['spec'] as Json | undefined) ?? {};
  const documentAddress = builder.address(metadata);
  // One JSON text per document for both digests: the set's and, for a scoped plan, the document's own.
  const digestInput = knownDigestInput ?? documentDigestInput(document, sensitive, documentAddress);
  out.digest.addDocument(documentAddress, digestInput);
  const ctx: DocContext = {
    out,
    file: source.file,
    dir: path.dirname(source.absolute),
    root: source.root,
    displayDir: path.posix.dirname(source.file),
    doc: source.doc,
    prune: metadata['prune'] === true,
    protect: metadata['protect'] === true,
    documentAddress,
    sensitive,
  };
  const before = out.objects.length;
  builder.build(ctx, metadata, spec);
  resolved?.finish(out.objects.slice(before));
  out.documents?.add(
    documentAddress,
    { file: source.file, absolute: source.absolute },
    digestInput,
    out.objects.slice(before),
  );
}
