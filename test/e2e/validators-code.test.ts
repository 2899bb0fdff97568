/**
 * The code cache `npm run build` writes beside the precompiled validators is the one V8 takes
 * for them in a plain `node` process, as the CLI starts (src/core/code-cache.ts).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRECOMPILED_DIGEST_EXPORT, validatorIds } from '../../src/manifest/schemas.js';
import { requireAlone } from './code-cache-alone.js';

const root = path.resolve(import.meta.dirname, '../..');

const built = path.join(root, 'dist/manifest/validators.generated.cjs');

/** The validators' module through its cache in a fresh process: whether V8 took the cache, and the exports. */
function loadAlone(file: string): { accepted?: boolean; exports: string[] } {
  const { accepted, exports } = requireAlone(
    file,
    `const tenant = loaded?.exports['tenant.schema.json'];
    if (tenant && tenant({ kind: 'Tenant' })) throw new Error('a tenant without metadata passed');`,
  );
  return { accepted, exports: Object.keys(exports).sort() };
}

describe("the build's validators code cache", () => {
  it('is taken by V8 for the validators the build compiled, in a process as the CLI starts', () => {
    const { accepted, exports } = loadAlone(built);
    expect(accepted).toBe(true);
    expect(exports).toEqual([PRECOMPILED_DIGEST_EXPORT, ...validatorIds()].sort());
  });

  it('refused by V8 (its payload length word is past its end), leaves the validators compiled afresh', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-code-cache-'));
    try {
      // What the module requires (ajv's runtime, ajv-formats), found as from the package.
      symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
      const file = path.join(dir, 'validators.generated.cjs');
      copyFileSync(built, file);
      const cache = readFileSync(built.replace(/\.cjs$/, '.v8cache'));
      // V8's header words (code-serializer.h): magic, version, source, flags, then the payload's length,
      // which V8 checks (switchboard checks the words before it, and would not try this cache otherwise).
      const lengthWord = cache.indexOf(10) + 1 + 16;
      const refused = Buffer.from(cache);
      refused.fill(0xff, lengthWord, lengthWord + 4); // longer than the payload: V8 refuses it
      writeFileSync(path.join(dir, 'validators.generated.v8cache'), refused);
      const { accepted, exports } = loadAlone(file);
      expect(accepted).toBe(false);
      expect(exports).toEqual([PRECOMPILED_DIGEST_EXPORT, ...validatorIds()].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
