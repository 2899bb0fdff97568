/**
 * The HTML report in a real browser: Debian's Chromium, headless, driven by playwright-core
 * (no browser download). Filters and search change what is shown, the keyboard reaches
 * them, hostile values stay text, the agreed optional fields show, manifest positions link
 * to the commit, no request leaves the page, and plans of 1,000 and 100,000 changes open
 * lazily (a few hundred entries built, not one per change). Printed to PDF, a plan of 1,077 changes keeps every change, opened (the PDF's
 * text is read back), and says what a filtered printout leaves out; each refused change links
 * to its refusal and back; no table header breaks inside a word, on a phone or on paper
 * (the words' boxes are measured). Screenshots, PDFs and load times go to a temporary folder,
 * named on stderr; the times are printed, not asserted (a budget on a shared machine fails for
 * the neighbours' sake).
 *
 * Without Chromium the test says so and is skipped, except in CI (`CI` set), where it
 * fails: .ci/run installs Chromium. SWITCHBOARD_CHROMIUM names another binary.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePlanFile } from '../../src/plan/plan-file.js';
import {
  HOSTILE,
  INVISIBLE_NAMES,
  agreedFieldsPlan,
  hostilePlan,
  invisiblePlan,
} from '../fixtures/plans/sample-plan.js';
import { runCli } from './cli-helpers.js';
import { bigPlan, builtHtml, pdfText, refusedPlan } from './html-helpers.js';

let OUTPUT = '';
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

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
    OUTPUT = await mkdtemp(join(tmpdir(), 'sb-html-report-'));
    process.stderr.write(`HTML report test: screenshots, PDFs and load times in ${OUTPUT}\n`);
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
  const squeezed = (text: string | null): string => (text ?? '').replace(/\s+/g, '');

  /** Words of table headers (`th`) laid out on more than one line: a header broken mid-word. */
  const brokenHeaderWords = (page: Page): Promise<{ words: number; broken: string[] }> =>
    page.evaluate(() => {
      const broken: string[] = [];
      let words = 0;
      for (const th of Array.from(document.querySelectorAll('th'))) {
        const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const lines = new Set(
              Array.from(range.getClientRects())
                .filter((r) => r.width > 0)
                .map((r) => Math.round(r.top)),
            );
            words++;
            if (lines.size > 1) broken.push(`${match[0]} (${th.closest('table')?.parentElement?.id || 'table'})`);
          }
        }
      }
      return { words, broken };
    });

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
    // On its address: the badge beside it leads to the refusal instead (below).
    await refused.locator('summary .addr').click();
    await refused.locator('.body').waitFor();
    expect(await refused.textContent()).toContain('Refused: SB_PERMISSION');
    // A replace says, as data, which field forces it.
    const replaced = page.locator('details.change.a-replace').first();
    await replaced.locator('summary').click();
    await replaced.locator('.body').waitFor();
    expect(await replaced.textContent()).toContain('Reason codeimmutable-fieldForces replacementuc');

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
    'prints every change of a 1,077-change plan, opened, and says on screen and on paper what a printout leaves out',
    {
      timeout: 240_000,
    },
    async () => {
      const plan = refusedPlan(1_077);
      const file = join(OUTPUT, 'print-1077.html');
      await builtHtml(plan, file);
      const { page, problems, requests } = await open(file);
      const note = await page.textContent('#print-note');
      expect(note).toContain('holds all 1077 changes, each opened');

      const started = Date.now();
      const pdf = await page.pdf({ format: 'A4', path: join(OUTPUT, 'print-1077.pdf') });
      const printMs = Date.now() - started;
      const text = squeezed(pdfText(pdf));
      const missing = plan.changes.filter((c) => !text.includes(squeezed(c.address))).map((c) => c.address);
      expect(missing, `${missing.length} changes missing from the PDF`).toEqual([]);
      // Each change printed opened: its field table's heading, once per change.
      expect(text.split('Beforeandafter').length - 1).toBe(plan.changes.length);
      expect(text).toContain(squeezed(note));
      // After printing, the changes opened for it close again.
      expect(await page.locator('details.change[open]').count()).toBe(0);

      // Print media from a maker that sends no print event: the printout says it is not the whole plan.
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('#print-unprepared').isVisible()).toBe(true);
      expect(await page.locator('#print-note').isVisible()).toBe(false);
      // With the event a browser's Print sends: every change built and opened, every refusal listed.
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      expect(await page.locator('#change-list details.change[open] > .body').count()).toBe(plan.changes.length);
      expect(await page.locator('#refusal-list li').count()).toBe(plan.errors.length);
      expect(await page.locator('form.filters').isVisible()).toBe(false);
      expect(await page.locator('#print-unprepared').isVisible()).toBe(false);
      expect(await page.locator('#print-note').isVisible()).toBe(true);
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
      await page.emulateMedia({ media: 'screen' });

      // Filtered: the note says what is left out, on screen and then on paper.
      await page.getByRole('checkbox', { name: 'RoutingRow (200)' }).uncheck();
      const partial = await page.textContent('#print-note');
      expect(partial).toContain("holds 877 of the plan's 1077 changes: the filters leave 200 out");
      expect(await page.locator('#print-note').isVisible()).toBe(true);
      const filtered = squeezed(pdfText(await page.pdf({ format: 'A4' })));
      expect(filtered).toContain(squeezed(partial));
      expect(filtered).not.toContain(squeezed(plan.changes.at(-1)?.address ?? '-'));

      expect(problems).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
      process.stderr.write(`HTML report printed to PDF: 1,077 changes, ${pdf.length} bytes, ${printMs} ms\n`);
      await page.close();
    },
  );

  it(
    'shows names with invisible characters escaped, in the list, the details and the warnings',
    { timeout: 90_000 },
    async () => {
      const file = join(OUTPUT, 'invisible.html');
      const planFile = join(OUTPUT, 'invisible.plan.json');
      await writePlanFile(planFile, invisiblePlan());
      const shown = await runCli(['show', planFile, '--format', 'html'], { cwd: OUTPUT });
      expect(shown.code, shown.stderr).toBe(0);
      await writeFile(file, shown.stdout);
      const { page, problems } = await open(file);
      const first = page.locator('details.change', { hasText: 'tenant/glo\\u00adbex' }).first();
      await first.locator('summary').click();
      await first.locator('.body').waitFor();
      const addresses = await page.locator('details.change .addr').allTextContents();
      expect(addresses).toEqual(
        expect.arrayContaining(['tenant/acme-corp\\udb40\\udc20\\udb40\\udc41', 'tenant/x\\u061cy']),
      );
      const body = (await page.textContent('main')) ?? '';
      expect(body).toContain('created next to the live tenant/acme-c\\u034forp');
      for (const name of INVISIBLE_NAMES) expect(body).not.toContain(name.slice('tenant/'.length));
      expect(problems).toEqual([]);
    },
  );

  it('links each refused change to its refusal and back, on screen and in print', { timeout: 90_000 }, async () => {
    const plan = refusedPlan(1_077);
    const file = join(OUTPUT, 'refused-1077.html');
    await builtHtml(plan, file);
    const { page, problems } = await open(file);
    const named = plan.errors.flatMap((e, k) => (e.address === undefined ? [] : [{ k, address: e.address }]));
    expect(named.length).toBeGreaterThan(2);
    for (const { k, address } of named) {
      const index = plan.changes.findIndex((c) => c.address === address);
      // From the refusal to its change (built on demand: two are far down the lazy list).
      const back = page.locator(`#refusal-${k} a.to-change`);
      expect(await back.getAttribute('href')).toBe(`#change-${index}`);
      await back.click();
      const change = page.locator(`details#change-${index}`);
      expect(await change.getAttribute('open')).not.toBeNull();
      expect(await change.locator('.addr').first().textContent()).toBe(address);
      expect(await change.locator('summary').evaluate((s) => s === document.activeElement)).toBe(true);
      // And back: the change's badge names the refusal and leads to it, without closing the change.
      const badge = change.locator(`summary a.refused[href="#refusal-${k}"]`);
      expect(await badge.textContent()).toBe(`refused ${plan.errors[k]?.code}`);
      await badge.click();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(`refusal-${k}`);
      expect(await change.getAttribute('open')).not.toBeNull();
    }
    // A refusal of the plan as a whole names no change: no link.
    const whole = plan.errors.findIndex((e) => e.address === undefined);
    expect(await page.locator(`#refusal-${whole} a.to-change`).count()).toBe(0);
    // In print every link's target is on the page (the PDF keeps them as internal links).
    await page.emulateMedia({ media: 'print' });
    const dangling = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLAnchorElement>('a.refused, a.to-change'))
        .map((a) => a.getAttribute('href') ?? '')
        .filter((href) => !document.getElementById(href.slice(1))),
    );
    expect(dangling).toEqual([]);
    expect(await page.locator('a.refused').count()).toBe(named.length);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('breaks no table header inside a word, on a desktop, on a phone and on paper', { timeout: 90_000 }, async () => {
    const file = join(OUTPUT, 'headers.html');
    await builtHtml(refusedPlan(300), file);
    const { page, problems } = await open(file);
    // Field tables too: open a few changes.
    for (const summary of (await page.locator('details.change > summary').all()).slice(0, 5)) await summary.click();
    for (const [width, media] of [
      [1280, 'screen'],
      [390, 'screen'],
      [320, 'screen'],
      [560, 'print'],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ media });
      const { words, broken } = await brokenHeaderWords(page);
      expect(words, `${width} px ${media}`).toBeGreaterThan(20);
      expect(broken, `${width} px ${media}`).toEqual([]);
      if (width === 390) await page.screenshot({ path: join(OUTPUT, 'headers-phone.png'), fullPage: true });
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens plans of 1,000 and 100,000 changes lazily, and filters them', { timeout: 180_000 }, async () => {
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
  });
});
