/**
 * What a plain `plan` loads is its start (docs/performance.md): the run layer's modules it
 * uses, not export's or apply's run; no HTML report; re2js, csv-parse and pino only when a
 * pattern, a quoted CSV file or a line to log asks for them.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliModules, sourcesOf } from './loaded-modules.js';

const TENANT = `apiVersion: switchboard/v1
kind: Tenant
metadata:
  name: solo-corp
  reseller: north
spec:
  billingId: SOLO-1
  markup: 1
`;

/**
 * `plan --sim` of one tenant in a temporary folder, with `env` added: the URLs of the modules
 * it loaded, and as `loaded` each from the package's root (its first dist/ or node_modules/).
 */
async function planModules(env: Record<string, string> = {}): Promise<{ urls: string[]; loaded: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-plan-modules-'));
  try {
    await mkdir(join(dir, 'manifests'));
    await writeFile(join(dir, 'manifests', 'tenant.yaml'), TENANT);
    const { stdout, urls } = await cliModules(dir, ['plan', 'manifests', '--sim', '--no-cache'], env);
    expect(stdout).toContain('Plan: 1 to create');
    return { urls, loaded: urls.map((u) => u.replace(/^.*?\/(dist|node_modules)\//, '$1/')) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('what plan loads', () => {
  it('leaves out export, apply runs, the HTML report, re2js, csv-parse and pino when nothing asks for them', async () => {
    // From the ES modules, whose chunks say what was loaded (the CommonJS bundle is one file).
    const { urls, loaded } = await planModules({ SWITCHBOARD_NO_CODE_CACHE: '1' });
    const sources = await sourcesOf(urls.filter((u) => /\/dist\/cli\/bundle\/[^/]+\.js$/.test(u)));
    // The plan ran from the bundle; what the validators require and undici's Pool, as CommonJS (the hook sees those).
    expect(sources).toContain('src/run/plan.ts');
    expect(loaded).toContain('node_modules/ajv/dist/runtime/equal.js');
    expect(loaded).toContain('node_modules/undici/lib/dispatcher/pool.js');
    expect(
      sources.filter((f) => /^src\/(export\/|run\/(export|apply|baselines)\.ts|plan\/(render-html|html\/))/.test(f)),
    ).toEqual([]);
    expect(loaded.filter((u) => /^node_modules\/(re2js|csv-parse|pino)\//.test(u))).toEqual([]);
    expect(loaded.filter((u) => /^dist\/plan\/html\//.test(u))).toEqual([]);
  });

  it('from the code-cached bundle, requires no re2js, csv-parse, pino nor undici outside it, and no HTML report', async () => {
    const { loaded } = await planModules();
    // No ES module of the split bundle: the plan ran from dist/cli/cached/ (test/e2e/cli-code-cache.test.ts).
    expect(loaded.filter((u) => u.startsWith('dist/cli/bundle/'))).toEqual([]);
    expect(loaded).toContain('node_modules/ajv/dist/runtime/equal.js');
    // undici's Pool is in the bundle, and its cache.
    expect(loaded.filter((u) => /^node_modules\/(re2js|csv-parse|pino|undici)\//.test(u))).toEqual([]);
    expect(loaded.filter((u) => /^dist\/plan\/html\//.test(u))).toEqual([]);
  });
});
