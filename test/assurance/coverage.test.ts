/**
 * Emergency coverage end to end, on one simulator: the coverage read only when asked (a plan
 * without it sends no numbers list), the section in every plan format and in `switchboard
 * coverage`'s, numbers with and without an address, unverified links; and SB_ADDRESS_IN_USE:
 * deleting an address numbers use is refused naming them, allowed when the same plan relinks
 * them (and then applied in an order the platform accepts), and overridable on the record.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCoverage } from '../../src/cli/coverage-formats.js';
import type { CoverageReport } from '../../src/plan/coverage/types.js';
import { renderHtml } from '../../src/plan/render-html.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import type { Plan } from '../../src/plan/types.js';
import { defaultSeed, startSimulator, type RunningSimulator, type Seed } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

const RUE_HAUTE = 'Rue Haute 10, 1000 Brussels, Belgium';
const LOUISE = 'Avenue Louise 54, 1050 Ixelles, Belgium';
const MEIR = 'Meir 22, 2000 Antwerpen, Belgium';

/** acme-corp/main: three addresses; +3221234560 and …61 at Rue Haute (…61 unverified), …62 at Avenue Louise, seven without. */
function seed(): Seed {
  const s = defaultSeed();
  const main = s.tenants?.find((t) => t.name === 'acme-corp')?.subscriptions?.[0];
  if (!main) throw new Error('the default data set changed: acme-corp has no subscription');
  main.addresses = [
    { street: 'Rue Haute', number: '10', postalCode: 1000, city: 'Brussels', country: 'Belgium', isoCode: 'BE' },
    { street: 'Avenue Louise', number: '54', postalCode: 1050, city: 'Ixelles', country: 'Belgium', isoCode: 'BE' },
    { street: 'Meir', number: '22', postalCode: 2000, city: 'Antwerpen', country: 'Belgium', isoCode: 'BE' },
  ];
  main.numbers = [
    { number: '+3221234560', entitlementType: 'BE geo', address: RUE_HAUTE },
    { number: '+3221234561', entitlementType: 'BE geo', address: RUE_HAUTE, addressVerified: false },
    { number: '+3221234562', entitlementType: 'BE geo', address: LOUISE },
    { number: '+3221234563', count: 7, entitlementType: 'BE geo' },
  ];
  return s;
}

async function reset(): Promise<void> {
  const response = await fetch(`${sim.url}/_sim/reset`, { method: 'POST', body: JSON.stringify(seed()) });
  expect(response.status).toBe(200);
  await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
}

