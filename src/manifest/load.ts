import { Pacer } from '../core/pacer.js';
import { BuildOutput } from './build-context.js';
import { uniqueRules } from './build-policy.js';
import {
  checkBillingIds,
  checkIdentities,
  checkPlatformUnique,
  checkReferences,
  dropDuplicates,
  resolveParents,
} from './checks.js';
import { Codes } from './codes.js';
import type { BaselineSet } from './baselines/baseline-set.js';
import { runCsvJobs } from './csv-jobs.js';
import { DesiredSet } from './desired-set.js';
import { processDocument } from './documents.js';
import { DocumentRecorder, type DocumentRecord } from './document-records.js';
import { discoverFiles, fetchFile, MAX_MANIFEST_BYTES, textOf, type FileRead, type FileSource } from './files.js';
import { parseManifest } from './parse.js';
import { Reporter, sortDiagnostics } from './reporter.js';
import type { PolicyRule } from './policy-types.js';
import type { ChangeWindow, RoutingTestSet } from './assurance-types.js';
import { checkRoutingTests, uniqueWindows } from './routing-test-check.js';
import type { CacheReport, Lookup, ManifestCache } from './cache/index.js';
import type { Diagnostic } from './types.js';

export interface LoadOptions {
  /** Values for `${VAR}` (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Folder that relative paths and displayed file names start from (default: process.cwd()). */
  cwd?: string;
  /** Size cap of one manifest file (default 16 MB). */
  maxManifestBytes?: number;
  /** Files read from elsewhere than the disk (a git commit), when it has them. */
  source?: FileSource;
  /** Also return a record per valid document (`documents`): what `plan --changed-since` compares. */
  documents?: boolean;
  /**
   * The manifest cache (cache/index.ts): files whose content it holds are put back from it,
   * the others loaded and kept in it. The result is the same as without it.
   */
  cache?: ManifestCache;
  /**
   * With `cache`: the load returns before the cache's new entries are on disk; the caller
   * awaits `cache.written()` when it wants them there (a plan, after its reads: the file
   * system's work then overlaps the requests instead of delaying the first one).
   */
  cacheInBackground?: boolean;
  /**
   * The files hold no Baseline document (export's check of the files it wrote): each document
   * is built as its file is read, not kept until every file is (a national export's check
   * 2.5 → 2.3 s). The same objects and findings, in the files' order (of two objects at one
   * address, the one in the later file is reported). A Baseline document among them is an
   * error. Not with `documents`: recording what selected a document needs every file read.
   */
  noBaselines?: boolean;
}

export interface LoadResult {
  /** The desired objects. With errors in `diagnostics`, it holds only the valid documents' objects. */
  set: DesiredSet;
  /** The rules of the Policy documents (the valid ones), in the order they are written. */
  policies: PolicyRule[];
  /** The RoutingTest documents' vectors, checked against the declared rows (docs/assurance.md). */
  routingTests: RoutingTestSet[];
  /** The ChangeWindow documents (docs/assurance.md). */
  changeWindows: ChangeWindow[];
  /** Every finding, sorted by file, line, column. */
  diagnostics: Diagnostic[];
  /** Manifest and CSV files read, relative to cwd, sorted. */
  files: string[];
  /** The folders searched for manifests (real paths, those reached through a link too, empty ones too), sorted. */
  folders: string[];
  /** `sha256:` of the normalised desired set (plan file `manifests.digest`). */
  digest: string;
  /** True when no diagnostic is an error. */
  ok: boolean;
  /** With `LoadOptions.documents`: each valid document, and how many documents the files held (valid or not). */
  documents?: { records: DocumentRecord[]; seen: number };
  /** The baselines and what they gave each document (docs/baselines.md); absent when the set has none. */
  baselines?: BaselineSet;
  /** With `LoadOptions.cache`: what the cache did. */
  cache?: CacheReport;
}

/**
 * Loads manifests from files and folders into one flat desired set, with every mistake
 * reported at once (file:line:col) and no request sent. Never throws for bad input:
 * unreadable, binary, huge or malformed files are diagnostics.
 */
