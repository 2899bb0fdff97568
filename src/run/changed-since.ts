import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { hasKind, kindOf } from '../kinds/index.js';
import {
  baselineScope,
  loadManifests,
  type DocumentRecord,
  type FileSource,
  type LoadResult,
  type RecordedObject,
} from '../manifest/index.js';
import { RefusedError, SwitchboardError } from '../core/errors.js';
import { matchesPattern } from '../plan/targets.js';
import type { PlanScope } from '../plan/types.js';
import { CHANGED_SINCE_ERROR, gitChangesSince, type GitChanges } from './git.js';
import { relativeLeadsInside } from '../core/path-inside.js';

/**
 * What `--changed-since` scopes a plan to, and what the plan file records of it: `targets`
 * are the address patterns (an address and its subtree) the plan reads and compares, empty
 * when nothing changed; `apply --plan` reads the same.
 */
export type ChangedScope = PlanScope;

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml']);

/**
 * The documents changed since `ref`: git lists the files that differ from that commit
 * (and those it does not track); the documents of those files, and of the manifests whose
 * data files (CSV) changed, are loaded again as they were at the commit, and a document is
 * changed when its address is new, gone, or its digest differs. A document moved to another
 * file unchanged is no change. The scope is the objects the changed documents declare, now
 * and at the commit, their former addresses (`renamedFrom`), and the owner of each object
 * that is no longer declared where its collection can be pruned.
 */
export async function changedScope(
  paths: readonly string[],
  ref: string,
  current: LoadResult,
  options: { cwd?: string; env?: Record<string, string | undefined>; git?: Promise<GitChanges> } = {},
): Promise<ChangedScope> {
  const cwd = options.cwd ?? process.cwd();
  const given = absolutePaths(paths, cwd);
  const git = await (options.git ?? askGit(paths, ref, cwd));
  try {
    const files = new RepoFiles(git);
    const records = current.documents?.records ?? [];
    // The manifests to compare: those that changed, and those a document of which reads a data file that changed.
    const touchedFiles = new Set<string>();
    for (const record of records) {
      if (touchedFiles.has(record.absolute)) continue;
      if ((await files.changed(record.absolute)) || (await someAsync(record.dataFiles, (f) => files.changed(f))))
        touchedFiles.add(record.absolute);
    }
    await refuseUnprovable(records, files, git, ref);
    const touched = records.filter((r) => touchedFiles.has(r.absolute));
    // Every folder the load searched is searched for deleted manifests too: those reached
    // through symbolic links, and those left without a manifest.
    const roots = [...given, ...current.folders];
    refuseChangedLinks(git, roots, ref);
    const before = await documentsAtCommit(git, files, touchedFiles, await removedManifests(git, roots), {
      cwd,
      env: options.env ?? process.env,
    });
    const changed = changedAddresses(before, touched);
    // A changed baseline (or an owner a selector names) puts the documents it selects in scope (docs/baselines.md).
    const selected = baselineScope(changed, before, records);
    return {
      changedSince: ref,
      commit: git.commit,
      documents: changed.length,
      ofDocuments: records.length,
      addresses: changed,
      files: await fileDigests(touched, files, cwd),
      targets: scopeTargets([...changed, ...selected], before, touched),
    };
  } finally {
    git.close();
  }
}

/**
 * What git says changed since `ref` in the repository of the first path: asked apart from
 * `changedScope` so that a run can ask while it loads the manifests (git's three commands
 * run beside the load). The caller closes the answer (or hands it to `changedScope`, which does).
 */
export async function askGit(paths: readonly string[], ref: string, cwd = process.cwd()): Promise<GitChanges> {
  const given = absolutePaths(paths, cwd);
  const first = given[0] ?? cwd;
  const dir = (await stat(first).catch(() => undefined))?.isDirectory() ? first : path.dirname(first);
  return gitChangesSince(dir, ref);
}

/** Ends the answer of {@link askGit} that no scope will use (its `git cat-file`, if one started). */
export function closeGit(git: Promise<GitChanges> | undefined): void {
  git?.then(
    (answer) => answer.close(),
    () => undefined,
  );
}

function absolutePaths(paths: readonly string[], cwd: string): string[] {
  return paths.length > 0 ? paths.map((p) => path.resolve(cwd, p)) : [cwd];
}

/**
 * Paths as git names them (relative to the working tree's top, with `/`), and whether they
 * changed. A file has two names to git when a symbolic link leads to it: its entry (the
 * link, its folders resolved) and its real path (what the link points at). It changed when
 * either did; it cannot be proven unchanged at all when its real path is outside the
 * working tree (changedScope refuses such a set).
 */
class RepoFiles implements FileSource {
  private readonly names = new Map<string, Promise<{ entry?: string; real?: string }>>();
  constructor(private readonly git: GitChanges) {}

