/**
 * Test vectors looked up in a table's rows: exact keys and longest prefixes, over the
 * declared rows (the table's key index) and over live records (one pass), and what a
 * vector that fails says.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests, type DesiredRoutingTable } from '../../src/manifest/index.js';
import {
  answerText,
  declaredAnswer,
  declaredRow,
  liveAnswers,
  liveRow,
  probeKeys,
  sameAnswer,
  sensitiveColumns,
  verdict,
} from '../../src/manifest/vector-lookup.js';
import { vectorChanges } from '../../src/providers/routing/vectors.js';

async function table(yaml: string, csv?: string, env: Record<string, string> = {}): Promise<DesiredRoutingTable> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-vectors-'));
  await writeFile(join(dir, 't.yaml'), yaml);
  if (csv) await writeFile(join(dir, 'rows.csv'), csv);
  const loaded = await loadManifests([dir], { cwd: dir, env });
  expect(loaded.diagnostics).toEqual([]);
  return loaded.set.routingTables[0] as DesiredRoutingTable;
}

const CARRIERS = `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: carriers, service: draas, version: active }
spec:
  key: [prefix]
  records:
    - { prefix: "+32", carrier: national }
    - { prefix: "+3221", carrier: trunk-7 }
    - { prefix: "+32212", carrier: trunk-9 }
`;

describe('probe keys', () => {
  it('exact: the whole key, in key order', () => {
    expect(probeKeys(['number'], { type: 'exact' }, { number: '+3221234567' })).toEqual(['+3221234567']);
    expect(probeKeys(['tenant', 'number'], { type: 'exact' }, { number: '+32', tenant: 'a' })).toEqual(['a\u001f+32']);
    expect(probeKeys(['number'], { type: 'exact' }, { route: 'x' })).toMatch(/whole key \(number\)/);
  });

  it('longest prefix: every prefix of the number, longest first, other key fields exact', () => {
    expect(probeKeys(['prefix'], { type: 'longest-prefix', column: 'prefix' }, { number: '+321' })).toEqual([
      '+321',
      '+32',
      '+3',
      '+',
    ]);
    expect(
      probeKeys(['tenant', 'prefix'], { type: 'longest-prefix', column: 'prefix' }, { tenant: 't', number: '+32' }),
    ).toEqual(['t\u001f+32', 't\u001f+3', 't\u001f+']);
    expect(probeKeys(['tenant', 'prefix'], { type: 'longest-prefix', column: 'prefix' }, { number: '+32' })).toMatch(
      /no value for the key field tenant/,
    );
    expect(probeKeys(['prefix'], { type: 'longest-prefix', column: 'prefix' }, { number: '+32', other: 'x' })).toMatch(
      /looks up one number/,
    );
  });
});

describe('answers over declared rows', () => {
  it('finds the longest declared prefix through the key index', async () => {
    const t = await table(CARRIERS);
    const mode = { type: 'longest-prefix', column: 'prefix' } as const;
    const answer = (number: string) => {
      const probes = probeKeys(t.key, mode, { number }) as string[];
      const i = declaredAnswer(t, probes);
      return i === undefined ? undefined : declaredRow(t, i);
    };
    expect(answer('+3221234567')?.values['carrier']).toBe('trunk-9');
    expect(answer('+3221999')?.values['carrier']).toBe('trunk-7');
    expect(answer('+3290012345')?.values['carrier']).toBe('national');
    expect(answer('+4420')).toBeUndefined();
    expect(answerText({ expect: { carrier: 'x' } }, mode, answer('+3221999'))).toBe('trunk-7 via prefix=+3221');
  });

  it('reads CSV rows as text and compares expected values as text', async () => {
    const t = await table(
      `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: active }
spec:
  key: [number]
  fields: { priority: integer }
  recordsFrom: rows.csv
`,
      'number,route,priority\n+3221234567,trunk-7,10\n',
    );
    const i = declaredAnswer(t, ['+3221234567']) as number;
    expect(verdict({ expect: { route: 'trunk-7', priority: '10' } }, declaredRow(t, i))).toBeUndefined();
    expect(verdict({ expect: { route: 'trunk-9' } }, declaredRow(t, i))).toBe(
      'expects route trunk-9; the row number=+3221234567 answered route trunk-7',
    );
    expect(verdict({ expect: null }, declaredRow(t, i))).toBe('expects no row; the row number=+3221234567 answered');
    expect(verdict({ expect: { route: 'trunk-7' } }, undefined)).toBe('expects route trunk-7; no row answered');
    expect(verdict({ expect: null }, undefined)).toBeUndefined();
  });
});

describe('answers over live rows', () => {
  it('answers every vector in one pass, the longest prefix first', () => {
    const rows = [
      { id: 1, prefix: '+32', carrier: 'national' },
      { id: 2, prefix: '+3221', carrier: 'trunk-7' },
      { id: 3, prefix: '+44', carrier: 'uk' },
    ];
    const mode = { type: 'longest-prefix', column: 'prefix' } as const;
    const probes = ['+3221234567', '+3290', '+33'].map((number) => probeKeys(['prefix'], mode, { number }) as string[]);
    const answers = liveAnswers(['prefix'], rows, probes);
    expect(answers.map((a) => a?.values['carrier'])).toEqual(['trunk-7', 'national', undefined]);
    expect(answers[0]).toEqual({ values: { prefix: '+3221', carrier: 'trunk-7' }, key: 'prefix=+3221' });
  });

  it('keys live values as text (an integer column read as a number)', () => {
    const answers = liveAnswers(['code'], [{ id: 9, code: 32, route: 'x' }], [['32']]);
    expect(answers[0]?.values['route']).toBe('x');
  });
});

describe('a column a declared row takes from ${VAR}', () => {
  const SECRET = 'rt-7x';
  const secretTable = () =>
    table(
      `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: active }
spec:
  key: [number]
  records:
    - { number: "+3221", route: "\${ROUTE}", note: a }
    - { number: "\${NUMBER}", route: plain, note: b }
`,
      undefined,
      { ROUTE: SECRET, NUMBER: '+3222' },
    );

  it('is hidden in every answer from the table, declared or live; a key field is not', async () => {
    const t = await secretTable();
    expect(sensitiveColumns(t)).toEqual(['route']);
    const declared = declaredRow(t, declaredAnswer(t, ['+3222']) as number);
    expect(declared.hidden).toEqual(['route']);
    expect(verdict({ expect: { route: 'x' } }, declared, true)).toBe(
      'expects route (sensitive); the row number=+3222 answered route (sensitive)',
    );
    expect(verdict({ expect: { route: 'x' } }, undefined, true, sensitiveColumns(t))).toBe(
      'expects route (sensitive); no row answered',
    );
    expect(verdict({ expect: { note: 'c' } }, declared, true)).toBe(
      'expects note c; the row number=+3222 answered note b',
    );
    const live = liveRow(t.key, { id: 1, number: '+3221', route: 'live-secret' }, sensitiveColumns(t));
    const exact = { type: 'exact' } as const;
    expect(answerText({ expect: { route: 'x' } }, exact, live)).toBe('(sensitive)');
    expect(answerText({ expect: { route: 'x' } }, exact, live, true)).toBe('live-secret');
    // A change of the hidden value is still a changed answer.
    const applied = declaredRow(t, declaredAnswer(t, ['+3221']) as number);
    expect(sameAnswer({ expect: { route: 'x' } }, exact, live, applied)).toBe(false);
    expect(sameAnswer({ expect: { note: 'a' } }, exact, live, applied)).toBe(false);
    expect(sameAnswer({ expect: { route: 'x' } }, exact, applied, applied)).toBe(true);
  });

  it('is (sensitive) in the changes and failures a plan lists for its vectors', async () => {
    const t = await secretTable();
    const tests = [
      {
        name: 'secret-routes',
        table: t.table.address,
        mode: { type: 'exact' },
        vectors: [{ lookup: { number: '+3221' }, expect: { route: 'expected-9' }, source: 't.yaml:9:7' }],
        source: { file: 't.yaml', line: 9, column: 1 },
      },
    ] as unknown as Parameters<typeof vectorChanges>[0];
    const live = [{ table: t, rows: [{ id: 1, number: '+3221', route: 'live-secret' }] }] as unknown as Parameters<
      typeof vectorChanges
    >[1];
    const outlook = vectorChanges(tests, live, () => false);
    expect(outlook.changed).toMatchObject([{ before: '(sensitive)', after: '(sensitive)' }]);
    expect(outlook.failing).toMatchObject([
      { message: 'expects route (sensitive); the row number=+3221 answered route (sensitive)' },
    ]);
    const said = JSON.stringify(outlook);
    for (const value of [SECRET, 'live-secret', 'expected-9']) expect(said).not.toContain(value);
  });
});
