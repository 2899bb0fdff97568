/**
 * The HTML report in a real browser: Debian's Chromium, headless, driven by playwright-core
 * (no browser download). Filters and search change what is shown, the keyboard reaches
 * them, hostile values stay text, the agreed optional fields show, manifest positions link
 * to the commit, no request leaves the page, and plans of 1,000 and 100,000 changes open
 * in under 3 s. Screenshots and timings go to test/output/html-report/ (not committed).
 *
 * Without Chromium the test says so and is skipped, except in CI (`CI` set), where it
 * fails: .ci/run installs Chromium. SWITCHBOARD_CHROMIUM names another binary.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePlanFile } from '../../src/plan/plan-file.js';
import { HOSTILE, agreedFieldsPlan, hostilePlan } from '../fixtures/plans/sample-plan.js';
import { runCli } from './cli-helpers.js';
import { bigPlan, builtHtml } from './html-helpers.js';

const OUTPUT = resolve(import.meta.dirname, '../output/html-report');
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const LOAD_BUDGET_MS = 3_000;

function findChromium(): string | undefined {
  const candidates = [process.env['SWITCHBOARD_CHROMIUM'], '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((c): c is string => typeof c === 'string' && c !== '' && existsSync(c));
}

const CHROMIUM = findChromium();
if (!CHROMIUM && !process.env['CI']) {
  process.stderr.write(
    'SKIPPED test/e2e/html-report.test.ts: no Chromium found (/usr/bin/chromium or SWITCHBOARD_CHROMIUM); ' +
      'install it with `apt-get install chromium` to run the HTML report in a browser.\n',
  );
}

interface Opened {
  page: Page;
  /** Every URL the page asked for. */
  requests: string[];
  /** Milliseconds from navigation start until the report's lists were built. */
  readyMs: number;
  problems: string[];
}

