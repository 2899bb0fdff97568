import { readFile, writeFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { DiagnosticsError, SwitchboardError } from '../core/errors.js';
import { baselineKind } from '../kinds/baseline.js';
import { schemaModeline, schemasDirFor } from '../manifest/schema-location.js';
import { renderDocument, YamlMap, type YamlNode } from '../export/yaml-writer.js';
import {
  ancestryOf,
  baselineDocument,
  baselineDocumentKind,
  declaredDifferences,
  documentSelected,
  loadManifests,
  proposeValues,
  reduceSpec,
  rewriteFile,
  selectorFromArguments,
  type FileSource,
  type JsonValue,
  type LoadResult,
  type Reduction,
} from '../manifest/index.js';

/**
 * Adopting baselines (docs/baselines.md): `baseline suggest` proposes a Baseline from what
 * most selected documents of a flat manifest set share, and with `write` rewrites those
 * documents to hold only their differences (as overrides); `export --baselines` writes an
 * export that way against existing baselines. Nothing is written unless the rewritten set,
 * loaded with its baselines, declares exactly the objects the flat set declared: a plan then
 * shows what it showed before.
 */

type Json = Record<string, JsonValue>;

export interface SuggestOptions {
  /** `reseller=north`, `group=demo-group`, `label:tier=gold`: all must hold. */
  select: readonly string[];
  /** The baseline's name (default: from the selection). */
  name?: string;
  /** Share (0 < coverage ≤ 1) of the documents that must hold a value for the baseline to give it. */
  coverage: number;
  /** `subscriptions.uc`: the document's items of that collection are addressed by that field's value. */
  by: readonly string[];
  /** Write the baseline and rewrite the documents. */
  write: boolean;
  /** The reason of the overrides written. */
  reason: string;
  /** Where the baseline is written (default `DIR/baselines/NAME.yaml`). */
  out?: string;
  cwd?: string;
}

export interface SuggestResult {
  /** The Baseline document's text. */
  text: string;
  name: string;
  /** Where it is (or would be) written. */
  file: string;
  /** The documents the selection holds, by address. */
  selected: string[];
  /** Overrides the selected documents need (written with `write`). */
  overrides: number;
  /** Files rewritten (with `write`), absolute. */
  rewritten: string[];
}

/** `switchboard baseline suggest DIR`. */
export async function suggestBaseline(dir: string, options: SuggestOptions): Promise<SuggestResult> {
  const cwd = options.cwd ?? process.cwd();
  const root = path.resolve(cwd, dir);
  const flat = await loadFlat(root, cwd);
  const selector = parseSelector(options.select);
  const selectBy = parseBy(options.by);
  const { plan } = baselineDocumentKind();
  const ancestry = ancestryOf(flat.set);
  const documents = await targetDocuments(flat, cwd);
  const selected = documents.filter((d) => documentSelected(selector, d.metadata, ancestry));
  if (selected.length === 0)
    throw new SwitchboardError('SB_BASELINE', `--select ${options.select.join(' ')} selects no document in ${dir}`);
  const values = proposeValues(
    plan,
    selected.map((d) => (d.value['spec'] as Json | undefined) ?? {}),
    { coverage: options.coverage, selectBy },
  );
  const name = options.name ?? defaultName(options.select);
  const description = `Proposed by switchboard baseline suggest from ${selected.length} documents (coverage ${Math.round(options.coverage * 100)} %).`;
  const file = path.resolve(cwd, options.out ?? path.join(root, 'baselines', `${name}.yaml`));
  const text = baselineText(file, baselineDocument(name, description, selector, values));
  const wanted = new Set(selected.map((d) => d.key));
  const rewrite = await rewriteDocuments(documents, (d) => (wanted.has(d.key) ? [values] : []), options.reason);
  const result: SuggestResult = {
    text,
    name,
    file,
    selected: selected.map((d) => d.address),
    overrides: rewrite.overrides,
    rewritten: [],
  };
  if (!options.write) return result;
  await verify(flat, [root, file], new Map([...rewrite.texts, [file, text]]), cwd);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  for (const [absolute, newText] of rewrite.texts) await writeFile(absolute, newText);
  return { ...result, rewritten: [...rewrite.texts.keys()] };
}

/**
 * `export --baselines DIR`: the exported documents of `outDir` rewritten to hold only what
 * differs from the baselines of `baselinesDir` that select them.
 */
export async function reduceToBaselines(
  outDir: string,
  baselinesDir: string,
  reason: string,
  cwd = process.cwd(),
): Promise<{ rewritten: string[]; overrides: number }> {
  const root = path.resolve(cwd, outDir);
  const baselinesRoot = path.resolve(cwd, baselinesDir);
  const flat = await loadFlat(root, cwd);
  const standards = await loadManifests([baselinesRoot], { cwd });
  if (!standards.ok) throw new DiagnosticsError(standards.diagnostics);
  const others = standards.set.objects.length + standards.set.routingTables.length + standards.policies.length;
  if (others > 0 || !standards.baselines)
    throw new SwitchboardError('SB_BASELINE', `${baselinesDir} must hold Baseline documents only`);
  const baselines = standards.baselines.baselines;
  const ancestry = ancestryOf(flat.set);
  const documents = await targetDocuments(flat, cwd);
  const rewrite = await rewriteDocuments(
    documents,
    (d) => baselines.filter((b) => documentSelected(b.selector, d.metadata, ancestry)).map((b) => b.values),
    reason,
  );
  await verify(flat, [root, baselinesRoot], rewrite.texts, cwd);
  for (const [absolute, text] of rewrite.texts) await writeFile(absolute, text);
  return { rewritten: [...rewrite.texts.keys()], overrides: rewrite.overrides };
}

/** A flat manifest set: valid, and no document of it a baseline selects already. */
async function loadFlat(root: string, cwd: string): Promise<LoadResult> {
  const loaded = await loadManifests([root], { cwd });
  if (!loaded.ok) throw new DiagnosticsError(loaded.diagnostics);
  const merged = [...(loaded.baselines?.resolutions.keys() ?? [])];
  if (merged.length > 0) {
    throw new SwitchboardError(
      'SB_BASELINE',
      `${path.relative(cwd, root) || '.'} holds baselines already (they select ${merged.slice(0, 3).join(', ')}${merged.length > 3 ? ', …' : ''}): adopt from flat documents, such as an export`,
    );
  }
  return loaded;
}

interface TargetDocument {
  /** `absolute\u0000doc`. */
  key: string;
  absolute: string;
  doc: number;
  address: string;
  value: Json;
  metadata: Json;
}

/** The documents baselines apply to, as the manifest files hold them. */
async function targetDocuments(flat: LoadResult, cwd: string): Promise<TargetDocument[]> {
  const { kind } = baselineDocumentKind();
  const documents = flat.set.objects.filter((o) => o.kind === kind.kind && o.address === o.documentAddress);
  const out: TargetDocument[] = [];
  const values = new Map<string, Json[]>();
  for (const object of documents) {
    if (object.origin.type !== 'yaml') continue;
    const absolute = path.resolve(cwd, object.origin.file);
    if (!values.has(absolute)) values.set(absolute, parseDocuments(await readFile(absolute, 'utf8')));
    const value = values.get(absolute)?.[object.origin.doc];
    if (!value) continue;
    const metadata = (value['metadata'] as Json | undefined) ?? {};
    const key = `${absolute}\u0000${object.origin.doc}`;
    out.push({ key, absolute, doc: object.origin.doc, address: object.address, value, metadata });
  }
  return out;
}

function parseDocuments(text: string): Json[] {
  const out: Json[] = [];
  rewriteFile(
    text,
    (value) => {
      out.push(value);
      return undefined;
    },
    '',
  );
  return out;
}

/** The new text of each file holding a document the baselines select, and the overrides written. */
async function rewriteDocuments(
  documents: readonly TargetDocument[],
  valuesOf: (document: TargetDocument) => Json[],
  reason: string,
): Promise<{ texts: Map<string, string>; overrides: number }> {
  const { plan } = baselineDocumentKind();
  const byKey = new Map(documents.map((d) => [d.key, d]));
  const files = new Set(documents.map((d) => d.absolute));
  const texts = new Map<string, string>();
  let overrides = 0;
  for (const absolute of files) {
    const text = await readFile(absolute, 'utf8');
    const rewritten = rewriteFile(
      text,
      (value, doc): Reduction | undefined => {
        const document = byKey.get(`${absolute}\u0000${doc}`);
        const given = document ? valuesOf(document) : [];
        if (given.length === 0) return undefined;
        const reduction = reduceSpec(plan, (value['spec'] as Json | undefined) ?? {}, given);
        overrides += reduction.overrides.length;
        return reduction;
      },
      reason,
    );
    if (rewritten.changed > 0) texts.set(absolute, rewritten.text);
  }
  return { texts, overrides };
}

/** Loads the rewritten set (the new texts over the disk) and refuses when it declares anything else. */
async function verify(
  flat: LoadResult,
  paths: string[],
  texts: ReadonlyMap<string, string>,
  cwd: string,
): Promise<void> {
  const source: FileSource = {
    has: (absolute) => texts.has(absolute),
    read: async (absolute) => {
      const text = texts.get(absolute);
      return text === undefined ? null : Buffer.from(text);
    },
  };
  const extra = [...texts.keys()].filter(
    (f) => !paths.includes(f) && !paths.some((p) => f.startsWith(`${p}${path.sep}`)),
  );
  const merged = await loadManifests([...paths, ...extra], { cwd, source });
  if (!merged.ok) throw new DiagnosticsError(merged.diagnostics);
  const differences = declaredDifferences(flat.set, merged.set);
  if (differences.length > 0) {
    throw new SwitchboardError(
      'SB_BASELINE',
      `nothing was written: with the baseline, the documents would declare something else:\n  ${differences.join('\n  ')}`,
    );
  }
}

function parseSelector(args: readonly string[]): Json {
  try {
    return selectorFromArguments(args);
  } catch (error) {
    throw new SwitchboardError('SB_USAGE', (error as Error).message);
  }
}

function parseBy(args: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arg of args) {
    const [collection, field, ...rest] = arg.split('.');
    if (!collection || !field || rest.length > 0)
      throw new SwitchboardError('SB_USAGE', `--by ${arg}: expected COLLECTION.FIELD (subscriptions.uc)`);
    out[collection] = field;
  }
  return out;
}

function defaultName(select: readonly string[]): string {
  const name = select
    .map((s) => s.replace(/^label:/, '').replace(/[^A-Za-z0-9]+/g, '-'))
    .join('-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return name || 'baseline';
}

/** The Baseline's YAML, laid out as export lays out documents (short flat maps in flow style), with its schema modeline. */
function baselineText(file: string, document: Json): string {
  // Outside a checkout with schemas, the file's own folder: the modeline names the schema's
  // file alone, not a path into wherever switchboard is installed (as export does).
  const schemas = schemasDirFor(path.dirname(file), baselineKind.schema, path.dirname(file));
  return renderDocument(toMap(document, true) as YamlMap, [schemaModeline(file, schemas, baselineKind.schema)]);
}

function toMap(value: JsonValue, block = false): YamlNode {
  if (Array.isArray(value)) return value.map((v) => toMap(v));
  if (value !== null && typeof value === 'object') {
    const map = new YamlMap(block ? 'block' : 'auto');
    for (const [k, v] of Object.entries(value)) map.set(k, toMap(v, block && (k === 'spec' || k === 'values')));
    return map;
  }
  return value as YamlNode;
}
