/**
 * The editor experience of a repository made by `switchboard init`, through
 * yaml-language-server itself (what VS Code's YAML extension runs): hover help from the
 * schemas, completion that offers only the fields a manifest can set, diagnostics for
 * mistakes; both through the files' modelines and through .vscode/settings.json.
 */
import { mkdir, mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionKind } from '../../src/kinds/subscription.js';
import { scaffold } from '../../src/init/scaffold.js';
import { LanguageServer, type YamlSettings } from './language-server.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** The read-only (and misplaced) fields the CLI rejects, which completion must not offer. */
const NOT_IN_TENANT_SPEC = ['uuid', 'owner', 'markups', 'numberOfSubscriptions', 'name', 'suspensionProfile'];
const NOT_IN_SUBSCRIPTION = [
  'id',
  'licenses',
  'suspensionProfileId',
  'numberOfUsers',
  'numberOfTrunkgroups',
  'phoneNumbers',
  'isDeletable',
  'assignedEntities',
];

let repo: string;
let server: LanguageServer;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'switchboard-editor-'));
  await scaffold(repo, { force: false });
  // What `npm install` does for the editor: node_modules/switchboard/schemas exists.
  await mkdir(join(repo, 'node_modules'));
  await symlink(REPO_ROOT, join(repo, 'node_modules/switchboard'));
  // The YAML extension sends the `yaml.*` settings of .vscode/settings.json as the `yaml` section.
  const vscode = JSON.parse(await readFile(join(repo, '.vscode/settings.json'), 'utf8')) as Record<string, unknown>;
  const settings: YamlSettings = Object.fromEntries(
    Object.entries(vscode)
      .filter(([k]) => k.startsWith('yaml.'))
      .map(([k, v]) => [k.slice(5), v]),
  );
  server = await LanguageServer.start(repo, settings);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

function inRepo(file: string): string {
  return join(repo, file);
}

describe('yaml-language-server on a scaffolded repository', () => {
  it('the scaffolded manifests have no diagnostics', async () => {
    for (const file of ['manifests/group.yaml', 'manifests/tenants/example-tenant.yaml']) {
      expect(await server.open(inRepo(file), await readFile(inRepo(file), 'utf8')), file).toEqual([]);
    }
  });

  it("hover shows a field's description, as written (no escaped backticks)", async () => {
    const file = inRepo('manifests/tenants/example-tenant.yaml');
    const lines = (await readFile(file, 'utf8')).split('\n');
    const line = lines.findIndex((l) => l.startsWith('  markup:'));
    const hover = await server.hover(file, { line, character: 3 });
    expect(hover).toContain('Markup in percent, relative (float).');
    const metadata = await server.hover(file, { line: lines.indexOf('metadata:'), character: 2 });
    expect(metadata).toContain('Exactly one of group, distributor or reseller.');
    expect(hover + metadata).not.toContain('\\`');
  });

  it("hover shows the kind table's doc of a field and what a change of it does (generated schemas)", async () => {
    const file = inRepo('manifests/tenants/hover.yaml');
    const text = `${await readFile(inRepo('manifests/tenants/example-tenant.yaml'), 'utf8')}  subscriptions:\n    - name: main\n      billingId: T-MAIN\n      uc: uc_alpha\n`;
    await server.open(file, text);
    const lines = text.split('\n');
    const uc = await server.hover(file, { line: lines.indexOf('      uc: uc_alpha'), character: 7 });
    const doc = subscriptionKind.fields.find((f) => f.name === 'uc')?.doc ?? '';
    expect(doc).not.toBe('');
    expect(uc).toContain(doc);
    expect(uc).toContain('The API cannot change it: a new value is a replace');
  });

  it('completion inside a tenant offers what can be set, never a read-only field', async () => {
    const file = inRepo('manifests/tenants/completion.yaml');
    const text = await readFile(inRepo('manifests/tenants/example-tenant.yaml'), 'utf8');
    const withLine = `${text}  \n`;
    await server.open(file, withLine);
    const labels = (await server.completion(file, { line: withLine.split('\n').length - 2, character: 2 })).map(
      (i) => i.label,
    );
    expect(labels).toEqual(expect.arrayContaining(['admins', 'subscriptions']));
    for (const field of NOT_IN_TENANT_SPEC) expect(labels, field).not.toContain(field);

    const sub = inRepo('manifests/tenants/subscription.yaml');
    const subText = `${text}  subscriptions:\n    - name: main\n      billingId: T-MAIN\n      \n`;
    await server.open(sub, subText);
    const subLabels = (await server.completion(sub, { line: subText.split('\n').length - 2, character: 6 })).map(
      (i) => i.label,
    );
    expect(subLabels).toEqual(expect.arrayContaining(['uc', 'entitlements', 'suspensionProfile']));
    for (const field of NOT_IN_SUBSCRIPTION) expect(subLabels, field).not.toContain(field);
  });

  it('a misspelt field gets a diagnostic; a read-only one says why, not "Matches a schema that is not allowed"', async () => {
    const text = (await readFile(inRepo('manifests/tenants/example-tenant.yaml'), 'utf8')).replace(
      '  markup: 0\n',
      '  markupp: 0\n  uuid: 9f00aa00-0000-4000-8000-000000000001\n',
    );
    const diagnostics = await server.open(inRepo('manifests/tenants/misspelt.yaml'), text);
    const messages = diagnostics.map((d) => `${d.range.start.line}: ${d.message}`);
    const line = text.split('\n').indexOf('  markupp: 0');
    expect(messages).toContain(`${line}: Property markupp is not allowed.`);
    expect(messages).toContain(
      `${line + 1}: Read-only: uuid is assigned by the platform and cannot be set; to bind this document to an existing tenant, give metadata.uuid.`,
    );
    expect(messages.join('\n')).not.toContain('Matches a schema that is not allowed');
  });

  it('a manifest without a modeline is checked through .vscode/settings.json', async () => {
    const text =
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t, group: example-group }\nspec:\n  billingId: T\n  markupp: 1\n';
    const diagnostics = await server.open(inRepo('manifests/tenants/no-modeline.yaml'), text);
    expect(diagnostics.map((d) => d.message)).toContain('Property markupp is not allowed.');
    expect(await server.hover(inRepo('manifests/tenants/no-modeline.yaml'), { line: 4, character: 3 })).toContain(
      'billing',
    );
  });
});

