/**
 * The CLI's fast YAML path (js-yaml with YAML_CORE_SCHEMA) reads every plain scalar exactly
 * as the yaml package does with the YAML 1.2 core schema: the package behind the CLI's slow
 * path, its positions, and yaml-language-server in editors (test/editor/ drives that one).
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseManifest } from '../../src/manifest/parse.js';
import { Reporter } from '../../src/manifest/reporter.js';
import { SCALAR_CASES } from './yaml-cases.js';

function fastPath(text: string): unknown {
  const reporter = new Reporter();
  const docs = parseManifest('case.yaml', text, reporter);
  expect(reporter.diagnostics, text).toEqual([]);
  return docs[0]?.value;
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  return JSON.stringify(a) === JSON.stringify(b);
}

describe('YAML_CORE_SCHEMA: the fast path reads scalars as the yaml package (YAML 1.2 core)', () => {
  it("the issue's cases and their neighbours, as values, keys and sequence items", () => {
    for (const scalar of SCALAR_CASES) {
      const asKey = /^(?:~|[Nn]ull|NULL)?$/.test(scalar) ? [] : [`${scalar}: k\n`]; // null keys: see below
      for (const text of [`v: ${scalar}\n`, `- ${scalar}\n`, `{ v: ${scalar} }\n`, ...asKey]) {
        const fast = fastPath(text);
        const exact: unknown = parse(text, { logLevel: 'silent' });
        expect(same(fast, exact), `${JSON.stringify(text)}: fast path ${String(fast)}, yaml ${String(exact)}`).toBe(
          true,
        );
      }
    }
  });

  it('a null key is the one known difference: "null" on the fast path, "" in yaml (an unknown field to every schema)', () => {
    expect(fastPath('~: k\n')).toEqual({ null: 'k' });
    expect(parse('~: k\n')).toEqual({ '': 'k' });
  });

  it('the values the issue names, exactly', () => {
    expect(fastPath('entitlement: 1_000\n')).toEqual({ entitlement: '1_000' });
    expect(fastPath('markup: +.5\n')).toEqual({ markup: 0.5 });
    expect(fastPath('v: 0b101\n')).toEqual({ v: '0b101' });
    expect(fastPath('v: +0x1F\n')).toEqual({ v: '+0x1F' });
    expect(Object.is((fastPath('v: -0\n') as { v: number }).v, -0)).toBe(true);
    expect(fastPath('v: 0o17\n')).toEqual({ v: 15 });
    expect(fastPath('v: .inf\n')).toEqual({ v: Infinity });
    expect(fastPath('v: ~\n')).toEqual({ v: null });
    expect(fastPath('[yes, no, on, off, 2026-11-23]\n')).toEqual(['yes', 'no', 'on', 'off', '2026-11-23']);
  });

  it('5,000 generated number-like scalars read alike', () => {
    const alphabet = '0123456789+-._eEoxXbBinfaINFA~';
    let seed = 17;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 5000; i++) {
      let scalar = '';
      for (let length = 1 + next(7); scalar.length < length;) scalar += alphabet[next(alphabet.length)];
      if (/^[-~]$|^- |^[.]{3}|^-{3}/.test(scalar)) continue; // a sequence entry or a document marker, not a scalar
      const text = `v: ${scalar}\n`;
      let exact: unknown;
      try {
        exact = parse(text, { logLevel: 'silent' });
      } catch {
        continue; // not a plain scalar in YAML at all
      }
      expect(
        same(fastPath(text), exact),
        `${JSON.stringify(scalar)}: fast path ${String(fastPath(text))}, yaml ${String(exact)}`,
      ).toBe(true);
    }
  });
});
