/**
 * What the manifest cache keeps of one manifest file: its documents, parsed and checked
 * against their schemas, as the JSON text the manifests' digest is made of (one line per
 * document). Putting an entry back builds each document as the load builds a valid one
 * (`buildChecked`): the same objects, parents, digest parts and document records, and the
 * CSV files they name are read as always; the YAML parse, the `${VAR}` walk, the schema
 * check and the digest's JSON are what it saves. Everything across files (duplicates,
 * parents, billing ids, renames, references, policies) runs over the whole set afterwards.
 *
 * Only a file that decides alone what its documents say is kept: no `${VAR}` (the
 * environment's; the caller does not look such a file up), no diagnostic, and every
 * document built while its file was read, each a value JSON gives back as it is. A tenant
 * waits for the other files (the baselines that select it are merged into it once every
 * file is read): it is kept as parsed, and resolved, checked and built at every load, so for
 * it the cache saves the YAML parse, the `${VAR}` walk and its digest's JSON (its line is
 * that JSON). Entries hold no file name.
 */
import { MANIFEST_KINDS } from '../document-kinds.js';
import { buildChecked, processDocument, type DocumentSource } from '../documents.js';
import type { BuildOutput, Json } from '../build-context.js';

/** The counts of a BuildOutput before a document: what it added is what lies past them. */
interface Mark {
  documents: number;
  diagnostics: number;
}

/** Collects, document by document, the digest input of each document a file's processing built; gives up at the first it cannot keep. */
export class FileCapture {
  private readonly inputs: string[] = [];
  private keepable = true;
  /** The findings before the file was read: one found anywhere in it (a document YAML could not read) keeps it out. */
  private readonly findingsBefore: number;

  /** Made before the file is parsed: what parsing it finds counts. */
  constructor(private readonly out: BuildOutput) {
    this.findingsBefore = out.reporter.diagnostics.length;
  }

  /**
   * Called before a document (`value`, as parsed) is processed. One that reads the
   * environment keeps its file out: the loader keeps no file whose text holds `${`, but a
   * YAML escape writes it without those characters (`"\x24{VAR}"`), and once parsed it reads
   * the environment all the same (looked at before processing replaces it with the value).
   */
  mark(value: unknown): Mark {
    if (this.keepable && holdsVariable(value)) this.keepable = false;
    return { documents: this.out.digest.documentCount, diagnostics: this.out.reporter.diagnostics.length };
  }

  /**
   * Called after a document (`value`, as parsed) was processed from `mark`; `mayHaveAliases`:
   * its file has a `*` (a YAML alias there is expanded by the checks, with their limits).
   */
  document(mark: Mark, value: unknown, mayHaveAliases: boolean): void {
    if (!this.keepable) return;
    const added = this.out.digest.documentsSince(mark.documents);
    const kind = value !== null && typeof value === 'object' ? (value as Json)['kind'] : undefined;
    if (typeof kind === 'string' && this.out.baselines.waits(kind)) {
      // It waits for the baselines: nothing is checked or built yet, so it is kept as parsed,
      // and checked and built at every load. Not with aliases: only the checks bound their expansion.
      const waiting = added.length === 0 && this.out.reporter.diagnostics.length === mark.diagnostics;
      if (!waiting || mayHaveAliases || !jsonSafe(value)) this.keepable = false;
      else this.inputs.push(JSON.stringify(value));
      return;
    }
    const built = added.length === 1 && this.out.reporter.diagnostics.length === mark.diagnostics;
    // JSON is what the entry holds: `.nan`, `.inf` or `-0` would not come back as they were.
    // (A digest input is JSON.stringify's text: it never holds a line break of its own.)
    if (!built || !jsonSafe(value)) {
      this.keepable = false;
      return;
    }
    this.inputs.push(added[0]!.digestInput);
  }

  /**
   * The entry of the file, one document per line: the digest input of each document built
   * (normalised and checked), the parsed document of each that waits for the baselines.
   * Undefined unless every document of it could be kept and nothing in the file was found wrong.
   */
  body(): string | undefined {
    // Its valid documents alone would come back without the finding: the next load would
    // drop what YAML could not read, and say nothing.
    if (this.out.reporter.diagnostics.length !== this.findingsBefore) return undefined;
    if (!this.keepable || this.inputs.length === 0) return undefined;
    return `${this.inputs.join('\n')}\n`;
  }
}

/** Whether a string of `value` (a parsed document) holds `${`: a value from the environment. */
function holdsVariable(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('${');
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsVariable);
  for (const key in value as Record<string, unknown>) {
    if (key.includes('${') || holdsVariable((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * Whether JSON gives `value` back as it is: no NaN, infinity or -0 (YAML's `.nan`, `.inf`,
 * `-0`), nothing but plain data.
 */
function jsonSafe(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) return value.every(jsonSafe);
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key in value) {
        // JSON.parse makes `__proto__` an own key; a YAML parser may not: not kept.
        if (key === '__proto__' || !jsonSafe((value as Record<string, unknown>)[key])) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** Where the file of an entry is in this load: its name, path and the manifests' root. */
export type FileSource = Pick<DocumentSource, 'file' | 'absolute' | 'root'>;

/** Thrown for an entry whose content is not what this module writes (its seal held: a bug, or a stolen key). */
export class MalformedEntry extends Error {}

/**
 * Builds an entry's documents into `out` as loading the file (named `file` in this load, at
 * `absolute`, under `root`) would. Every document is read before any is built: a malformed entry throws MalformedEntry and leaves `out`
 * untouched.
 * @returns the number of documents the file holds
 */
export function replay(body: string, out: BuildOutput, where: FileSource): number {
  const lines = body.split('\n');
  if (lines.pop() !== '' || lines.length === 0) throw new MalformedEntry('no document, or an unfinished line');
  const documents = lines.map((line) => {
    let document: unknown;
    try {
      document = JSON.parse(line);
    } catch {
      throw new MalformedEntry('an unreadable document');
    }
    if (document === null || typeof document !== 'object' || Array.isArray(document))
      throw new MalformedEntry('a document that is not a mapping');
    const kind = (document as Json)['kind'];
    if (typeof kind !== 'string' || !MANIFEST_KINDS.includes(kind)) throw new MalformedEntry('an unknown kind');
    return document as Json;
  });
  documents.forEach((document, doc) => {
    const source = { ...where, doc, mayHaveAliases: false };
    // Kept as parsed (FileCapture): it waits for the baselines and is checked with them, as in a load without the cache.
    if (out.baselines.takes(document['kind'] as string)) processDocument(source, document, {}, out, false, lines[doc]);
    else buildChecked(source, document, lines[doc]!, out);
  });
  return documents.length;
}
