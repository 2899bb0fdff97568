/**
 * `switchboard init [DIR]`: the files of a manifests repository, checked all at once
 * against what is there, then written: into an existing repository they merge (see
 * scaffold). Nothing is replaced without `force`; an existing package.json is kept as it is
 * (`npm install --save-dev` of switchboard's tarball usually comes first).
 */
import { lstat, mkdir, readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { CONFIG_FILE_NAME } from '../config/load-connection.js';
import { SwitchboardError } from '../core/errors.js';
import { writeFileSafely } from '../core/safe-write.js';
import { realExisting } from '../core/real-existing.js';
import { WORKFLOW_TEMPLATES_DIR } from '../core/package.js';
import { INSTALLED_SCHEMAS, schemaModeline, schemasDirFor } from '../manifest/schema-location.js';
import { SCHEMA_FILES } from '../manifest/schemas.js';
import * as templates from './templates.js';
import { relativeLeadsInside } from '../core/path-inside.js';

/** The workflow templates (and Dependabot's configuration for their pinned actions) and their names in the new repository. */
export const WORKFLOWS: Record<string, string> = {
  'plan.yml': '.github/workflows/switchboard-plan.yml',
  'apply.yml': '.github/workflows/switchboard-apply.yml',
  'drift.yml': '.github/workflows/switchboard-drift.yml',
  '../dependabot.yml': '.github/dependabot.yml',
};

export interface ScaffoldFile {
  /** Relative to the repository, forward slashes. */
  path: string;
  text: string;
}

/**
 * What init does with one file: `created` (it was missing), `updated` (an existing file
 * gained what init needs: `.gitignore` lines, the README's switchboard section, the
 * package.json devDependency), `kept` (it already holds that), `replaced` (it differed and
 * `--force` replaced it), `conflict` (it differs and nothing is written without `--force`).
 */
export type ScaffoldOutcome = 'created' | 'updated' | 'kept' | 'replaced' | 'conflict';

export interface ScaffoldResult {
  dir: string;
  /** `detail`: what an update adds (the `.gitignore` lines). */
  files: { path: string; outcome: ScaffoldOutcome; detail?: string }[];
  /** True when nothing was written (`dryRun`). */
  dryRun: boolean;
}

/** The README's own part, between these lines: a README that exists keeps everything else. */
const README_BEGIN =
  '<!-- switchboard:begin (written by switchboard init; it replaces what lies between these lines) -->';
const README_END = '<!-- switchboard:end -->';

/** The schema file of a document kind (the starter manifests are a Group and a Tenant document). */
function schemaFileOf(kind: string): string {
  const file = SCHEMA_FILES[kind];
  if (!file) throw new Error(`no schema file for document kind ${kind}`);
  return file;
}

/** Every file init writes into `dir`, with its text. */
async function scaffoldFiles(dir: string): Promise<ScaffoldFile[]> {
  const root = path.resolve(dir);
  // Where `npm ci` puts the schemas (or vendored ones found above `dir`): modelines and the
  // editor settings point there, so they resolve in every clone, not only on this machine.
  const schemas = schemasDirFor(root, schemaFileOf('Tenant'), path.join(root, INSTALLED_SCHEMAS));
  const modeline = (file: string, schemaFile: string): string =>
    schemaModeline(path.join(root, file), schemas, schemaFile);
  const relativeSchemas = path.relative(root, schemas).split(path.sep).join('/');
  const group = `${templates.MANIFESTS_DIR}/group.yaml`;
  const tenant = `${templates.MANIFESTS_DIR}/tenants/example-tenant.yaml`;
  const files: ScaffoldFile[] = [
    { path: 'package.json', text: templates.packageJson(templates.packageName(path.basename(root))) },
    { path: CONFIG_FILE_NAME, text: templates.configYaml() },
    { path: group, text: templates.groupYaml(modeline(group, schemaFileOf('Group'))) },
    { path: tenant, text: templates.tenantYaml(modeline(tenant, schemaFileOf('Tenant'))) },
    { path: '.vscode/settings.json', text: templates.vscodeSettings(relativeSchemas) },
    { path: '.vscode/extensions.json', text: templates.vscodeExtensions() },
    { path: '.gitignore', text: templates.gitignore() },
    { path: 'README.md', text: templates.readme() },
  ];
  for (const [template, target] of Object.entries(WORKFLOWS)) {
    files.push({ path: target, text: await readFile(path.join(WORKFLOW_TEMPLATES_DIR, template), 'utf8') });
  }
  return files;
}

/** One file's plan: its outcome and, when something is written, the text. */
interface Step {
  file: ScaffoldFile;
  outcome: ScaffoldOutcome;
  text?: string;
  detail?: string;
}

/**
 * Writes the scaffold into `dir`, merging with what is there: a missing file is created,
 * `.gitignore` gains its missing lines, an existing README.md gains (or has replaced) its
 * switchboard section, an existing package.json is kept as it is
 * (init never adds switchboard to it as a registry version: templates.INSTALL_COMMAND says
 * why); any other file that exists
 * with other content is a conflict. Conflicts refuse the whole run (SB_INIT_EXISTS, nothing
 * written) unless `force`, which replaces them and lists them. Every target is checked
 * before anything is written: one that is not a regular file, or whose folder leads
 * outside `dir` through a symbolic link, refuses the run. `dryRun` writes nothing.
 */
export async function scaffold(dir: string, options: { force: boolean; dryRun?: boolean }): Promise<ScaffoldResult> {
  const root = path.resolve(dir);
  // The folder, or the nearest part of its path that exists, must be a folder (`init FILE/sub`).
  for (let at = root; ; at = path.dirname(at)) {
    const info = await stat(at).catch(() => undefined);
    if (info?.isDirectory()) break;
    if (info || path.dirname(at) === at)
      throw new SwitchboardError('SB_INIT_DIR', `${at} is not a folder: give init the folder of the repository`);
  }
  const files = await scaffoldFiles(root);
  await checkTargets(root, files);
  const steps: Step[] = [];
  for (const file of files) steps.push(await stepFor(root, file, options.force));
  const conflicts = steps.filter((s) => s.outcome === 'conflict');
  if (conflicts.length > 0 && !options.force && !options.dryRun) {
    throw new SwitchboardError(
      'SB_INIT_EXISTS',
      `${conflicts.length === 1 ? 'this file exists' : 'these files exist'} in ${root} with other content: ` +
        `${conflicts.map((s) => s.file.path).join(', ')}. Nothing was written: move them away, or run init again ` +
        'with --force to replace them (--dry-run lists what init would do). .gitignore and README.md are ' +
        'merged, never replaced; an existing package.json is always kept as it is.',
    );
  }
  const result: ScaffoldResult = { dir: root, files: [], dryRun: options.dryRun === true };
  for (const step of steps) {
    if (!options.dryRun && step.text !== undefined) {
      const target = path.join(root, step.file.path);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFileSafely(target, step.text);
    }
    result.files.push({ path: step.file.path, outcome: step.outcome, ...(step.detail ? { detail: step.detail } : {}) });
  }
  return result;
}

/** What init does with `file` given what is at its path. */
async function stepFor(root: string, file: ScaffoldFile, force: boolean): Promise<Step> {
  const target = path.join(root, file.path);
  const existing = await readFile(target, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new SwitchboardError('SB_INIT_READ', `cannot read ${target}: ${error.message}`);
  });
  if (existing === undefined) return { file, outcome: 'created', text: file.text };
  if (file.path === 'package.json') return packageJsonStep(file, target, existing);
  if (file.path === '.gitignore') {
    const have = new Set(existing.split(/\r?\n/).map((l) => l.trim()));
    const missing = file.text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#') && !have.has(l.trim()));
    if (missing.length === 0) return { file, outcome: 'kept' };
    const text = `${existing}${existing.endsWith('\n') || existing === '' ? '' : '\n'}# switchboard\n${missing.join('\n')}\n`;
    return { file, outcome: 'updated', text, detail: `adds ${missing.join(' ')}` };
  }
  if (file.path === 'README.md') return readmeStep(file, existing);
  if (existing === file.text) return { file, outcome: 'kept' };
  return force ? { file, outcome: 'replaced', text: file.text } : { file, outcome: 'conflict' };
}

