import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Codes } from './codes.js';
import { manifestsRoot } from './manifest-root.js';
import { relativeLeadsInside } from '../core/path-inside.js';
import type { Reporter } from './reporter.js';

/** Manifest files larger than this are refused (a manifest is text written by people). */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
/** CSV files may be bigger (a million routing rows is about 40 MB). */
export const MAX_CSV_BYTES = 256 * 1024 * 1024;

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml']);

/** A file to load: its absolute path, the name diagnostics use (relative to cwd), and its manifests' root. */
export interface ManifestFile {
  absolute: string;
  display: string;
  /** What the files it names must be inside (manifest-root.ts). */
  root: string;
}

/**
 * Files that do not come from the disk (a file's text at an older git commit): `has` says
 * whether the source answers for a path, `read` gives its content, or null when the file
 * does not exist there.
 */
export interface FileSource {
  has(absolute: string): boolean;
  read(absolute: string): Promise<Buffer | null>;
  /**
   * The manifests' root (manifest-root.ts) of a file it answers for, when it knows it: export
   * checks the files it wrote with their folders' roots, found once, not from each of 50,000.
   */
  rootOf?(absolute: string): string | undefined;
}

/** The root a source names for one of its files, when the file is inside it (never a wider one for a file outside). */
function givenRoot(source: FileSource | undefined, absolute: string): string | undefined {
  const root = source?.rootOf?.(absolute);
  return root !== undefined && relativeLeadsInside(path.relative(root, absolute)) ? root : undefined;
}

/** The name a path gets in diagnostics: relative to cwd, with forward slashes. */
function displayPath(absolute: string, cwd: string): string {
  const relative = path.relative(cwd, absolute);
  const shown = relative === '' ? '.' : relative;
  return shown.split(path.sep).join('/');
}

/**
 * Expands the command line's paths: folders recursively (`*.yaml`/`*.yml`, skipping dot
 * folders and node_modules, following symbolic links once), files as given. Each path
 * that cannot be read, and each folder without a manifest, is a diagnostic.
 */
export async function discoverFiles(
  paths: string[],
  cwd: string,
  reporter: Reporter,
  source?: FileSource,
  /** Receives the real path of every folder searched, an empty one too. */
  folders?: Set<string>,
): Promise<ManifestFile[]> {
  const seen = new Set<string>();
  const found: ManifestFile[] = [];
  const roots = new Map<string, string>();
  for (const given of paths.length > 0 ? paths : ['.']) {
    const absolute = path.resolve(cwd, given);
    const shown = displayPath(absolute, cwd);
    const root = givenRoot(source, absolute) ?? (await manifestsRoot(absolute, roots));
    if (source?.has(absolute)) {
      // A file as it was (given by its path): it may no longer exist on disk.
      if (!seen.has(absolute)) found.push({ absolute, display: shown, root });
      seen.add(absolute);
      continue;
    }
    try {
      const info = await stat(absolute);
      if (info.isDirectory()) {
        const before = found.length;
        await walk(absolute, { cwd, root, seen, visited: new Set(), found, ...(folders ? { folders } : {}) });
        if (found.length === before) {
          reporter.error(Codes.noManifests, 'no *.yaml or *.yml manifest in this folder', position(shown));
        }
      } else {
        await addFile(absolute, { cwd, root, seen, visited: new Set(), found });
      }
    } catch (error) {
      reporter.error(Codes.read, `cannot read: ${ioReason(error)}`, position(shown));
    }
  }
  return found.sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}

/** A walk of the paths given: what it found, and where. */
interface Walk {
  cwd: string;
  root: string;
  seen: Set<string>;
  visited: Set<string>;
  found: ManifestFile[];
  folders?: Set<string>;
}

