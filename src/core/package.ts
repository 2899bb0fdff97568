import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where this package's own files are, wherever it runs from: a checkout (src/ under vitest,
 * dist/ once built, the CLI's bundle in dist/cli/bundle/) or an installed package
 * (node_modules/switchboard/dist/): the nearest folder above this module with a package.json.
 * No folder of dist/ has one.
 */
function packageRoot(from: string): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return `${dir}/`;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PACKAGE_ROOT = packageRoot(fileURLToPath(import.meta.url));

interface PackageJson {
  name: string;
  version: string;
  engines?: { node?: string };
}

const manifest = JSON.parse(readFileSync(`${PACKAGE_ROOT}package.json`, 'utf8')) as PackageJson;

/** The package name (`switchboard`), as a dependency in a manifests repository names it. */
export const PACKAGE_NAME = manifest.name;
/** The package version, for `version`, `--version`, the plan file's `tool.version` and `init`. */
export const VERSION = manifest.version;
/** The Node.js versions the package supports (`engines.node` of package.json). */
export const NODE_ENGINES = manifest.engines?.node ?? '';

/** The example manifests shipped with the package (`demo` plans them). */
export const EXAMPLES_DIR = `${PACKAGE_ROOT}examples/`;
/** The GitHub workflow templates shipped with the package (`init` copies them). */
export const WORKFLOW_TEMPLATES_DIR = `${EXAMPLES_DIR}.github/workflows/`;
