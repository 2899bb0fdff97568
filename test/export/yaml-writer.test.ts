import { describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import { parse } from 'yaml';
import { renderDocument, scalar, YamlMap } from '../../src/export/yaml-writer.js';
import { manifestString, toYaml } from '../../src/export/documents.js';
import { schemaAt } from '../../src/export/schema-shape.js';

/** Both YAML parsers the project ships (the manifest loader's and the `yaml` package) must read back the same value. */
function readBack(text: string): unknown {
  const a = parse(text) as unknown;
  const b = yaml.load(text) as unknown;
  expect(b).toEqual(a);
  return a;
}

describe('YAML writer: scalars', () => {
  const tricky = [
    '+3221234567', // an E.164 number: `+32…` is an integer in YAML 1.2
    '1000', // a postal code
    '0755', // octal in YAML 1.1
    '1_000', // 1.1 integer with underscores
    '12:30', // 1.1 sexagesimal
    '2026-01-01', // a timestamp for js-yaml
    '1e3',
    '.inf',
    'yes',
    'No',
    'on',
    'OFF',
    'y',
    'n',
    'true',
    'False',
    'null',
    '~',
    '',
    ' leading space',
    'trailing space ',
    'a: b',
    'a #comment',
    '#x',
    '- item',
    '[x]',
    '{x}',
    'a, b',
    '*alias',
    '&anchor',
    '!tag',
    '%',
    '@at',
    '`tick',
    '|',
    '>',
    "'q'",
    '"q"',
    'line\nbreak',
    'tab\there',
    'Liège',
    'Straße 1',
    '${VAR}',
  ];

  it.each(tricky)('%j is read back as the same string', (text) => {
    expect(readBack(`v: ${scalar(text)}\n`)).toEqual({ v: text });
    expect(readBack(`v: { w: ${scalar(text)} }\n`)).toEqual({ v: { w: text } });
    expect(readBack(`v: [${scalar(text)}]\n`)).toEqual({ v: [text] });
  });

  it('writes plain what is plainly a string, quotes what is not', () => {
    expect(scalar('BE geo')).toBe('BE geo');
    expect(scalar('uc_alpha')).toBe('uc_alpha');
    expect(scalar('it@acme.example')).toBe('it@acme.example');
    expect(scalar('/themes/dark.css')).toBe('/themes/dark.css');
    expect(scalar('Liège')).toBe('Liège');
    expect(scalar('+3221234567')).toBe('"+3221234567"');
    expect(scalar('1000')).toBe('"1000"');
    expect(scalar('')).toBe('""');
    expect(scalar('yes')).toBe('"yes"');
  });

  it('writes null, booleans and numbers as YAML values', () => {
    expect(
      readBack(
        `a: ${scalar(null)}\nb: ${scalar(true)}\nc: ${scalar(false)}\nd: ${scalar(2.5)}\ne: ${scalar(1000)}\nf: ${scalar(-3)}\n`,
      ),
    ).toEqual({
      a: null,
      b: true,
      c: false,
      d: 2.5,
      e: 1000,
      f: -3,
    });
  });
});

describe('YAML writer: documents', () => {
  it('keeps key order, writes comments above keys, small flat maps in flow style, and reads back', () => {
    const sub = new YamlMap()
      .set('name', 'main')
      .set('suspensionProfile', null)
      .set('entitlements', [new YamlMap().set('type', 'BE geo').set('entitlement', 10)])
      .note('trunkGroups', ['trunkGroups: not exported'])
      .set(
        'numbers',
        new YamlMap('block').set('+3221234562', new YamlMap().set('address', 'Rue Haute 10, 1000 Brussels, Belgium')),
      );
    const root = new YamlMap('block')
      .set('zeta', 1)
      .set('alpha', 'x')
      .set(
        'metadata',
        new YamlMap().set('name', 'acme-corp').set('reseller', new YamlMap().set('uuid', '5d1a7b10-0000')),
      )
      .set(
        'spec',
        new YamlMap('block').set('markup', 4).set('subscriptions', [sub]).set('empty', []).set('none', new YamlMap()),
      );
    const text = renderDocument(root, ['yaml-language-server: $schema=tenant.schema.json']);
    expect(text).toBe(
      [
        '# yaml-language-server: $schema=tenant.schema.json',
        'zeta: 1',
        'alpha: x',
        'metadata: { name: acme-corp, reseller: { uuid: "5d1a7b10-0000" } }',
        'spec:',
        '  markup: 4',
        '  subscriptions:',
        '    - name: main',
        '      suspensionProfile: null',
        '      entitlements:',
        '        - { type: BE geo, entitlement: 10 }',
        '      # trunkGroups: not exported',
        '      numbers:',
        '        "+3221234562": { address: "Rue Haute 10, 1000 Brussels, Belgium" }',
        '  empty: []',
        '  none: {}',
        '',
      ].join('\n'),
    );
    expect(Object.keys(readBack(text) as object)).toEqual(['zeta', 'alpha', 'metadata', 'spec']);
  });

  it('breaks a flow map that would be too wide into block style', () => {
    const long = new YamlMap();
    for (const k of ['street', 'number', 'city', 'country', 'premises']) long.set(k, `${k} ${'x'.repeat(20)}`);
    const text = renderDocument(new YamlMap().set('addresses', [long]));
    expect(text.split('\n')[1]).toBe('  - street: street xxxxxxxxxxxxxxxxxxxx');
    expect(readBack(text)).toEqual({ addresses: [Object.fromEntries(long.entries.map((e) => [e.key, e.value]))] });
  });
});

describe('export values', () => {
  it('escapes ${ so the manifest loader does not read it as an environment variable (docs/manifests.md)', () => {
    expect(manifestString('cost ${X} and $${Y}')).toBe('cost $${X} and $$${Y}');
    expect(toYaml('a ${B}', undefined)).toBe('a $${B}');
  });

  it('orders object keys as the schema lists them, then the rest sorted', () => {
    const pos = schemaAt('group.schema.json#/$defs/product');
    const value = toYaml(
      { status: 'enabled', zz: 1, items: [{ quantity: 1, type: 'license', subType: 'ucAlphaUsers' }], sku: 'P', aa: 2 },
      pos,
    );
    const text = renderDocument(new YamlMap().set('p', value));
    expect(text).toBe(
      'p:\n  sku: P\n  status: enabled\n  items:\n    - { type: license, subType: ucAlphaUsers, quantity: 1 }\n  aa: 2\n  zz: 1\n',
    );
  });
});
