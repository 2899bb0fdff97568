/**
 * The files switchboard leaves behind hold no digest a dictionary reverses
 * (docs/reliability.md, "What the record and a plan tell"): `examples/` (one administrator's
 * mobile and one external reference given through `${VAR}`) applied to a simulator, with
 * and without SWITCHBOARD_DIGEST_KEY. Every write-only and sensitive value the manifests
 * declare is hashed every common way (md5, sha1, sha256, sha512; raw and as JSON; hex and
 * base64) and searched for in the last-applied record, the plan files and the journals.
 * Plans made twice from the same record carry the same digests; a record of an older
 * switchboard (plain sha256) is compared, then migrated by the next apply.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, digestOf } from '../../src/core/canonical-json.js';
import { fieldSpec } from '../../src/kinds/fields.js';
import { hasKind, kindOf } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifest/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, runCli, simEnv } from './cli-helpers.js';

const SECRET_ENV = { ADMIN_MOBILE: '+32470555666', ACME_TF_REF: 'ACME-TF-SECRET-2026' };
const KEY = 'value-digests-e2e-key-0123456789-abcdefghij';
const RECORD = join('.switchboard', 'last-applied.demo.json');

/** A copy of examples/ in which two write-only values come from the environment. */
async function examplesWithSecrets(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-digests-'));
  await cp(EXAMPLES, dir, { recursive: true, filter: (source) => !source.includes('.github') });
  const edit = async (file: string, from: string, to: string) => {
    const text = await readFile(join(dir, file), 'utf8');
    expect(text).toContain(from);
    await writeFile(join(dir, file), text.replace(from, to));
  };
  await edit('group.yaml', 'mobile: "+32470111222"', 'mobile: "${ADMIN_MOBILE}"');
  await edit('tenants/acme-corp.yaml', 'externalReference: ACME-TF-2026', 'externalReference: "${ACME_TF_REF}"');
  return dir;
}

/** Every write-only or sensitive value the manifests declare (as the kind table says), as text. */
async function knownSecrets(dir: string): Promise<unknown[]> {
  const loaded = await loadManifests([dir], { env: SECRET_ENV });
  expect(loaded.ok).toBe(true);
  const values: unknown[] = [];
  for (const object of loaded.set.objects) {
    if (!hasKind(object.kind)) continue;
    const kind = kindOf(object.kind);
    for (const [name, value] of Object.entries(object.fields)) {
      const spec = fieldSpec(kind.fields, name);
      const secret = spec?.change === 'writeOnly' || spec?.sensitive || object.sensitiveFields.includes(name);
      if (secret && value !== undefined) values.push(value);
    }
  }
  return values;
}