async function walk(dir: string, w: Walk): Promise<void> {
  const real = await realpath(dir);
  if (w.visited.has(real)) return;
  w.visited.add(real);
  w.folders?.add(real);
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      const target = await stat(full).catch(() => undefined);
      isDir = target?.isDirectory() ?? false;
      isFile = target?.isFile() ?? MANIFEST_EXTENSIONS.has(path.extname(entry.name));
    }
    if (isDir) await walk(full, w);
    else if (isFile && MANIFEST_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) {
      await addFile(full, w);
    }
  }
}

async function addFile(absolute: string, w: Walk): Promise<void> {
  const key = await realpath(absolute).catch(() => absolute);
  if (w.seen.has(key)) return;
  w.seen.add(key);
  w.found.push({ absolute, display: displayPath(absolute, w.cwd), root: w.root });
}

/** What reading a file gave: its bytes, or the problem to report where it is named (`what`: its name, or ''). */
export type FileRead = { bytes: Buffer } | { code: string; message: (what: string) => string };

/** Reads a file's bytes for the loader (size cap first); never rejects for the file system's answers. */
export async function fetchFile(absolute: string, maxBytes: number, source?: FileSource): Promise<FileRead> {
  if (source?.has(absolute)) {
    const bytes = await source.read(absolute);
    if (bytes === null) return { code: Codes.read, message: (what) => `cannot read${what}: no such file or directory` };
    return { bytes };
  }
  try {
    const info = await stat(absolute);
    if (!info.isFile()) return { code: Codes.read, message: (what) => `cannot read${what}: not a regular file` };
    if (info.size > maxBytes) return { code: Codes.tooLarge, message: (what) => tooLarge(what, info.size, maxBytes) };
    return { bytes: await readFile(absolute) };
  } catch (error) {
    return { code: Codes.read, message: (what) => `cannot read${what}: ${ioReason(error)}` };
  }
}

/**
 * A file's text for the loader: size cap, no binary content, valid UTF-8, BOM stripped.
 * Undefined (after reporting at `at`) when the file cannot be used.
 */
export function textOf(
  read: FileRead,
  shown: string,
  maxBytes: number,
  reporter: Reporter,
  at = position(shown),
): string | undefined {
  const what = at.file === shown ? '' : ` ${shown}`;
  if ('code' in read) {
    reporter.error(read.code, read.message(what), at);
    return undefined;
  }
  return decodeText(read.bytes, what, maxBytes, reporter, at);
}

/** {@link fetchFile} then {@link textOf}: one file read and checked as text. */
export async function readTextFile(
  absolute: string,
  shown: string,
  maxBytes: number,
  reporter: Reporter,
  at = position(shown),
  source?: FileSource,
): Promise<string | undefined> {
  return textOf(await fetchFile(absolute, maxBytes, source), shown, maxBytes, reporter, at);
}

function tooLarge(what: string, size: number, maxBytes: number): string {
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `file${what} is ${mb(size)}, above the ${mb(maxBytes)} limit`;
}

/** A file's bytes as text: size cap, no binary content, valid UTF-8, BOM stripped. */
function decodeText(
  bytes: Buffer,
  what: string,
  maxBytes: number,
  reporter: Reporter,
  at: { file: string; line: number; column: number },
): string | undefined {
  if (bytes.length > maxBytes) {
    reporter.error(Codes.tooLarge, tooLarge(what, bytes.length, maxBytes), at);
    return undefined;
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    reporter.error(
      Codes.binary,
      `binary content${what ? ` in${what}` : ''} (NUL byte at offset ${nul}); expected UTF-8 text`,
      at,
    );
    return undefined;
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    reporter.error(Codes.binary, `${what ? `${what.trim()} is ` : ''}not valid UTF-8 text`, at);
    return undefined;
  }
}

function position(file: string): { file: string; line: number; column: number } {
  return { file, line: 1, column: 1 };
}

/** A short reason for a file-system error: "no such file or directory" rather than a stack. */
function ioReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a folder';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'ELOOP':
      return 'too many symbolic links';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
