/**
 * A last-applied record written before digests were keyed or salted (format 1, plain
 * sha256) is read, compared, and made anew by the next apply; the same when a key is set
 * or rotated. What cannot be migrated stays as it was, and why.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordKeeper, migrateRecordFile } from '../../src/apply/record.js';
import { digestOf } from '../../src/core/canonical-json.js';
import { checkValueDigest, isCurrentForm, recordDigest, digestKeys } from '../../src/core/value-digest.js';
import { LAST_APPLIED_VERSION, readLastApplied, unverifiableDigestWarnings } from '../../src/state/last-applied.js';
import type { DesiredNode } from '../../src/state/types.js';

const target = { baseUrl: 'http://127.0.0.1:1', instance: 'demo' };
const KEY = 'record-migration-key-0123456789-abcdefgh';
const NEW_KEY = 'record-migration-new-key-0123456789-ijklm';

const grace: DesiredNode = {
  kind: 'Administrator',
  address: 'group/demo/admin/ops@demo.example',
  fields: { email: 'ops@demo.example', firstName: 'Grace', lastName: 'Hopper', mobile: '+32470111222' },
};
const sam: DesiredNode = {
  kind: 'Administrator',
  address: 'reseller/south/admin/sam@south.example',
  fields: { email: 'sam@south.example', firstName: 'Sam', lastName: 'South', mobile: '+32470333444' },
};

/** A format 1 record as switchboard wrote it before: plain sha256 of each value. */
function formatOne(): string {
  const entry = (node: DesiredNode, fields: Record<string, unknown>) => ({
    kind: node.kind,
    digests: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, digestOf(v)])),
    identity: { email: node.fields['email'] },
  });
  return JSON.stringify({
    formatVersion: 1,
    target,
    entries: {
      [grace.address]: entry(grace, { firstName: 'Grace', lastName: 'Hopper', mobile: '+32470111222' }),
      // Sam's mobile changed in the manifests since: the old digest tells only the old number.
      [sam.address]: entry(sam, { firstName: 'Sam', lastName: 'South', mobile: '+32470000000', retired: 'x' }),
      // No longer declared by this run: nothing to compare its digests with.
      'tenant/gone/admin/old@gone.example': {
        kind: 'Administrator',
        digests: { firstName: digestOf('Old') },
        identity: { email: 'old@gone.example' },
      },
    },
  });
}

const saved = process.env['SWITCHBOARD_DIGEST_KEY'];
afterEach(() => {
  if (saved === undefined) delete process.env['SWITCHBOARD_DIGEST_KEY'];
  else process.env['SWITCHBOARD_DIGEST_KEY'] = saved;
  delete process.env['SWITCHBOARD_DIGEST_KEY_PREVIOUS'];
});

describe('migrating the last-applied record', () => {
  it('reads format 1, re-digests what the declared values match, drops stale plain digests, keeps the rest', async () => {
    delete process.env['SWITCHBOARD_DIGEST_KEY'];
    const dir = await mkdtemp(join(tmpdir(), 'sb-migrate-'));
    const file = join(dir, 'last-applied.demo.json');
    await writeFile(file, formatOne());
    const entries = await readLastApplied(file);

    const changed = await migrateRecordFile(file, target, entries, [grace, sam]);
    // Grace's three and Sam's names made anew; Sam's stale mobile and a field no kind has dropped.
    expect(changed).toBe(7);
    const text = await readFile(file, 'utf8');
    const written = JSON.parse(text) as { formatVersion: number };
    expect(written.formatVersion).toBe(LAST_APPLIED_VERSION);
    const record = await readLastApplied(file);
    const g = record.get(grace.address)?.digests ?? {};
    for (const field of ['firstName', 'lastName', 'mobile'])
      expect(checkValueDigest(grace.fields[field], g[field] ?? '')).toBe('same');
    expect(Object.values(g).every((d) => isCurrentForm(d))).toBe(true);
    const s = record.get(sam.address)?.digests ?? {};
    expect(Object.keys(s).sort()).toEqual(['firstName', 'lastName']);
    // The entry of an object this run did not declare is left for the apply that plans it.
    expect(record.get('tenant/gone/admin/old@gone.example')?.digests).toEqual({ firstName: digestOf('Old') });
    // No plain sha256 of a declared value is left in the file.
    for (const value of ['Grace', 'Hopper', '+32470111222', 'Sam', 'South', '+32470000000'])
      expect(text).not.toContain(digestOf(value).slice('sha256:'.length));
    // A second pass has nothing left to do, and the file is not written again.
    expect(await migrateRecordFile(file, target, record, [grace, sam])).toBe(0);
  });

  it('with a key set, re-digests salted scrypt digests as keyed ones; after a rotation, the previous key still checks', async () => {
    delete process.env['SWITCHBOARD_DIGEST_KEY'];
    const unkeyed = new Map([
      [grace.address, { kind: 'Administrator', digests: { firstName: recordDigest('Grace') } }],
    ]);
    process.env['SWITCHBOARD_DIGEST_KEY'] = KEY;
    const keeper = new RecordKeeper(join(await mkdtemp(join(tmpdir(), 'sb-migrate-')), 'r.json'), target, unkeyed);
    expect(keeper.migrate([grace])).toBe(1);
    const keyed = keeper.snapshot().get(grace.address)?.digests['firstName'] ?? '';
    expect(keyed).toMatch(/^hmac-sha256:/);
    expect(unverifiableDigestWarnings(keeper.snapshot())).toEqual([]);

    // Rotation: the new key alone cannot check the old digests, and the plan says why.
    process.env['SWITCHBOARD_DIGEST_KEY'] = NEW_KEY;
    const [warning] = unverifiableDigestWarnings(keeper.snapshot());
    expect(warning?.code).toBe('SB_DIGEST_KEY_UNKNOWN');
    expect(warning?.message).toContain('SWITCHBOARD_DIGEST_KEY_PREVIOUS');
    expect(checkValueDigest('Grace', keyed)).toBe('unverifiable');
    expect(keeper.migrate([grace])).toBe(0); // kept: it cannot be checked, and is no plain hash
    process.env['SWITCHBOARD_DIGEST_KEY_PREVIOUS'] = KEY;
    expect(checkValueDigest('Grace', keyed)).toBe('same');
    expect(keeper.migrate([grace])).toBe(1);
    const rotated = keeper.snapshot().get(grace.address)?.digests['firstName'] ?? '';
    expect(rotated.split(':')[1]).toBe(digestKeys().current?.id);
    expect(unverifiableDigestWarnings(keeper.snapshot())).toEqual([]);
  });
});