async function numbersLists(): Promise<number> {
  const stats = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as { byRoute?: Record<string, number> };
  return Object.entries(stats.byRoute ?? {})
    .filter(([route]) => /^GET .*\/numbers$/.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

const address = (street: string, number: string, postalCode: number, city: string) =>
  `{ street: ${street}, number: "${number}", postalCode: ${postalCode}, city: ${city}, country: Belgium, isoCode: BE }`;

/** acme-corp's main subscription declaring `addresses` (pruned) and optional `numbers`. */
function acme(addresses: string[], numbers = ''): string {
  return `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme-corp, reseller: north, prune: true }
spec:
  subscriptions:
    - name: main
      billingId: T-ACME-MAIN
      addresses:
${addresses.map((a) => `        - ${a}`).join('\n')}
${numbers}`;
}

const ALL = [
  address('Rue Haute', '10', 1000, 'Brussels'),
  address('Avenue Louise', '54', 1050, 'Ixelles'),
  address('Meir', '22', 2000, 'Antwerpen'),
];

async function cli(files: Record<string, string>, ...args: string[]) {
  const dir = await manifestDir(files);
  const out = await runCli([...args.slice(0, 1), dir, ...args.slice(1), '--state-dir', `${dir}/.switchboard`], {
    env: simEnv(sim.url),
    cwd: dir,
  });
  return { ...out, dir };
}

describe('the coverage read', () => {
  it('is made only when asked: a plan without it lists no numbers', async () => {
    await reset();
    const plain = await cli({ 'acme.yaml': acme(ALL) }, 'plan');
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('No changes.');
    expect(plain.stdout).not.toContain('Emergency coverage');
    expect(await numbersLists()).toBe(0);
  });

  it('shows numbers without an address, unverified links and unused addresses, in every plan format', async () => {
    await reset();
    const text = await cli({ 'acme.yaml': acme(ALL) }, 'plan', '--coverage', '--out', 'plan.json');
    expect(text.code).toBe(0);
    expect(await numbersLists()).toBe(1); // one page of one subscription's numbers
    expect(text.stdout).toContain('tenant/acme-corp/subscription/main: 10 numbers');
    expect(text.stdout).toMatch(/without an address +7 +\+3221234563; \+3221234564; .*… \(2 more\)/);
    expect(text.stdout).toMatch(/address not verified +1 +\+3221234561/);
    expect(text.stdout).toMatch(/addresses linked to none +1 +Meir 22, 2000 Antwerpen, Belgium/);
    // Only the subscriptions the manifests declare: globex's is not read.
    expect(text.stdout).not.toContain('globex');

    // The other formats render the plan file the same run wrote (one CLI process, not four).
    const json = JSON.parse(await readFile(join(text.dir, 'plan.json'), 'utf8')) as Plan;
    const main = json.coverage?.scopes.find(
      (s: { address: string }) => s.address === 'tenant/acme-corp/subscription/main',
    );
    expect(main).toMatchObject({
      numbers: 10,
      withoutAddress: { count: 7 },
      unverified: { count: 1, items: ['+3221234561'] },
      verificationUnknown: { count: 0 },
      unusedAddresses: { count: 1, items: [MEIR] },
      effect: { linksAdded: { count: 0 }, withoutAddressAfter: 7, addressesInUse: [] },
    });
    expect(json.coverage?.listLimit).toBe(100);

    const markdown = renderMarkdown(json);
    expect(markdown).toContain('#### Emergency coverage');
    expect(markdown).toMatch(/<code>tenant\/acme-corp\/subscription\/main<\/code> \| 10 \| 7: /);
    const html = renderHtml(json);
    expect(html).toContain('<h2 id="coverage-heading">Emergency coverage');
    expect(html).toContain('+3221234561');
  });

  it('says what the plan changes: links added, and the numbers left without an address after it', async () => {
    await reset();
    const numbers = `      numbers:\n        "+3221234563": { address: "${MEIR}" }\n        "+3221234564": { address: "${MEIR}" }\n        "+3221234562": { address: "${RUE_HAUTE}" }\n`;
    const out = await cli({ 'acme.yaml': acme(ALL, numbers) }, 'plan', '--coverage', '--format', 'json');
    const main = JSON.parse(out.stdout).coverage.scopes.find(
      (s: { address: string }) => s.address === 'tenant/acme-corp/subscription/main',
    );
    expect(main.effect).toMatchObject({
      linksAdded: { count: 2, items: ['+3221234563', '+3221234564'] },
      linksMoved: { count: 1, items: ['+3221234562'] },
      withoutAddressAfter: 5,
    });
  });

  it('switchboard coverage lists everything, in text, JSON, CSV, markdown and HTML', async () => {
    await reset();
    const files = { 'acme.yaml': acme(ALL) };
    const text = await cli(files, 'coverage');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'Coverage: 10 numbers in 1 subscription: 7 without an address, 1 not verified, 1 address linked to none.',
    );
    const json = JSON.parse((await cli(files, 'coverage', '--format', 'json')).stdout) as CoverageReport;
    expect(json.listLimit).toBeNull();
    expect(json.scopes[0]?.withoutAddress.items).toHaveLength(7);
    // The other formats are renderings of that report (the command's own renderer, in this process).
    const csv = renderCoverage(json, 'csv').split('\r\n');
    expect(csv[0]).toBe('subscription,object,item,finding');
    expect(csv).toContain(`tenant/acme-corp/subscription/main,number,"'+3221234561",address not verified`);
    expect(csv).toContain(`tenant/acme-corp/subscription/main,address,"${MEIR}",linked to no number`);
    expect(csv.filter((l) => l.endsWith('without an address'))).toHaveLength(7);
    expect(renderCoverage(json, 'markdown')).toContain('#### Emergency coverage');
    const html = renderCoverage(json, 'html');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    // The shared page head: its style by hash, and no script at all (default-src 'none', no script-src).
    expect(html).toMatch(
      /Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[^&]+&#39;; img-src/,
    );
    expect(html).not.toContain('<script');
    expect(html).toContain('Coverage: 10 numbers in 1 subscription');
  });
});

describe('SB_ADDRESS_IN_USE', () => {
  const withoutLouise = [ALL[0] as string, ALL[2] as string];

  it('refuses deleting an address numbers still use, naming them (exit 3, nothing sent)', async () => {
    await reset();
    const out = await cli({ 'acme.yaml': acme(withoutLouise) }, 'apply', '--yes');
    expect(out.code).toBe(3);
    expect(out.stdout).toContain(
      `✗ SB_ADDRESS_IN_USE tenant/acme-corp/subscription/main/address/${LOUISE}: deleting it leaves 1 number without an emergency address: +3221234562.`,
    );
    expect(out.stdout).toContain('Nothing was changed');
  });

  it('allows it when the same plan relinks those numbers, and applies the relink first', async () => {
    await reset();
    const relinked = `      numbers:\n        "+3221234562": { address: "${MEIR}" }\n`;
    const files = { 'acme.yaml': acme(withoutLouise, relinked) };
    const planned = await cli(files, 'plan', '--coverage', '--format', 'json');
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout);
    const remove = plan.changes.find((c: { action: string }) => c.action === 'delete');
    expect(remove.dependsOn).toContain('tenant/acme-corp/subscription/main/number/+3221234562');
    const main = plan.coverage.scopes.find(
      (s: { address: string }) => s.address === 'tenant/acme-corp/subscription/main',
    );
    expect(main.effect.addressesInUse).toEqual([
      {
        address: `tenant/acme-corp/subscription/main/address/${LOUISE}`,
        action: 'delete',
        numbers: { count: 1, items: ['+3221234562'] },
        relinked: true,
      },
    ]);
    // The simulator refuses deleting an address in use: the apply succeeds only in that order.
    const applied = await cli(files, 'apply', '--yes');
    expect(applied.stdout).toContain('Apply complete: 2 applied, 0 failed');
    expect(applied.code).toBe(0);
  });

  it('names only the numbers the plan leaves behind, and --allow-address-in-use makes it a warning on the record', async () => {
    await reset();
    const files = {
      'acme.yaml': acme(
        [ALL[1] as string, ALL[2] as string],
        `      numbers:\n        "+3221234560": { address: "${MEIR}" }\n`,
      ),
    };
    const refused = await cli(files, 'plan');
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain(
      'deleting it leaves 1 number without an emergency address (1 of its 2 are relinked by this plan): +3221234561.',
    );
    const allowed = await cli(files, 'plan', '--allow-address-in-use', '--format', 'json');
    expect(allowed.code).toBe(0);
    const plan = JSON.parse(allowed.stdout);
    expect(plan.options.allowAddressInUse).toBe(true);
    expect(plan.warnings.map((w: { code: string }) => w.code)).toContain('SB_ADDRESS_IN_USE');
  });

  it('--allow-address-in-use overrides the rail, not the coverage: the numbers it leaves count, and a gate refuses them', async () => {
    await reset();
    // Rue Haute deleted: +3221234560 and …61 lose their address; seven numbers have none already.
    const acmeFile = acme([ALL[1] as string, ALL[2] as string]);
    const gate = `apiVersion: switchboard/v1
kind: Policy
metadata: { name: emergency }
spec:
  rules:
    - id: emergency-addresses
      match: { kind: Subscription }
      coverage: { numbersWithoutAddress: 7 }
`;
    const text = await cli({ 'acme.yaml': acmeFile }, 'plan', '--allow-address-in-use', '--coverage');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/without an address +7 .*\(9 once this plan is applied\)/);
    expect(text.stdout).toContain(
      `this plan deletes tenant/acme-corp/subscription/main/address/${RUE_HAUTE} while 2 numbers use it: ` +
        '+3221234560; +3221234561 (allowed by --allow-address-in-use: numbers it does not relink are left without an address)',
    );
    expect(text.stdout).not.toContain('refused: SB_ADDRESS_IN_USE');
    const gated = await cli({ 'acme.yaml': acmeFile, 'policy.yaml': gate }, 'plan', '--allow-address-in-use');
    expect(gated.stdout).toContain('9 numbers without an emergency address once this plan is applied');
    expect(gated.stdout).toContain('above the maximum 7');
    expect(gated.code).toBe(3);
  });
});