describe('yaml-language-server on Baseline documents (docs/baselines.md)', () => {
  const BASELINE = [
    'apiVersion: switchboard/v1',
    'kind: Baseline',
    'metadata: { name: be-office }',
    'spec:',
    '  selector:',
    '    resellers: [north]',
    '    labels: { offer: office }',
    '  values:',
    '    subscriptions:',
    '      - select: { uc: uc_alpha }',
    '        templates:',
    '          - { sku: TPL-STD, vrp: vrp-std }',
  ];

  it('a baseline is checked through .vscode/settings.json: none for a valid one, its mistakes otherwise', async () => {
    const file = inRepo('manifests/baselines/be-office.yaml');
    expect(await server.open(file, `${BASELINE.join('\n')}\n`)).toEqual([]);
    const wrong = BASELINE.map((l) =>
      l === '    resellers: [north]'
        ? '    reseller: [north]'
        : l === '    labels: { offer: office }'
          ? '    labels: { offer: "of fice" }'
          : l,
    );
    const messages = (await server.open(inRepo('manifests/baselines/wrong.yaml'), `${wrong.join('\n')}\n`)).map(
      (d) => `${d.range.start.line}: ${d.message}`,
    );
    expect(messages).toContain('5: Property reseller is not allowed.');
    expect(messages.some((m) => m.startsWith('6: String does not match the pattern'))).toBe(true);
  });

  it("completion in a baseline's subscription offers select and the subscription's fields, never a read-only one", async () => {
    const file = inRepo('manifests/baselines/completion.yaml');
    const text = `${BASELINE.slice(0, 9).join('\n')}\n      - \n`;
    await server.open(file, text);
    const labels = (await server.completion(file, { line: 9, character: 8 })).map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['select', 'name', 'entitlements', 'templates']));
    for (const field of NOT_IN_SUBSCRIPTION) expect(labels, field).not.toContain(field);
  });

  it('a tenant rewritten for baselines names the partial schema: an item with its identity and the field it overrides', async () => {
    const tenant = (schema: string) =>
      [
        `# yaml-language-server: $schema=../../node_modules/switchboard/schemas/${schema}`,
        'apiVersion: switchboard/v1',
        'kind: Tenant',
        'metadata:',
        '  name: acme',
        '  group: example-group',
        '  overrides:',
        '    - { path: "spec.subscriptions[main].templates[TPL-STD].vrp", reason: contract 2026-114 }',
        'spec:',
        '  billingId: T-ACME',
        '  subscriptions:',
        '    - name: main',
        '      templates:',
        '        - { sku: TPL-STD, vrp: vrp-std2 }',
        '      entitlements:',
        '        - { entitlement: 12 }',
        '',
      ].join('\n');
    const strict = await server.open(inRepo('manifests/tenants/strict.yaml'), tenant('tenant.schema.json'));
    expect(strict.map((d) => d.message).join('\n')).toMatch(/Missing property "(name|description|location)"/);
    const partial = (await server.open(inRepo('manifests/tenants/partial.yaml'), tenant('tenant.partial.schema.json')))
      .map((d) => `${d.range.start.line}: ${d.message}`)
      .join('\n');
    // Only the entitlement without its identity (type or typeId) is still a mistake.
    expect(partial).not.toMatch(/Missing property "(name|description|location|billingId)"/);
    expect(partial).toMatch(/^15: /);
  });

  it("hover explains a tenant's metadata.overrides and labels", async () => {
    const file = inRepo('manifests/tenants/overrides.yaml');
    const text = [
      'apiVersion: switchboard/v1',
      'kind: Tenant',
      'metadata:',
      '  name: acme',
      '  group: example-group',
      '  labels: { offer: office }',
      '  overrides:',
      '    - { path: spec.markup, reason: contract 2026-114 }',
      'spec:',
      '  billingId: T-ACME',
      '  markup: 7',
      '',
    ].join('\n');
    expect(await server.open(file, text)).toEqual([]);
    expect(await server.hover(file, { line: 6, character: 4 })).toContain('differs from the baselines that select it');
    expect(await server.hover(file, { line: 5, character: 4 })).toContain('what Baseline documents select by');
  });
});
