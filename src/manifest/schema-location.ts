import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { PACKAGE_NAME } from '../core/package.js';
import { SCHEMAS_DIR } from './schemas.js';

/** Where npm installs this package's schemas, relative to a repository's root. */
export const INSTALLED_SCHEMAS = `node_modules/${PACKAGE_NAME}/schemas`;

/**
 * The schemas folder that files written in `dir` should point editors at: walking up from
 * `dir`, the first `schemas/` holding `schemaFile` (switchboard's own checkout, or a
 * repository that vendors the schemas) or `node_modules/switchboard/schemas/` (what npm ci
 * installs in every clone of a manifests repository). Without either, `fallback`: this
 * package's own schemas by default, wherever it runs from.
 */
export function schemasDirFor(dir: string, schemaFile: string, fallback: string = SCHEMAS_DIR): string {
  let current = path.resolve(dir);
  for (;;) {
    for (const candidate of [path.join(current, 'schemas'), path.join(current, INSTALLED_SCHEMAS)]) {
      if (existsSync(path.join(candidate, schemaFile))) return candidate;
    }
    const up = path.dirname(current);
    if (up === current) return path.resolve(fallback);
    current = up;
  }
}

/**
 * The modeline yaml-language-server reads (without the leading `# `): the schema as a
 * path relative to the file itself, with forward slashes, which editors resolve from the
 * file's own folder on every platform.
 */
export function schemaModeline(file: string, schemasDir: string, schemaFile: string): string {
  const relative = path.relative(path.dirname(path.resolve(file)), path.join(schemasDir, schemaFile));
  return `yaml-language-server: $schema=${relative.split(path.sep).join('/')}`;
}