/** Every unkeyed fast hash of a value an attacker would try: algorithms × inputs × encodings. */
function hashesOf(value: unknown): string[] {
  const inputs = new Set([canonicalJson(value), typeof value === 'string' ? value : String(value)]);
  const out: string[] = [];
  for (const input of inputs) {
    for (const algorithm of ['md5', 'sha1', 'sha256', 'sha512', 'sha3-256']) {
      const bytes = createHash(algorithm).update(input).digest();
      out.push(bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url'));
    }
  }
  return out;
}

async function filesOf(cwd: string, extra: string[]): Promise<Record<string, string>> {
  const state = join(cwd, '.switchboard');
  const names = (await readdir(state)).filter((f) => f.startsWith('journal-') || f.startsWith('last-applied'));
  const texts: Record<string, string> = {};
  for (const file of [...names.map((n) => join(state, n)), ...extra]) texts[file] = await readFile(file, 'utf8');
  return texts;
}

function expectNoReversibleDigest(texts: Record<string, string>, secrets: readonly unknown[]): void {
  let searched = 0;
  for (const secret of secrets) {
    for (const hash of hashesOf(secret)) {
      for (const [file, text] of Object.entries(texts)) {
        searched++;
        expect(text.includes(hash), `${file} holds a fast hash of ${JSON.stringify(secret)}`).toBe(false);
      }
    }
  }
  expect(searched).toBeGreaterThan(300);
  for (const [file, text] of Object.entries(texts)) {
    for (const value of Object.values(SECRET_ENV)) expect(text, file).not.toContain(value);
    expect(text, file).not.toContain(KEY);
  }
}

interface PlanFile {
  changes: { address: string; sensitiveDigests?: Record<string, string> }[];
}
const sensitiveDigestsOf = async (file: string) =>
  Object.fromEntries(
    ((JSON.parse(await readFile(file, 'utf8')) as PlanFile).changes ?? [])
      .filter((c) => c.sensitiveDigests)
      .map((c) => [c.address, c.sensitiveDigests]),
  );

describe.each([
  ['without SWITCHBOARD_DIGEST_KEY (salted scrypt)', {}, /^scrypt:\d+:\d+:\d+:[0-9a-f]{32}:[0-9a-f]{64}$/, false],
  ['with SWITCHBOARD_DIGEST_KEY (HMAC-SHA-256)', { SWITCHBOARD_DIGEST_KEY: KEY }, /^hmac-sha256:[0-9a-f]{8}:/, true],
])('examples/ applied %s', (_name, keyEnv: Record<string, string>, form: RegExp, migrate: boolean) => {
  let sim: RunningSimulator;
  let dir: string;
  let secrets: unknown[];
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    dir = await examplesWithSecrets();
    secrets = await knownSecrets(dir);
  });
  afterAll(async () => {
    await sim.close();
  });

  it('leaves no fast hash of any write-only or sensitive value in the record, the plan files or the journal', async () => {
    const env = { ...simEnv(sim.url), ...SECRET_ENV, ...keyEnv };
    expect(secrets).toEqual(expect.arrayContaining(['Grace', 'Hopper', '+32470333444', ...Object.values(SECRET_ENV)]));
    const first = join(dir, 'first.plan.json');
    const again = join(dir, 'again.plan.json');
    for (const out of [first, again]) {
      const planned = await runCli(['plan', dir, '--out', out], { env, cwd: dir });
      expect(planned.code, planned.stderr).toBe(0);
    }
    // The same manifests and record: the same digests (the change-set digest compares them).
    const digests = await sensitiveDigestsOf(first);
    expect(Object.keys(digests).length).toBeGreaterThan(0);
    expect(await sensitiveDigestsOf(again)).toEqual(digests);
    for (const d of Object.values(digests).flatMap((r) => Object.values(r ?? {}))) expect(d).toMatch(form);

    const applied = await runCli(['apply', '--plan', first, dir, '--yes'], { env, cwd: dir });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const record = JSON.parse(await readFile(join(dir, RECORD), 'utf8')) as {
      formatVersion: number;
      entries: Record<string, { digests: Record<string, string> }>;
    };
    expect(record.formatVersion).toBe(2);
    const recorded = Object.values(record.entries).flatMap((e) => Object.values(e.digests));
    expect(recorded.length).toBeGreaterThan(10);
    for (const d of recorded) expect(d).toMatch(form);

    // A changed secret: a plan with the new value's digest, different from before.
    const changedEnv = { ...env, ADMIN_MOBILE: '+32470555667' };
    const changed = join(dir, 'changed.plan.json');
    const replanned = await runCli(['plan', dir, '--out', changed, '--detailed-exitcode'], {
      env: changedEnv,
      cwd: dir,
    });
    expect(replanned.code, replanned.stderr).toBe(2);
    const after = await sensitiveDigestsOf(changed);
    const admin = 'group/demo-group/admin/platform-ops@demo.example.net';
    expect(Object.keys(after)).toEqual([admin]);
    expect(after[admin]?.['mobile']).toMatch(form);
    expect(after[admin]?.['mobile']).not.toBe(digests[admin]?.['mobile']);

    const texts = await filesOf(dir, [first, again, changed]);
    expectNoReversibleDigest(texts, [...secrets, '+32470555667']);
  }, 120_000);

  // Once, with the key (the migration is the same code without one: test/apply/record-migration.test.ts).
  if (migrate)
    it('compares a record of an older switchboard (plain sha256), then migrates it on the next apply', async () => {
      const env = { ...simEnv(sim.url), ...SECRET_ENV, ...keyEnv };
      // The record as an older switchboard wrote it for these manifests: format 1, sha256 of each value.
      const loaded = await loadManifests([dir], { env: SECRET_ENV });
      const current = JSON.parse(await readFile(join(dir, RECORD), 'utf8')) as {
        target: unknown;
        entries: Record<string, { kind: string; digests: Record<string, string> }>;
      };
      for (const [address, entry] of Object.entries(current.entries)) {
        const object = loaded.set.objects.find((o) => o.address === address);
        for (const field of Object.keys(entry.digests)) entry.digests[field] = digestOf(object?.fields[field] ?? null);
      }
      await writeFile(join(dir, RECORD), JSON.stringify({ ...current, formatVersion: 1 }));

      const planned = await runCli(['plan', dir, '--detailed-exitcode'], { env, cwd: dir });
      expect(planned.stdout + planned.stderr).toContain('No changes.');
      expect(planned.code).toBe(0);
      const applied = await runCli(['apply', dir, '--yes'], { env, cwd: dir });
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      const migrated = await readFile(join(dir, RECORD), 'utf8');
      expect((JSON.parse(migrated) as { formatVersion: number }).formatVersion).toBe(2);
      expectNoReversibleDigest({ [RECORD]: migrated }, secrets);
      const again = await runCli(['plan', dir, '--detailed-exitcode'], { env, cwd: dir });
      expect(again.stdout).toContain('No changes.');
      expect(again.code).toBe(0);
      // Without the key the record's digests cannot be checked: the plan says why it sends the values again.
      const { SWITCHBOARD_DIGEST_KEY: _key, ...keyless } = env as Record<string, string>;
      const unkeyed = await runCli(['plan', dir, '--detailed-exitcode'], { env: keyless, cwd: dir });
      expect(unkeyed.code, unkeyed.stderr).toBe(2);
      expect(unkeyed.stdout).toContain('SB_DIGEST_KEY_UNKNOWN');
      expect(unkeyed.stdout).toContain('SWITCHBOARD_DIGEST_KEY is not set');
    }, 120_000);
});
