/**
 * One YAML reading for the CLI and the editor: every scalar of SCALAR_CASES (`1_000`, `+.5`,
 * `0b101`, `+0x1F`, `-0`, `0o17`, `.inf`, `~`, `yes`/`no`, `on`/`off`, dates…) in a field of
 * each JSON type, fed to `validate`'s own function and to yaml-language-server over stdio.
 * Both must accept it or both reject it.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runValidate } from '../../src/cli/commands/validate.js';
import { SCALAR_CASES } from '../manifest/yaml-cases.js';
import { LanguageServer } from './language-server.js';

const SCHEMAS = resolve(import.meta.dirname, '../../schemas');

/** A tenant with the scalar in one field; each slot is a field of another JSON type. */
const SLOTS: Record<string, (value: string) => string> = {
  'markup (number)': (v) => `spec:\n  billingId: T-1\n  markup: ${v}\n`,
  'billingId (string)': (v) => `spec:\n  billingId: ${v}\n`,
  'entitlement (integer)': (v) =>
    `spec:\n  billingId: T-1\n  subscriptions:\n    - name: main\n      billingId: T-2\n      entitlements:\n        - type: BE geo\n          entitlement: ${v}\n`,
  'suspensionProfile (string or null)': (v) =>
    `spec:\n  billingId: T-1\n  subscriptions:\n    - name: main\n      billingId: T-2\n      suspensionProfile: ${v}\n`,
  'prune (boolean)': () => `spec:\n  billingId: T-1\n`, // the value goes to metadata.prune
};
// metadata.prune is a boolean: its slot writes the value into metadata instead.
const metadata = (slot: string, value: string): string =>
  `metadata:\n  name: t\n  group: g\n${slot === 'prune (boolean)' ? `  prune: ${value}\n` : ''}`;

/**
 * The one known difference, in validation rather than in reading: both read `.inf`, `.nan`
 * and `1e400` as non-finite numbers; ajv refuses them for a `number` field (JSON cannot
 * carry them), yaml-language-server does not flag them.
 */
function isNonFinite(scalar: string): boolean {
  const value = (parse(`v: ${scalar}\n`) as { v: unknown }).v;
  return typeof value === 'number' && !Number.isFinite(value);
}

let dir: string;
let server: LanguageServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-yaml-parity-'));
  server = await LanguageServer.start(dir, {});
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('the CLI and yaml-language-server read YAML alike (YAML 1.2 core schema)', () => {
  it('accept and reject the same documents, for every case in a field of every type', async () => {
    const cases = SCALAR_CASES.flatMap((scalar) =>
      Object.entries(SLOTS).map(([slot, body]) => ({ scalar, slot, body })),
    );
    const disagreements: string[] = [];
    const nonFinite = new Set<string>();
    const results = await Promise.all(
      cases.map(async ({ scalar, slot, body }, n) => {
        const file = join(dir, `case-${n}.yaml`);
        const text = `# yaml-language-server: $schema=${SCHEMAS}/tenant.schema.json\napiVersion: switchboard/v1\nkind: Tenant\n${metadata(slot, scalar)}${body(scalar)}`;
        await writeFile(file, text);
        // The server waits 200 ms before validating a document it was sent: all are sent at once.
        return { scalar, slot, file, editor: await server.open(file, text) };
      }),
    );
    for (const { scalar, slot, file, editor } of results) {
      const cli = (await runValidate([file], { format: 'text', env: {} })).result.diagnostics.filter(
        (d) => d.severity === 'error',
      );
      const cliAccepts = cli.length === 0;
      const editorAccepts = editor.length === 0;
      if (cliAccepts === editorAccepts) continue;
      if (slot === 'markup (number)' && isNonFinite(scalar) && !cliAccepts) {
        nonFinite.add(scalar);
        continue;
      }
      const said = (accepts: boolean, messages: string[]) => (accepts ? 'accepts' : `rejects (${messages.join('; ')})`);
      disagreements.push(
        `${slot}: ${JSON.stringify(scalar)}: CLI ${said(
          cliAccepts,
          cli.map((d) => d.message),
        )}, editor ${said(
          editorAccepts,
          editor.map((d) => d.message),
        )}`,
      );
    }
    expect(disagreements).toEqual([]);
    // Every non-finite number, and only those, is the known difference.
    expect([...nonFinite]).toEqual(SCALAR_CASES.filter(isNonFinite));
  }, 60_000);
});