/** The README keeps its text; the switchboard section is added at its end, or replaced where it is. */
function readmeStep(file: ScaffoldFile, existing: string): Step {
  const section = `${README_BEGIN}\n${file.text.trimEnd()}\n${README_END}\n`;
  const begin = existing.indexOf(README_BEGIN);
  const end = existing.indexOf(README_END);
  let text: string;
  if (begin >= 0 && end > begin)
    text = existing.slice(0, begin) + section + existing.slice(end + README_END.length).replace(/^\n/, '');
  else text = `${existing}${existing.endsWith('\n') || existing === '' ? '' : '\n'}\n${section}`;
  if (text === existing) return { file, outcome: 'kept' };
  return {
    file,
    outcome: 'updated',
    text,
    detail: begin >= 0 ? 'replaces its switchboard section' : 'adds a switchboard section at the end',
  };
}

/**
 * An existing package.json is kept as it is: init never adds switchboard to it as a registry
 * version (templates.INSTALL_COMMAND says why); `npm install --save-dev` of the tarball does.
 * It must still be JSON: a broken one is said now, not at the first `npm ci`.
 */
function packageJsonStep(file: ScaffoldFile, target: string, existing: string): Step {
  readPackageJson(target, existing);
  return { file, outcome: 'kept' };
}

/**
 * Every target is a regular file or missing, and its folder (once created) is inside `root`:
 * a symbolic link planted in the repository (`.github -> /etc`, `README.md -> ~/.bashrc`)
 * refuses the run before anything is written.
 */
async function checkTargets(root: string, files: readonly ScaffoldFile[]): Promise<void> {
  const realRoot = await realpath(root).catch(() => root);
  const problems: string[] = [];
  for (const file of files) {
    const target = path.join(root, file.path);
    const info = await lstat(target).catch(() => undefined);
    if (info && !info.isFile()) {
      problems.push(
        `${file.path} is ${info.isSymbolicLink() ? 'a symbolic link' : info.isDirectory() ? 'a folder' : 'not a regular file'}`,
      );
      continue;
    }
    const folder = await realExisting(path.dirname(target));
    const relative = path.relative(realRoot, folder);
    if (!relativeLeadsInside(relative))
      problems.push(`${file.path} would be written in ${folder}, outside ${realRoot} (through a symbolic link)`);
  }
  if (problems.length > 0) {
    throw new SwitchboardError(
      'SB_INIT_TARGET',
      `init writes only regular files inside ${root}: ${problems.join('; ')}. Nothing was written: remove them, then run init again.`,
    );
  }
}

function readPackageJson(file: string, text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  const message = `${file} is not a JSON object: fix it, or move it away and run init again`;
  throw new SwitchboardError('SB_INIT_PACKAGE_JSON', message);
}
