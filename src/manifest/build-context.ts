import type { Reporter } from './reporter.js';
import type { DesiredObject, JsonValue } from './types.js';
import { pointer } from './normalise.js';
import { DigestBuilder } from './digest.js';

/** A parent as a document names it, resolved once every document is known. */
export interface ParentDecl {
  kind: 'Group' | 'Reseller' | 'Distributor';
  name?: string;
  uuid?: string;
  /** Path of the metadata key that names it, for diagnostics. */
  path: (string | number)[];
}

/** A CSV file a document asks for, read after all documents are built. */
export interface CsvJob {
  type: 'addresses' | 'records';
  /** Absolute path of the CSV file and the name diagnostics use. */
  absolute: string;
  display: string;
  /** The object the rows belong to (a subscription, or a routing table). */
  owner: DesiredObject;
  ctx: DocContext;
  /** Path of the `addressesFrom` / `recordsFrom` key. */
  path: (string | number)[];
}

/** What the builders add to. */
export class BuildOutput {
  readonly objects: DesiredObject[] = [];
  readonly csvJobs: CsvJob[] = [];
  readonly parents = new Map<DesiredObject, ParentDecl>();
  readonly digest = new DigestBuilder();
  constructor(readonly reporter: Reporter) {}
}

/** The document being built. */
export interface DocContext {
  out: BuildOutput;
  file: string;
  /** Absolute folder of the manifest file (relative CSV paths start here). */
  dir: string;
  /** Display folder of the manifest file (for CSV display names). */
  displayDir: string;
  doc: number;
  prune: boolean;
  protect: boolean;
  documentAddress: string;
  sensitive: Set<string>;
}

/** What one object adds to the document's flags and origin: its own part of a DesiredObject. */
export interface EmitArgs
  extends Pick<DesiredObject, 'kind' | 'address' | 'parentAddress' | 'parentRef' | 'identity' | 'fields'> {
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
    declaredCollections: args.collections && args.collections.length > 0 ? args.collections : NONE,
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
 * The fields whose value (or part of it) came from `${VAR}`. The document's own object
 * (`metadataFields` set, `path` empty) takes its fields from `spec` and `metadata`, so its
 * pointers start there, not at the document root.
 */
function sensitiveFields(
  ctx: DocContext,
  path: (string | number)[],
  fields: Record<string, JsonValue>,
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

/** The declared fields among `names` (present keys only; explicit null kept). */
export function pick(source: Json, names: readonly string[]): Json {
  const out: Json = {};
  for (const name of names) if (name in source) out[name] = source[name] as JsonValue;
  return out;
}

/** Child list `key` of a node, or undefined when not declared. */
export function list(source: Json, key: string): Json[] | undefined {
  const value = source[key];
  return Array.isArray(value) ? (value as Json[]) : undefined;
}

/** Which of `keys` the node declares (for prune scope). */
export function declared(source: Json, keys: readonly string[]): string[] {
  return keys.filter((k) => source[k] !== undefined);
}

/** Numbers written unquoted where the API wants strings ("10", "1000"). */
export function asText(value: JsonValue | undefined): JsonValue | undefined {
  return typeof value === 'number' ? String(value) : value;
}
