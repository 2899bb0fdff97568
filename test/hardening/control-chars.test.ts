/**
 * Control characters from manifests never reach a terminal raw. Every name a manifest
 * gives (documents, nested objects, an external parent, a policy rule, a file name, a CSV
 * column) holds terminal escapes (ESC and C1 CSI sequences, a carriage return, a bell),
 * bidi overrides and zero-width characters; validate (text and JSON), plan (with errors,
 * and a --target near a declared address, whose "closest address" quotes it) and apply
 * print them escaped (`\u001b`), as the renderers do. Nothing printed, on stdout or stderr,
 * holds such a character but the line break.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../e2e/cli-helpers.js';

/** What no output may hold: C0 but the line break, DEL, C1, bidi controls, zero-width characters. */
const UNSAFE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

/** YAML double-quoted escapes of the characters planted: ESC, CSI, BEL, C1 CSI, RLO, ZWSP, BOM (valid in a name). */
const EVIL_NAME = '\\e[2J\\e[31m\\a\\x9b1m\\u202e\\u200b\\ufeffx';
/** And line terminators (CR, LS), which make a name invalid: quoted by diagnostics. */
const EVIL = `${EVIL_NAME}\\r\\u2028x`;

let dir: string;

function expectSafe(result: CliResult, what: string): void {
  for (const [stream, text] of [
    ['stdout', result.stdout],
    ['stderr', result.stderr],
  ] as const) {
    const found = UNSAFE.exec(text);
    const around = found ? JSON.stringify(text.slice(Math.max(0, found.index - 60), found.index + 20)) : '';
    expect(found, `${what}: ${stream} holds ${JSON.stringify(found?.[0])} in ${around}`).toBeNull();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-control-'));
  await writeFile(
    join(dir, 'tenant.yaml'),
    [
      'apiVersion: switchboard/v1',
      'kind: Tenant',
      `metadata: { name: "acme${EVIL}", reseller: "north${EVIL}" }`,
      'spec:',
      `  "billingId${EVIL}": T-1`,
      '  subscriptions:',
      `    - name: "main${EVIL}"`,
      `      billingId: "S${EVIL}"`,
      '      addressesFrom: addresses.csv',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(dir, 'valid.yaml'),
    `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: "globex${EVIL_NAME}", reseller: "north${EVIL_NAME}" }\nspec: {}\n`,
  );
  await writeFile(
    join(dir, 'addresses.csv'),
    `street,number,city,postalCode,country,isoCode,bad\u001b[2J\u202ecolumn\n`,
  );
  await writeFile(
    join(dir, 'policy.yaml'),
    [
      'apiVersion: switchboard/v1',
      'kind: Policy',
      'metadata: { name: rules }',
      'spec:',
      '  rules:',
      `    - id: "rule${EVIL}"`,
      `      match: { kind: "Tenant${EVIL}" }`,
      '      forbid: [delete]',
      '',
    ].join('\n'),
  );
  // A file name with an escape sequence: diagnostics name the file.
  await writeFile(
    join(dir, 'x\u001b[31m\u202e.yaml'),
    'apiVersion: switchboard/v1\nkind: Group\nmetadata: { name: g }\nspec: { nosuchfield: 1 }\n',
  );
});

describe('manifest names with control characters, as printed', () => {
  it('validate, text and JSON: diagnostics, file names and the note on an undeclared parent', async () => {
    const text = await runCli(['validate', dir]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('note: reseller/north\\u001b[2J');
    expect(text.stdout).toContain('x\\u001b[31m\\u202e.yaml');
    expectSafe(text, 'validate');
    const json = await runCli(['validate', dir, '--format', 'json']);
    expectSafe(json, 'validate --format json');
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('\u202e');
  });

  it('plan with a --target near a declared address: the suggestion quotes it escaped', async () => {
    const valid = await mkdtemp(join(tmpdir(), 'switchboard-control-'));
    await writeFile(
      join(valid, 'tenant.yaml'),
      `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: "acme${EVIL_NAME}", reseller: north }\nspec: { markup: 3 }\n`,
    );
    const [result, applied, logged] = await Promise.all([
      runCli(['plan', valid, '--sim', '--target', 'tenant/acme\u001b[2J\u001b[31m\r\u0007']),
      runCli(['apply', valid, '--sim', '--yes']),
      runCli(['plan', valid, '--sim', '--log-level', 'debug']),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the closest address is tenant/acme\\u001b[2J');
    expectSafe(result, 'plan --target');
    expectSafe(applied, 'apply');
    expectSafe(logged, 'plan --log-level debug');
  });

  it('plan and apply of manifests with errors: every diagnostic escaped', async () => {
    const [planned, applied] = await Promise.all([
      runCli(['plan', dir, '--sim']),
      runCli(['apply', dir, '--sim', '--yes']),
    ]);
    expectSafe(planned, 'plan');
    expectSafe(applied, 'apply');
  });
});
