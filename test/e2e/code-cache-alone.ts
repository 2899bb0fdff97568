import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const CODE_CACHE = pathToFileURL(path.resolve(import.meta.dirname, '../../dist/core/code-cache.js')).href;

/**
 * `requireWithCodeCache(file)` (src/core/code-cache.ts) in a `node` process of its own, as
 * the CLI starts: V8 keeps what a process compiled, so only a fresh one shows whether it takes
 * a cache. Whether it did, and each export's type; `check` (JavaScript, `loaded` in scope)
 * runs in that process after the load, and fails the call if it throws.
 */
export function requireAlone(file: string, check = ''): { accepted?: boolean; exports: Record<string, string> } {
  const script = `
    const { requireWithCodeCache } = await import(${JSON.stringify(CODE_CACHE)});
    const loaded = requireWithCodeCache(${JSON.stringify(file)});
    ${check}
    const types = Object.fromEntries(Object.entries(loaded?.exports ?? {}).map(([k, v]) => [k, typeof v]));
    process.stdout.write(JSON.stringify({ accepted: loaded?.accepted, exports: types }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as {
    accepted?: boolean;
    exports: Record<string, string>;
  };
}
