import * as path from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';

const root = path.resolve(import.meta.dirname, '../..');

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const cwd = process.cwd();
  process.chdir(root);
  // Run in the checkout: no manifest cache (it would be written there, its key in the home).
  process.env['SWITCHBOARD_NO_CACHE'] = '1';
  try {
    const code = await runCli(['node', 'switchboard', ...args], new Command());
    return { code, out };
  } finally {
    delete process.env['SWITCHBOARD_NO_CACHE'];
    process.chdir(cwd);
    vi.restoreAllMocks();
  }
}

describe('switchboard validate', () => {
  afterEach(() => vi.restoreAllMocks());

  it('docs/commands.md: exits 0 on the examples with a one-line summary', async () => {
    const { code, out } = await cli('validate', 'examples/');
    expect(code).toBe(0);
    expect(out.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^OK: 13 files, 78 objects, 1,010 routing rows, 9 policy rules, 8 routing test vectors, 1 change window: valid\.$/,
      ),
    ]);
  });

  it('docs/commands.md: exits 1 and prints file:line:col: error CODE: message lines', async () => {
    const { code, out } = await cli('validate', 'test/fixtures/manifests/broken/types.yaml');
    expect(code).toBe(1);
    const lines = out.trim().split('\n');
    expect(lines[0]).toBe(
      'test/fixtures/manifests/broken/types.yaml:1:13: error SB_API_VERSION: apiVersion must be "switchboard/v1"',
    );
    expect(lines.at(-1)).toMatch(/^FAILED: 1 file, 0 objects: \d+ errors, 0 warnings\.$/);
  });

  it('--format json prints parseable diagnostics', async () => {
    const { code, out } = await cli('validate', '--format', 'json', 'test/fixtures/manifests/broken/kinds.yaml');
    expect(code).toBe(1);
    const parsed = JSON.parse(out) as { diagnostics: { code: string; line: number }[] };
    expect(parsed.diagnostics[0]).toMatchObject({ code: 'SB_UNKNOWN_KIND', line: 2 });
  });
});
