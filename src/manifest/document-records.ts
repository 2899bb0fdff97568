import { createHash } from 'node:crypto';
import type { BaselineSet, SelectionFacts } from './baselines/baseline-set.js';
import type { DesiredObject } from './types.js';

/** An object a document declares, as a scoped plan needs to know it. */
export interface RecordedObject {
  address: string;
  kind: string;
  parentAddress?: string;
  /** The addresses it had under the names its `renamedFrom` lists. */
  previousAddresses?: readonly string[];
}

/**
 * One valid document as a load found it: what a plan scoped to the documents changed since
 * a git commit compares (`plan --changed-since`). Two records with the same address and
 * digest describe the same desired objects, wherever the document sits.
 */
export interface DocumentRecord {
  /** The document's address (`tenant/acme-corp`, `routing/draas/standby/routes`). */
  address: string;
  /** The manifest file (as diagnostics name it) and its absolute path. */
  file: string;
  absolute: string;
  /**
   * `sha256:` of the document after `${VAR}` interpolation (sensitive values as their own
   * keyed or salted-and-slow digests, as in the manifests' digest) and of the data files it
   * read: comments, layout and the file it sits in do not count, as for the manifests'
   * digest. Compared within one run (before and after a commit), never written to a file.
   */
  digest: string;
  /** The data files (CSV) the document read: absolute paths. */
  dataFiles: string[];
  /** The objects it declares (those its data files add are below them); a baseline's: the documents it selects. */
  objects: RecordedObject[];
  /** A baseline's selector (docs/baselines.md). */
  selector?: Readonly<Record<string, unknown>>;
  /** A document baselines may select: what selecting it depends on. */
  selection?: SelectionFacts;
}

interface Entry {
  record: Omit<DocumentRecord, 'digest'>;
  /** The document's digest input (the manifests' digest holds the same string). */
  digestInput: string;
  /** The SHA-256 (hex) of each data file the document read, in the order it read them. */
  dataDigests: string[];
}

/** Collects a record per valid document while a load builds them (asked for with `LoadOptions.documents`). */
export class DocumentRecorder {
  private readonly entries: Entry[] = [];
  private readonly byDocument = new Map<string, Entry>();

  add(
    address: string,
    where: { file: string; absolute: string },
    digestInput: string,
    objects: readonly DesiredObject[],
  ): void {
    const entry: Entry = {
      record: { address, ...where, dataFiles: [], objects: objects.map(recordedObject) },
      digestInput,
      dataDigests: [],
    };
    this.entries.push(entry);
    // Two documents at one address in one file are a duplicate the load reports: the last one takes the data files.
    this.byDocument.set(`${address}\u0000${where.file}`, entry);
  }

  /** A data file a document (its address, and the manifest file as diagnostics name it) read, with its text. */
  read(address: string, manifest: string, absolute: string, text: string): void {
    const entry = this.byDocument.get(`${address}\u0000${manifest}`);
    if (!entry) return;
    entry.record.dataFiles.push(absolute);
    entry.dataDigests.push(createHash('sha256').update(text).digest('hex'));
  }

  /**
   * The records. A baseline's objects are the documents it selects: a plan scoped to the
   * documents changed since a commit reads every document a changed baseline selects.
   */
  records(baselines?: BaselineSet): DocumentRecord[] {
    return this.entries.map((e) => {
      const { address, file } = e.record;
      const baseline = baselines?.baselines.find((b) => b.address === address && b.file === file);
      if (baselines && baseline) {
        const objects = baselines
          .selectedBy(baseline.name)
          .map((selected) => ({ address: selected, kind: baselines.target.kind }));
        return withDigest({ ...e.record, objects, selector: baseline.selector }, e);
      }
      const selection = baselines?.selections.get(address);
      return withDigest({ ...e.record, ...(selection ? { selection } : {}) }, e);
    });
  }
}

/**
 * The record with its `digest`, hashed when first read: a scoped plan compares the documents
 * of the files it touched only, and hashing all 50,000 documents of a national estate (19 MB,
 * a hash object each) cost 0.15 s of every `--changed-since` load.
 */
function withDigest(record: Omit<DocumentRecord, 'digest'>, entry: Entry): DocumentRecord {
  let digest: string | undefined;
  return Object.defineProperty(record, 'digest', {
    enumerable: true,
    get: (): string => {
      if (digest === undefined) {
        const hash = createHash('sha256').update(entry.digestInput);
        for (const data of entry.dataDigests) hash.update(`\u0000csv\u0000${data}`);
        digest = `sha256:${hash.digest('hex')}`;
      }
      return digest;
    },
  }) as DocumentRecord;
}

function recordedObject(object: DesiredObject): RecordedObject {
  return {
    address: object.address,
    kind: object.kind,
    ...(object.parentAddress !== undefined ? { parentAddress: object.parentAddress } : {}),
    ...(object.previousAddresses ? { previousAddresses: object.previousAddresses } : {}),
  };
}