export async function loadManifests(paths: string[], options: LoadOptions = {}): Promise<LoadResult> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  // Not for files read from a git commit: those are the few files a scoped plan compares.
  const cache = options.source ? undefined : options.cache;
  const reporter = new Reporter();
  const out = new BuildOutput(reporter, options.documents ? new DocumentRecorder() : undefined);
  out.baselines.none = options.noBaselines === true && !options.documents;
  const folders = new Set<string>();
  const files = await discoverFiles(paths, cwd, reporter, options.source, folders);
  const read = new Set<string>();
  let seen = 0;
  // 250,000 objects take seconds: the event loop gets turns, and a signal stops the load (src/core/pacer.ts).
  const pacer = new Pacer();
  const maxBytes = options.maxManifestBytes ?? MAX_MANIFEST_BYTES;
  const fetched = readAhead(files, async (file): Promise<Fetched> => {
    const bytes = await fetchFile(file.absolute, maxBytes, options.source);
    if (!cache || 'code' in bytes) return { bytes };
    // The cache's lookup (a digest, a stat and a read of its entry) starts with the read, ahead
    // of the file's turn, as the reads do: a file that is not clean text is decoded again in
    // its turn, where its findings are reported in order.
    const quiet = new Reporter();
    const text = textOf(bytes, file.display, maxBytes, quiet);
    // A file the cache holds is put back as it was built; `${VAR}` makes a file the environment's, never cached.
    if (text === undefined || quiet.diagnostics.length > 0 || text.includes('${')) return { bytes };
    const lookup = cache.lookup(text);
    // Awaited in the file's turn; a rejection before then is not an unhandled one.
    lookup.catch(() => undefined);
    // The text alone is kept: a file ahead is held once, not as its bytes and its text.
    return { text, lookup };
  });
  for (const [index, file] of files.entries()) {
    const ahead = await fetched(index);
    const text = 'text' in ahead ? ahead.text : textOf(ahead.bytes, file.display, maxBytes, reporter);
    if (text === undefined) continue;
    read.add(file.display);
    reporter.addFile(file.display, text);
    const cached = 'lookup' in ahead ? await ahead.lookup : undefined;
    const replayed =
      cached &&
      cache?.replay(cached, out, {
        file: file.display,
        absolute: file.absolute,
        root: file.root,
      });
    if (replayed !== undefined) {
      seen += replayed;
      continue;
    }
    const capture = cached && cache?.capture(out);
    const before = reporter.diagnostics.length;
    const docs = parseManifest(file.display, text, reporter);
    if (docs.length === 0 && reporter.diagnostics.length === before) {
      reporter.error(Codes.empty, 'empty manifest: no YAML document in this file', {
        file: file.display,
        line: 1,
        column: 1,
      });
    }
    seen += docs.length;
    const mayHaveAliases = text.includes('*');
    for (const { doc, value } of docs) {
      if (pacer.due()) await pacer.pause();
      const mark = capture?.mark(value);
      processDocument(
        { file: file.display, absolute: file.absolute, root: file.root, doc, mayHaveAliases },
        value,
        env,
        out,
      );
      if (mark) capture?.document(mark, value, mayHaveAliases);
    }
    if (cached && capture) cache?.keep(cached, capture);
  }
  await out.baselines.flush(out, pacer);
  const cacheWritten = cache?.flush();
  await runCsvJobs(out.csvJobs, read, options.source);
  const { kept: objects, byAddress } = dropDuplicates(out.objects, reporter);
  const externalParents = resolveParents(out, byAddress);
  const routingTables = [...out.tables.keys()].filter((t) => byAddress.get(t.table.address) === t.table);
  const set = new DesiredSet(objects, routingTables, externalParents, reporter, byAddress);
  checkBillingIds(objects, reporter, byAddress);
  checkPlatformUnique(objects, reporter);
  checkIdentities(objects, byAddress, reporter);
  checkReferences(objects, byAddress, (a) => set.children(a), reporter);
  const policies = uniqueRules(out.policies, new Map(routingTables.map((t) => [t.table.address, t.columns])), reporter);
  checkRoutingTests(out.routingTests, set, reporter);
  const changeWindows = uniqueWindows(out.changeWindows, reporter);
  const diagnostics = sortDiagnostics(reporter.diagnostics);
  if (!options.cacheInBackground) await cacheWritten;
  return {
    set,
    policies,
    routingTests: out.routingTests,
    changeWindows,
    diagnostics,
    files: [...read].sort(),
    folders: [...folders].sort(),
    digest: out.digest.digest(),
    ok: !diagnostics.some((d) => d.severity === 'error'),
    ...(out.documents ? { documents: { records: out.documents.records(out.baselines), seen } } : {}),
    ...(out.baselines.baselines.length > 0 ? { baselines: out.baselines } : {}),
    ...(cache ? { cache: cache.report } : {}),
  };
}

/** A file read ahead: its bytes, or with the cache its clean text and the lookup of its entry. */
type Fetched = { bytes: FileRead } | { text: string; lookup: Promise<Lookup> };

/** Files whose reads are under way ahead of the one being loaded. */
const READ_AHEAD = 4;

/**
 * The reads of `items`, each started {@link READ_AHEAD} items before it is taken: the file
 * system's waits (a stat, an open, a read, a close through the thread pool) overlap the
 * parse and checks of the files before it, instead of idling the load between files.
 * Taken in order, each once; what is reported stays in the files' order.
 */
function readAhead<T, R>(items: readonly T[], read: (item: T) => Promise<R>): (index: number) => Promise<R> {
  const started = new Map<number, Promise<R>>();
  let next = 0;
  return (index) => {
    for (; next < items.length && next <= index + READ_AHEAD; next++) {
      const reading = read(items[next] as T);
      // Awaited when taken; a rejection before then is not an unhandled one.
      reading.catch(() => undefined);
      started.set(next, reading);
    }
    const reading = started.get(index) as Promise<R>;
    started.delete(index);
    return reading;
  };
}