  /** The file's entry and real path as git names them; each undefined when outside the working tree. */
  namesOf(absolute: string): Promise<{ entry?: string; real?: string }> {
    let answer = this.names.get(absolute);
    if (!answer) {
      answer = (async () => {
        const parent = await realpath(path.dirname(absolute)).catch(() => path.dirname(absolute));
        const entry = path.join(parent, path.basename(absolute));
        const real = await realpath(absolute).catch(() => entry);
        return { entry: this.gitPath(entry), real: this.gitPath(real) };
      })();
      this.names.set(absolute, answer);
    }
    return answer;
  }

  /** The real path as git names it; undefined for a file outside the repository. */
  async relative(absolute: string): Promise<string | undefined> {
    return (await this.namesOf(absolute)).real;
  }

  /** A file outside the repository counts as changed: git cannot say it did not. */
  async changed(absolute: string): Promise<boolean> {
    const { entry, real } = await this.namesOf(absolute);
    if (real === undefined || entry === undefined) return true;
    return this.differs(real) || (entry !== real && this.differs(entry));
  }

  /** Whether the file is reached through a symbolic link that is itself new or changed since the commit. */
  async linkChanged(absolute: string): Promise<string | undefined> {
    const { entry, real } = await this.namesOf(absolute);
    return entry !== undefined && entry !== real && this.differs(entry) ? entry : undefined;
  }

  private differs(relative: string): boolean {
    return this.git.changed.has(relative) || !this.git.tracked.has(relative);
  }

  private gitPath(absolute: string): string | undefined {
    const relative = path.relative(this.git.root, absolute);
    if (!relativeLeadsInside(relative)) return undefined;
    return relative.split(path.sep).join('/');
  }

  // FileSource: the files that changed are read as they were at the commit; the others are the same on disk.
  has(absolute: string): boolean {
    const relative = path.relative(this.git.root, absolute);
    if (!relativeLeadsInside(relative)) return false;
    const named = relative.split(path.sep).join('/');
    return this.git.changed.has(named) || !this.git.tracked.has(named);
  }

  read(absolute: string): Promise<Buffer | null> {
    return this.git.blob(path.relative(this.git.root, absolute).split(path.sep).join('/'));
  }
}

/**
 * What git cannot answer for refuses the scoped plan (exit 1) rather than leaving changes
 * out of it: a manifest or a data file outside the working tree (reached through a symbolic
 * link), whose content at the commit git does not hold, and a file reached through a
 * symbolic link that changed since the commit, whose former target's documents are unknown.
 */
async function refuseUnprovable(
  records: readonly DocumentRecord[],
  files: RepoFiles,
  git: GitChanges,
  ref: string,
): Promise<void> {
  for (const record of records) {
    for (const file of [record.absolute, ...record.dataFiles]) {
      const { real } = await files.namesOf(file);
      if (real === undefined) {
        throw new SwitchboardError(
          CHANGED_SINCE_ERROR,
          `${CHANGED_SINCE_ERROR}: --changed-since ${ref}: ${file} is outside the git working tree ${git.root} ` +
            '(through a symbolic link): git cannot tell what it held at that commit; plan without --changed-since',
        );
      }
      const link = await files.linkChanged(file);
      if (link !== undefined) {
        throw new SwitchboardError(
          CHANGED_SINCE_ERROR,
          `${CHANGED_SINCE_ERROR}: --changed-since ${ref}: the symbolic link ${link} is new or changed since that ` +
            'commit: which documents it led to then is unknown; plan without --changed-since',
        );
      }
    }
  }
}

/**
 * A symbolic link added, removed or retargeted below the manifests since the commit refuses
 * the scoped plan: which documents it led to then, or leads to now, git does not say (a
 * folder link removed takes its documents out of the set without any manifest changing).
 */
function refuseChangedLinks(git: GitChanges, roots: readonly string[], ref: string): void {
  for (const relative of git.links) {
    const absolute = path.join(git.root, relative);
    if (!roots.some((root) => absolute === root || relativeLeadsInside(path.relative(root, absolute)))) continue;
    throw new SwitchboardError(
      CHANGED_SINCE_ERROR,
      `${CHANGED_SINCE_ERROR}: --changed-since ${ref}: the symbolic link ${relative} is new, removed or changed ` +
        'since that commit: which documents it led to then is unknown; plan without --changed-since',
    );
  }
}

/** Manifest files git says were deleted below the paths given (as the loader would have found them). */
async function removedManifests(git: GitChanges, given: readonly string[]): Promise<string[]> {
  const roots = await Promise.all(given.map((g) => realpath(g).catch(() => g)));
  const removed: string[] = [];
  for (const [relative, status] of git.changed) {
    if (status !== 'D' || !MANIFEST_EXTENSIONS.has(path.extname(relative).toLowerCase())) continue;
    const absolute = path.join(git.root, relative);
    const found = roots.some((root) => {
      if (absolute === root) return true;
      const below = path.relative(root, absolute);
      if (!relativeLeadsInside(below)) return false;
      return !below.split(path.sep).some((part) => part.startsWith('.') || part === 'node_modules');
    });
    if (found) removed.push(absolute);
  }
  return removed;
}