describe.skipIf(!CHROMIUM && !process.env['CI'])('the HTML report in headless Chromium', () => {
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    if (!CHROMIUM)
      throw new Error('CI needs Chromium for the HTML report test: .ci/run installs it (apt-get install chromium)');
    await mkdir(OUTPUT, { recursive: true });
    profile = await mkdtemp(join(OUTPUT, 'profile-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  /** Opens a report, every request recorded (and any but the report itself refused). */
  async function open(file: string): Promise<Opened> {
    const page = await context.newPage();
    const url = pathToFileURL(file).href;
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => void requests.push(request.url()));
    page.on('websocket', (socket) => void requests.push(socket.url()));
    page.on('pageerror', (error) => void problems.push(`page error: ${error.message}`));
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
    await page.goto(url);
    await page.waitForSelector('html[data-ready]', { timeout: 30_000 });
    const readyMs = Number(await page.getAttribute('html', 'data-ready'));
    return { page, requests, readyMs, problems };
  }

  const status = (page: Page) => page.textContent('#change-status');

  it('filters by action and kind, searches, and is driven from the keyboard', { timeout: 90_000 }, async () => {
    const file = join(OUTPUT, 'sample.html');
    const planFile = join(OUTPUT, 'sample.plan.json');
    await writePlanFile(planFile, hostilePlan(agreedFieldsPlan()));
    const env = {
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/platform',
      GITHUB_SHA: SHA,
      GITHUB_WORKSPACE: OUTPUT,
    };
    const shown = await runCli(['show', planFile, '--format', 'html'], { env, cwd: OUTPUT });
    expect(shown.code, shown.stderr).toBe(0);
    await writeFile(file, shown.stdout);
    const { page, requests, problems } = await open(file);

    expect(await status(page)).toBe('Showing all 56 changes.');
    await page.screenshot({ path: join(OUTPUT, 'sample-desktop.png'), fullPage: true });

    // By action: creates left out.
    await page.getByRole('checkbox', { name: 'create (47)' }).uncheck();
    expect(await status(page)).toBe('Showing 9 of 56 changes (filtered).');
    expect(await page.locator('details.change.a-create').count()).toBe(0);
    // By kind: routing rows left out too.
    await page.getByRole('checkbox', { name: 'RoutingRow (50)' }).uncheck();
    expect(await status(page)).toBe('Showing 4 of 56 changes (filtered).');
    // Reset, then search from the keyboard: / focuses the search, Escape clears it.
    await page.getByRole('button', { name: 'Show everything' }).click();
    await page.waitForFunction(() => document.querySelector('#change-status')?.textContent?.startsWith('Showing all'));
    await page.locator('body').press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');
    await page.keyboard.type('standby 3221239049');
    await page.waitForFunction(() => document.querySelector('#change-status')?.textContent?.includes('1 of 56'));
    expect(await page.locator('details.change .addr').allTextContents()).toEqual([
      'routing/draas/standby/routes/number=+3221239049',
    ]);
    await page.keyboard.press('Escape');
    expect(await status(page)).toBe('Showing all 56 changes.');
    // A checkbox toggled from the keyboard filters as a click does.
    await page.getByRole('checkbox', { name: 'delete (3)' }).focus();
    await page.keyboard.press('Space');
    expect(await status(page)).toBe('Showing 53 of 56 changes (filtered).');
    await page.keyboard.press('Space');

    // Hostile values are text: no element came from them, no script ran.
    expect(await page.locator('img').count()).toBe(0);
    const hostile = page.locator('details.change', { hasText: HOSTILE.address }).first();
    await hostile.locator('summary').click();
    await hostile.locator('.body').waitFor();
    expect(await hostile.locator('.kind').first().textContent()).toBe(HOSTILE.kind);
    expect(await hostile.textContent()).toContain(HOSTILE.message);

    // The agreed optional fields: a rename, a policy rule and its source, capacity, overrides.
    const renamed = page.locator('details.change', { hasText: 'tenant/acme-corp' }).first();
    await renamed.locator('summary').click();
    await renamed.locator('.body').waitFor();
    expect(await renamed.textContent()).toContain('Renamed fromtenant/acme-old');
    expect(await renamed.locator('a[href]').first().getAttribute('href')).toBe(
      `https://github.com/acme/platform/blob/${SHA}/tenants/acme.yaml#L1`,
    );
    const policy = page.locator('#refusal-list li', { hasText: 'policy pricing/markup' });
    expect(await policy.textContent(), (await policy.textContent()) ?? '').toContain('(policy rule pricing/markup)');
    expect(await policy.locator('a').getAttribute('href')).toBe(
      `https://github.com/acme/platform/blob/${SHA}/policies/pricing.yaml#L7`,
    );
    expect(await page.locator('#capacity tbody tr').count()).toBe(2);
    expect(await page.textContent('main')).toContain('Policy rules overridden (--allow-policy)');
    // The refusal reasons of a change are shown with it.
    const refused = page.locator('details.change', { hasText: 'tenant/old-co' }).first();
    await refused.locator('summary').click();
    await refused.locator('.body').waitFor();
    expect(await refused.textContent()).toContain('Refused: SB_PERMISSION');

    // Landmarks and headings for assistive technology.
    expect(await page.locator('header, main, footer').count()).toBe(3);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.getByRole('search').count()).toBe(1);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(OUTPUT, 'sample-phone.png'), fullPage: false });
    // Nothing wider than the phone's screen: the page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    expect(problems).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    await page.close();
  });

  it(
    'opens plans of 1,000 and 100,000 changes in under 3 s, lazily, and filters them',
    { timeout: 180_000 },
    async () => {
      const timings: Record<string, { readyMs: number; bytes: number }> = {};
      for (const n of [1_000, 100_000]) {
        const file = join(OUTPUT, `plan-${n}.html`);
        await builtHtml(bigPlan(n), file);
        const { page, requests, readyMs, problems } = await open(file);
        timings[String(n)] = { readyMs, bytes: (await stat(file)).size };
        expect(problems).toEqual([]);
        expect(requests).toEqual([pathToFileURL(file).href]);
        expect(await status(page)).toBe(`Showing all ${n} changes.`);
        // Lazily: a few hundred entries are built, not n.
        expect(await page.locator('details.change').count()).toBeLessThan(1_000);
        expect(readyMs, `${n} changes ready after ${readyMs} ms`).toBeLessThan(LOAD_BUDGET_MS);
        // Deletes first, and the filter over every change.
        expect(await page.locator('details.change').first().getAttribute('class')).toContain('a-delete');
        await page.getByRole('checkbox', { name: `create (${(n * 7) / 10})` }).uncheck();
        await page.getByRole('checkbox', { name: `update (${(n * 2) / 10})` }).uncheck();
        expect(await status(page)).toBe(`Showing ${n / 10} of ${n} changes (filtered).`);
        await page.getByRole('button', { name: 'Show everything' }).click();
        await page.fill('#search', `+3222${String(n - 2).padStart(7, '0')}`);
        await page.waitForFunction(() => document.querySelector('#change-status')?.textContent?.includes(' 1 of '));
        // Scrolling to the end of the list builds the next entries.
        await page.fill('#search', '');
        await page.waitForFunction(() =>
          document.querySelector('#change-status')?.textContent?.startsWith('Showing all'),
        );
        const before = await page.locator('details.change').count();
        await page.locator('.sentinel').scrollIntoViewIfNeeded();
        await page.waitForFunction((count) => document.querySelectorAll('details.change').length > count, before);
        if (n === 100_000) await page.screenshot({ path: join(OUTPUT, 'plan-100000.png') });
        await page.close();
      }
      await writeFile(join(OUTPUT, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
      process.stderr.write(`HTML report load times and sizes: ${JSON.stringify(timings)}\n`);
    },
  );
});
