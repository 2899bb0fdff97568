import * as path from 'node:path';
import type { Reporter } from './reporter.js';
import type { RowAppender } from './build-routing.js';
import type { PolicyRule } from './policy-types.js';
import type { ChangeWindow, RoutingTestSet } from './assurance-types.js';
import type { DesiredObject, DesiredRoutingTable, JsonValue, SourcePosition } from './types.js';
import { pointer } from './normalize.js';
import { DigestBuilder } from './digest.js';
import type { DocumentRecorder } from './document-records.js';
import { BaselineSet } from './baselines/baseline-set.js';

/** A parent as a document names it, resolved once every document is known. */
export interface ParentDecl {
  /** One of the document kind's `parentKinds`. */
  kind: string;
  name?: string;
  uuid?: string;
  /** Path of the metadata key that names it, for diagnostics. */
  path: (string | number)[];
}

/** A CSV file a document asks for, read after all documents are built. */
export interface CsvJob {
  /** Absolute path of the CSV file and the name diagnostics use. */
  absolute: string;
  display: string;
  /** The object the rows belong to (a subscription, a routing table; a RoutingTest document's vectors). */
  owner: Pick<DesiredObject, 'address'>;
  ctx: DocContext;
  /** Path of the key that names the file (`addressesFrom`, `recordsFrom`). */
  path: (string | number)[];
  /** Adds the rows of the file's text. */
  add(text: string): Promise<void>;
}

/** How one document kind is read: the address of its object, and the builder of its objects. */
export interface DocumentBuilder {
  address(metadata: Json): string;
  /** Emits the objects of a document valid against its schema. */
  build(ctx: DocContext, metadata: Json, spec: Json): void;
}

/** A rule of a Policy document, and where its id is written (a repeated id is reported there). */
export interface BuiltRule {
  rule: PolicyRule;
  idAt: SourcePosition;
  /** Where `match.table` is written, when it is. */
  tableAt?: SourcePosition;
}

/** What the builders add to. */
export class BuildOutput {
  readonly objects: DesiredObject[] = [];
  readonly csvJobs: CsvJob[] = [];
  /** The routing tables of the documents, each with the appender that adds its rows. */
  readonly tables = new Map<DesiredRoutingTable, RowAppender>();
  readonly parents = new Map<DesiredObject, ParentDecl>();
  /** The rules of the Policy documents, each with the position of its id. */
  readonly policies: BuiltRule[] = [];
  /** The RoutingTest documents' vectors (docs/assurance.md). */
  readonly routingTests: RoutingTestSet[] = [];
  /** The ChangeWindow documents (docs/assurance.md). */
  readonly changeWindows: ChangeWindow[] = [];
  readonly digest = new DigestBuilder();
  /** The Baseline documents, and the documents they may select (built last: baselines/). */
  readonly baselines = new BaselineSet();
  constructor(
    readonly reporter: Reporter,
    /** A record per valid document, when the caller asked for them. */
    readonly documents?: DocumentRecorder,
  ) {
    this.baselines.recordSelections = documents !== undefined;
  }
}

/** The document being built. */
export interface DocContext {
  out: BuildOutput;
  file: string;
  /** Absolute folder of the manifest file (relative CSV paths start here). */
  dir: string;
  /** The manifests' root: a file a document names must be inside it (manifest-root.ts). */
  root: string;
  /** Display folder of the manifest file (for CSV display names). */
  displayDir: string;
  doc: number;
  prune: boolean;
  protect: boolean;
  documentAddress: string;
  sensitive: Set<string>;
}

/** What one object adds to the document's flags and origin: its own part of a DesiredObject. */
export interface EmitArgs extends Pick<
  DesiredObject,
  'kind' | 'address' | 'parentAddress' | 'parentRef' | 'identity' | 'fields'
> {
  path: (string | number)[];
  collections?: string[];
  /** Defaults to the document node at `path`. */
  origin?: DesiredObject['origin'];
  /** Set for the document's own object: fields under spec, these under metadata. */
  metadataFields?: readonly string[];
}

/** Shared empty list (hundreds of thousands of objects have no collections); never mutated. */
const NONE: readonly string[] = [];
Object.freeze(NONE);

/**
 * One frozen list per distinct set of declared collections: a list grown by push keeps
 * spare capacity (about 150 bytes each), and at 250,000 objects there are a handful of
 * distinct lists.
 */
const sharedCollections = new Map<string, readonly string[]>();

function collectionsOf(collections: string[] | undefined): readonly string[] {
  if (!collections || collections.length === 0) return NONE;
  const key = collections.join('\n');
  let shared = sharedCollections.get(key);
  if (!shared) {
    shared = Object.freeze(collections.slice());
    sharedCollections.set(key, shared);
  }
  return shared;
}

/** Adds one desired object with the document's flags and origin. */
export function emit(ctx: DocContext, args: EmitArgs): DesiredObject {
  const object: DesiredObject = {
    kind: args.kind,
    address: args.address,
    identity: args.identity,
    fields: args.fields,
    sensitiveFields:
      ctx.sensitive.size === 0 ? NONE : sensitiveFields(ctx, args.path, args.fields, args.metadataFields),
    prune: ctx.prune,
    protect: ctx.protect,
    declaredCollections: collectionsOf(args.collections),
    documentAddress: ctx.documentAddress,
    origin: args.origin ?? {
      type: 'yaml',
      file: ctx.file,
      doc: ctx.doc,
      path: args.path,
      ...(args.metadataFields ? { document: { metadataFields: args.metadataFields } } : {}),
    },
  };
  if (args.parentAddress !== undefined) object.parentAddress = args.parentAddress;
  if (args.parentRef !== undefined) object.parentRef = args.parentRef;
  ctx.out.objects.push(object);
  return object;
}

/**
 * The fields (of an item at `path` of the document) whose value, or part of it, came from
 * `${VAR}`: an object's, or a routing record's. The document's own object (`metadataFields`
 * set, `path` empty) takes its fields from `spec` and `metadata`, so its pointers start
 * there, not at the document root.
 */
export function sensitiveFields(
  ctx: DocContext,
  path: readonly (string | number)[],
  fields: Readonly<Record<string, JsonValue>>,
  metadataFields?: readonly string[],
): string[] {
  if (ctx.sensitive.size === 0) return [];
  const out: string[] = [];
  for (const name of Object.keys(fields)) {
    const section = metadataFields === undefined ? [] : [metadataFields.includes(name) ? 'metadata' : 'spec'];
    const own = pointer([...path, ...section, name]);
    for (const p of ctx.sensitive) {
      if (p === own || p.startsWith(own + '/')) {
        out.push(name);
        break;
      }
    }
  }
  return out;
}

export type Json = Record<string, JsonValue>;

/** The name diagnostics use for a CSV file named in a manifest (relative to it). */
export function csvDisplayName(ctx: DocContext, file: string): string {
  if (path.isAbsolute(file)) return path.normalize(file).split(path.sep).join('/');
  return path.posix.normalize(path.posix.join(ctx.displayDir, file.split(path.sep).join('/')));
}