/** The documents of these files as they were at the commit (a file added since has none). */
async function documentsAtCommit(
  git: GitChanges,
  files: RepoFiles,
  touched: ReadonlySet<string>,
  removed: readonly string[],
  options: { cwd: string; env: Record<string, string | undefined> },
): Promise<DocumentRecord[]> {
  const manifests = new Set<string>(removed);
  for (const absolute of touched) {
    const relative = await files.relative(absolute);
    if (relative === undefined || !git.tracked.has(relative) || git.changed.get(relative) === 'A') continue;
    // Its real path: the data files it names are then found at their real paths too, which git's answer for.
    manifests.add(path.join(git.root, relative));
  }
  if (manifests.size === 0) return [];
  // Their mistakes then (a parent declared in another file) are not this plan's: only the records count.
  const loaded = await loadManifests([...manifests], { ...options, source: files, documents: true });
  return loaded.documents?.records ?? [];
}

/** Addresses whose documents differ: new, gone, or another digest (moved unchanged is no change). */
function changedAddresses(before: readonly DocumentRecord[], now: readonly DocumentRecord[]): string[] {
  const digests = (records: readonly DocumentRecord[]) => {
    const by = new Map<string, string[]>();
    for (const r of records) by.set(r.address, [...(by.get(r.address) ?? []), r.digest]);
    return by;
  };
  const then = digests(before);
  const current = digests(now);
  const changed: string[] = [];
  for (const address of new Set([...then.keys(), ...current.keys()])) {
    const a = (then.get(address) ?? []).sort().join(',');
    const b = (current.get(address) ?? []).sort().join(',');
    if (a !== b) changed.push(address);
  }
  return changed.sort();
}

/**
 * The objects of the changed documents (each with its subtree), their former addresses, and
 * the owner of an object no longer declared whose kind's collection a document may prune.
 * An address below another in the list is left out (the subtree holds it).
 */
function scopeTargets(
  changed: readonly string[],
  before: readonly DocumentRecord[],
  now: readonly DocumentRecord[],
): string[] {
  const wanted = new Set(changed);
  const objectsOf = (records: readonly DocumentRecord[]) =>
    records.filter((r) => wanted.has(r.address)).flatMap((r) => r.objects);
  const current = objectsOf(now);
  const declared = new Set(current.map((o) => o.address));
  const addresses = new Set<string>(changed);
  const add = (o: RecordedObject) => {
    addresses.add(o.address);
    for (const previous of o.previousAddresses ?? []) addresses.add(previous);
  };
  current.forEach(add);
  for (const o of objectsOf(before)) {
    add(o);
    const prunable = hasKind(o.kind) && kindOf(o.kind).collection !== undefined;
    if (!declared.has(o.address) && o.parentAddress !== undefined && prunable) addresses.add(o.parentAddress);
  }
  const sorted = [...addresses].sort();
  const kept: string[] = [];
  for (const address of sorted) {
    const last = kept[kept.length - 1];
    if (last === undefined || !matchesPattern(last, address)) kept.push(address);
  }
  return kept;
}

/** `sha256:` of each file the changed documents read now (manifests and data files), by the name diagnostics use. */
async function fileDigests(
  records: readonly DocumentRecord[],
  files: RepoFiles,
  cwd: string,
): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  const paths = new Set(records.flatMap((r) => [r.absolute, ...r.dataFiles]));
  for (const absolute of [...paths].sort()) {
    if (!(await files.changed(absolute))) continue;
    const shown = path.relative(cwd, absolute).split(path.sep).join('/');
    digests[shown] = await fileDigest(absolute);
  }
  return digests;
}

async function fileDigest(absolute: string): Promise<string> {
  const bytes = await readFile(absolute).catch(() => undefined);
  return bytes === undefined ? 'missing' : `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

async function someAsync<T>(items: readonly T[], test: (item: T) => Promise<boolean>): Promise<boolean> {
  for (const item of items) if (await test(item)) return true;
  return false;
}

/** What the plan file records of the scope: all of it (`apply --plan` reads the same targets). */
export function planScope(scope: ChangedScope): PlanScope {
  return { ...scope, addresses: [...scope.addresses], targets: [...scope.targets] };
}

/**
 * `apply --plan` of a `--changed-since` plan: each file the plan read must hold what it held
 * (the manifests' digest says the same of the whole set; this names the file that differs).
 */
export async function checkScopeFiles(files: Record<string, string>, cwd = process.cwd()): Promise<void> {
  const differ: string[] = [];
  for (const [file, digest] of Object.entries(files)) {
    if ((await fileDigest(path.resolve(cwd, file))) !== digest) differ.push(file);
  }
  if (differ.length > 0) {
    throw new RefusedError(
      'SB_PLAN_MANIFESTS',
      `the plan was made from other versions of ${differ.join(', ')} (a --changed-since plan records each file it ` +
        'read): give the same manifests, or make a new plan',
    );
  }
}
