/**
 * `switchboard init [DIR]`: the files of a new manifests repository, checked all at once
 * against what is there, then written. Nothing is overwritten without `force`; a
 * package.json that already depends on switchboard is kept as it is (`npm install
 * --save-dev switchboard` usually comes first).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { CONFIG_FILE_NAME } from '../config/load-connection.js';
import { SwitchboardError } from '../core/errors.js';
import { PACKAGE_NAME, VERSION, WORKFLOW_TEMPLATES_DIR } from '../core/package.js';
import { INSTALLED_SCHEMAS, schemaModeline, schemasDirFor } from '../manifest/schema-location.js';
import { SCHEMA_FILES } from '../manifest/schemas.js';
import * as templates from './templates.js';

/** The workflow templates and the names they get in the new repository. */
export const WORKFLOWS: Record<string, string> = {
  'plan.yml': '.github/workflows/switchboard-plan.yml',
  'apply.yml': '.github/workflows/switchboard-apply.yml',
  'drift.yml': '.github/workflows/switchboard-drift.yml',
};

export interface ScaffoldFile {
  /** Relative to the repository, forward slashes. */
  path: string;
  text: string;
}

export type ScaffoldOutcome = 'created' | 'overwritten' | 'kept' | 'updated';

export interface ScaffoldResult {
  dir: string;
  files: { path: string; outcome: ScaffoldOutcome }[];
}

/** The schema file of a document kind (the starter manifests are a Group and a Tenant document). */
function schemaFileOf(kind: string): string {
  const file = SCHEMA_FILES[kind];
  if (!file) throw new Error(`no schema file for document kind ${kind}`);
  return file;
}

/** Every file init writes into `dir`, with its text. */
export async function scaffoldFiles(dir: string): Promise<ScaffoldFile[]> {
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

/**
 * Writes the scaffold. Refuses (SB_INIT_EXISTS, nothing written) when any file exists,
 * unless `force`; with `force`, an existing package.json only gains the devDependency.
 */
export async function scaffold(dir: string, options: { force: boolean }): Promise<ScaffoldResult> {
  const root = path.resolve(dir);
  const files = await scaffoldFiles(root);
  const existing = files.filter((f) => existsSync(path.join(root, f.path)));
  const hasPackageJson = existing.some((f) => f.path === 'package.json');
  const packageJson = hasPackageJson ? await readPackageJson(path.join(root, 'package.json')) : undefined;
  const keepPackageJson = packageJson !== undefined && dependsOnSwitchboard(packageJson);
  const conflicts = existing.filter((f) => !(f.path === 'package.json' && keepPackageJson));
  if (conflicts.length > 0 && !options.force) {
    throw new SwitchboardError(
      'SB_INIT_EXISTS',
      `${conflicts.length === 1 ? 'this file exists' : 'these files exist'} in ${root}: ` +
        `${conflicts.map((f) => f.path).join(', ')}. ` +
        'Nothing was written: move them away, or run init again with --force to overwrite them ' +
        '(an existing package.json is kept and only gains the switchboard devDependency).',
    );
  }
  const result: ScaffoldResult = { dir: root, files: [] };
  for (const file of files) {
    const target = path.join(root, file.path);
    const exists = existing.includes(file);
    if (file.path === 'package.json' && packageJson !== undefined) {
      if (keepPackageJson) {
        result.files.push({ path: file.path, outcome: 'kept' });
        continue;
      }
      const ours = packageJson['devDependencies'] as Record<string, string> | undefined;
      const devDependencies = { ...ours, [PACKAGE_NAME]: VERSION };
      await writeFile(target, `${JSON.stringify({ ...packageJson, devDependencies }, null, 2)}\n`);
      result.files.push({ path: file.path, outcome: 'updated' });
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.text);
    result.files.push({ path: file.path, outcome: exists ? 'overwritten' : 'created' });
  }
  return result;
}

async function readPackageJson(file: string): Promise<Record<string, unknown>> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  const message = `${file} is not a JSON object: fix it, or move it away and run init again`;
  throw new SwitchboardError('SB_INIT_PACKAGE_JSON', message);
}

function dependsOnSwitchboard(pkg: Record<string, unknown>): boolean {
  return ['dependencies', 'devDependencies'].some((key) => {
    const deps = pkg[key];
    return deps !== null && typeof deps === 'object' && PACKAGE_NAME in deps;
  });
}
