/**
 * `plan --policies-from GIT_REF`: the Policy documents as they are at a commit (the base of a
 * pull request), so that a change cannot loosen the rules that judge it. They are read from
 * git, not from the working tree: the manifest files below the paths given, at that commit,
 * that hold a Policy document; the other documents of those files are left out (blanked,
 * lines kept, so every position stays that of the file at the commit). The rules are then
 * checked by the loader as the manifests' own are; a mistake in them is an error (exit 1),
 * never a rule silently left out.
 */
import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { DiagnosticsError, SwitchboardError, type Diagnostic } from '../core/errors.js';
import { yamlPackage } from '../core/yaml-package.js';
import { policyKind } from '../kinds/policy.js';
import { loadManifests, type FileSource, type PolicyRule } from '../manifest/index.js';
import { commitFiles, GitError, runGit } from './git.js';
import { relativeLeadsInside } from '../core/path-inside.js';

const POLICIES_FROM_ERROR = 'SB_POLICIES_FROM';

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml']);

/** The Policy rules at a commit, each `source` as `COMMIT:file:line:col`. */
export interface PoliciesAt {
  ref: string;
  commit: string;
  rules: PolicyRule[];
}

/** Reads the rules of the Policy documents below `paths` (as `plan` was given them) at `ref`. */
export async function policiesAt(
  paths: readonly string[],
  ref: string,
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<PoliciesAt> {
  const cwd = options.cwd ?? process.cwd();
  const given = (paths.length > 0 ? paths : ['.']).map((p) => path.resolve(cwd, p));
  const root = await repositoryOf(given[0] as string, ref);
  const commit = await commitOf(root, ref);
  const scopes = await Promise.all(given.map((p) => inRepository(root, p, ref)));
  // ls-tree takes paths (prefixes), not pathspecs: the folder's files are filtered below as the loader finds them.
  const prefixes = scopes.includes('') ? [] : scopes;
  const listed = await git(root, ['ls-tree', '-r', '-z', '--name-only', '--full-tree', commit, '--', ...prefixes], ref);
  const candidates = listed.split('\0').filter((file) => file !== '' && isManifest(file, scopes));
  const files = commitFiles(root, commit);
  const texts = new Map<string, string>();
  try {
    for (const file of candidates) {
      const bytes = await files.read(file);
      const text = bytes?.toString('utf8');
      if (text !== undefined && text.includes(policyKind.kind))
        texts.set(path.join(root, file), policyDocumentsOnly(text));
    }
  } finally {
    files.close();
  }
  if (texts.size === 0) return { ref, commit, rules: [] };
  const source: FileSource = {
    has: (absolute) => texts.has(absolute),
    read: (absolute) => Promise.resolve(texts.has(absolute) ? Buffer.from(texts.get(absolute) as string) : null),
  };
  const loaded = await loadManifests([...texts.keys()], { cwd, source, ...(options.env ? { env: options.env } : {}) });
  const short = commit.slice(0, 12);
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new DiagnosticsError(errors.map((d) => atCommit(d, short, ref)));
  return { ref, commit, rules: loaded.policies.map((rule) => ({ ...rule, source: `${short}:${rule.source}` })) };
}

/** The text with every document that is not a Policy blanked: spaces, newlines kept. */
function policyDocumentsOnly(text: string): string {
  const { parseAllDocuments } = yamlPackage();
  const docs = parseAllDocuments(text, { uniqueKeys: false, logLevel: 'silent' });
  const list = Array.isArray(docs) ? docs : [];
  let out = text;
  for (const doc of list) {
    // A document with errors stays: the loader reports them where they are.
    if (doc.errors.length > 0 || !doc.contents) continue;
    const kind: unknown = doc.get('kind');
    if (kind === policyKind.kind) continue;
    const [start, end] = doc.contents.range ?? [0, 0];
    out = out.slice(0, start) + out.slice(start, end).replace(/[^\n\r]/g, ' ') + out.slice(end);
  }
  return out;
}

function atCommit(d: Diagnostic, short: string, ref: string): Diagnostic {
  const message = `${d.message} (the Policy documents at --policies-from ${ref})`;
  return d.source ? { ...d, message, source: { ...d.source, file: `${short}:${d.source.file}` } } : { ...d, message };
}

/** The files `plan` would have loaded from a folder (`*.yaml`, `*.yml`, no dot folder, no node_modules), or the file given. */
function isManifest(file: string, scopes: readonly string[]): boolean {
  if (!MANIFEST_EXTENSIONS.has(path.posix.extname(file).toLowerCase())) return false;
  return scopes.some((scope) => {
    if (file === scope) return true;
    const below = scope === '' ? file : file.startsWith(`${scope}/`) ? file.slice(scope.length + 1) : undefined;
    return below !== undefined && !below.split('/').some((part) => part.startsWith('.') || part === 'node_modules');
  });
}

async function repositoryOf(first: string, ref: string): Promise<string> {
  const dir = (await stat(first).catch(() => undefined))?.isDirectory() ? first : path.dirname(first);
  try {
    return await realpath((await runGit(dir, ['rev-parse', '--show-toplevel'])).trim());
  } catch (error) {
    if (error instanceof GitError && error.missing)
      throw failure(`--policies-from ${ref} needs git, and git is not on PATH`);
    const why = error instanceof GitError ? ` (${error.stderr})` : '';
    throw failure(
      `--policies-from ${ref}: the manifests (${dir}) are not in a git working tree${why}: the Policy documents at a commit are read from git`,
    );
  }
}

async function commitOf(root: string, ref: string): Promise<string> {
  if (ref.startsWith('-') || ref.trim() === '')
    throw failure(`--policies-from ${JSON.stringify(ref)}: not a git revision`);
  try {
    return (await runGit(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim();
  } catch {
    throw failure(
      `--policies-from ${ref}: no such commit in ${root}. In a shallow clone, fetch it first ` +
        `(git fetch --depth=1 origin ${ref}, or actions/checkout with fetch-depth: 0)`,
    );
  }
}

/** A given path as git names it (relative to the top, with `/`); outside the working tree it is an error. */
async function inRepository(root: string, absolute: string, ref: string): Promise<string> {
  const real = await realpath(absolute).catch(() => absolute);
  const relative = path.relative(root, real);
  if (!relativeLeadsInside(relative))
    throw failure(`--policies-from ${ref}: ${absolute} is outside the git working tree ${root}`);
  return relative.split(path.sep).join('/');
}

async function git(root: string, args: readonly string[], ref: string): Promise<string> {
  try {
    return await runGit(root, args);
  } catch (error) {
    const why = error instanceof GitError ? error.stderr : String(error);
    throw failure(`--policies-from ${ref}: git ${args[0] ?? ''} failed: ${why}`);
  }
}

/** Exit 1, the code first in the message (the command line prints the message alone). */
function failure(message: string): SwitchboardError {
  return new SwitchboardError(POLICIES_FROM_ERROR, `${POLICIES_FROM_ERROR}: ${message}`);
}
