/**
 * `switchboard compare` with the real CLI on two exports of a simulator, the second with
 * planted differences (docs/compare.md): every format, the exit codes, `--ignore`, and the
 * HTML report in headless Chromium (skipped, with a note, where there is none, as the plan
 * report's test is).
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/sim/index.js';
import { createEveryKind } from '../export/every-kind.js';
import { runCli, simEnv } from './cli-helpers.js';

let base: string;
let a: string;
let b: string;

/** A text replacement in one exported file of B (it must find its text). */
async function plant(file: string, from: string, to: string): Promise<void> {
  const path = join(b, file);
  const text = await readFile(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not hold ${from}`);
  await writeFile(path, text.replace(from, to));
}

beforeAll(async () => {
  const sim = await startSimulator({ port: 0 });
  try {
    await createEveryKind(sim.url);
    base = await mkdtemp(join(tmpdir(), 'switchboard-compare-e2e-'));
    a = join(base, 'a');
    b = join(base, 'b');
    const exported = await runCli(['export', '--out', a], { env: simEnv(sim.url) });
    expect(exported.code).toBe(0);
  } finally {
    await sim.close();
  }
  await cp(a, b, { recursive: true });
  await plant('tenants/acme-corp.yaml', 'markup: 4\n', 'markup: 5\n');
  await plant('tenants/hooli.yaml', 'metadata: { name: hooli,', 'metadata: { name: hooli-2, renamedFrom: [hooli],');
  await plant('tenants/globex.yaml', 'billingId: T-GLOBEX\n', 'billingId: ${GLOBEX_BILLING_ID}\n');
  await plant('groups/demo-group.yaml', 'name: premium 0900', 'name: premium 0900 (all)');
  await plant('tenants/hooli.yaml', '{ type: BE tollfree, entitlement: 3 }', '{ type: BE mobile, entitlement: 3 }');
}, 60_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe('switchboard compare (end to end, real CLI)', () => {
  it('the same export twice: exit 0, "No differences."', async () => {
    const same = await runCli(['compare', a, a]);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('No differences.');
  });

  it(
    'two exports with planted differences: exit 2 in every format, the rename and the sensitive field as such',
    { timeout: 90_000 },
    async () => {
      for (const format of ['text', 'markdown', 'json', 'csv', 'html']) {
        const result = await runCli(['compare', a, b, '--format', format]);
        expect(result.code, format).toBe(2);
        expect(result.stderr, format).toBe('');
        expect(result.stdout, format).not.toContain('GLOBEX_BILLING_ID');
        expect(result.stdout, format).not.toContain('T-GLOBEX"');
      }
      const text = (await runCli(['compare', a, b])).stdout;
      expect(text).toContain('  ~ tenant/acme-corp (Tenant)\n      markup: 4 → 5\n');
      expect(text).toContain('  ~ tenant/hooli-2 (Tenant, renamed from tenant/hooli (metadata.renamedFrom))');
      expect(text).toContain(
        '  ~ tenant/globex (Tenant)\n      billingId: (sensitive) → (sensitive) (values differ)\n',
      );
      expect(text).toContain('  - tenant/hooli/subscription/hq/entitlement/BE tollfree (Entitlement)');
      expect(text).toContain('  + tenant/hooli-2/subscription/hq/entitlement/BE mobile (Entitlement)');
      expect(text).toContain('Compare: 1 added, 1 removed, 1 renamed, 3 changed,');
      const json = JSON.parse((await runCli(['compare', a, b, '--format', 'json'])).stdout) as { summary: object };
      expect(json.summary).toMatchObject({ added: 1, removed: 1, renamed: 1, changed: 3 });
      const csv = parse((await runCli(['compare', a, b, '--format', 'csv'])).stdout, { columns: true });
      expect(csv).toContainEqual(
        expect.objectContaining({ type: 'changed', address: 'tenant/acme-corp', field: 'markup', a: '4', b: '5' }),
      );
    },
  );

  it('--ignore: the differences left, and what was ignored said in the output', async () => {
    const result = await runCli(['compare', a, b, '--ignore', 'markup', '--ignore', 'Prefix.name']);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toContain('markup: 4 → 5');
    expect(result.stdout).toContain(
      'Ignored: --ignore markup hid 1 field difference in 1 object (1 object otherwise the same).',
    );
    expect(result.stdout).toContain(
      'Ignored: --ignore Prefix.name hid 1 field difference in 1 object (1 object otherwise the same).',
    );
  });

  it('exit 1: a tree that does not load (file:line:col), a path that does not exist, an unknown format', async () => {
    const broken = join(base, 'broken');
    await cp(a, broken, { recursive: true });
    await writeFile(join(broken, 'tenants/acme-corp.yaml'), 'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: [\n');
    const bad = await runCli(['compare', a, broken]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/tenants\/acme-corp\.yaml:\d+:\d+: error /);
    expect((await runCli(['compare', a, join(base, 'nowhere')])).code).toBe(1);
    expect((await runCli(['compare', a, b, '--format', 'yaml'])).code).toBe(1);
  });
});

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', process.env['SWITCHBOARD_CHROMIUM']].find(
  (c): c is string => typeof c === 'string' && c !== '' && existsSync(c),
);
if (!CHROMIUM && !process.env['CI'])
  process.stderr.write('SKIPPED the compare report in Chromium (test/e2e/compare.test.ts): no Chromium found.\n');

describe.skipIf(!CHROMIUM && !process.env['CI'])('the compare report in headless Chromium', () => {
  it(
    'lists the differences, filters by type and kind, searches, and asks for nothing',
    { timeout: 90_000 },
    async () => {
      const file = join(base, 'compare.html');
      await writeFile(file, (await runCli(['compare', a, b, '--format', 'html'])).stdout);
      const profile = await mkdtemp(join(tmpdir(), 'switchboard-compare-chromium-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM as string,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      });
      try {
        const page = await context.newPage();
        const url = pathToFileURL(file).href;
        const requests: string[] = [];
        const problems: string[] = [];
        page.on('request', (r) => void requests.push(r.url()));
        page.on('pageerror', (e) => void problems.push(e.message));
        page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
        await page.goto(url);
        const status = () => page.textContent('#difference-status');
        expect(await status()).toBe('6 of 6 objects shown.');
        expect(await page.locator('#difference-list details').count()).toBe(6);
        await page.uncheck('input[name="type"][value="changed"]');
        expect(await status()).toBe('3 of 6 objects shown.');
        await page.click('button[type="reset"]');
        await expect.poll(status).toBe('6 of 6 objects shown.');
        await page.uncheck('input[name="kind"][value="Tenant"]');
        expect(await status()).toBe('3 of 6 objects shown.');
        await page.check('input[name="kind"][value="Tenant"]');
        await page.fill('#search', 'hooli');
        expect(await status()).toBe('3 of 6 objects shown.');
        await page.locator('#difference-list details summary').first().click();
        expect(await page.locator('#difference-list details[open] table').count()).toBe(1);
        expect(requests).toEqual([url]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      }
    },
  );
});
