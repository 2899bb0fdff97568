/**
 * What a plan says of sensitive and write-only values: digests a dictionary cannot reverse,
 * the same for the same manifests and record (the change-set digest compares them), another
 * for another value; comparing with the record still tells a changed value from an
 * unchanged one, whatever form (plain sha256, scrypt, keyed) the record holds.
 */
import { describe, expect, it } from 'vitest';
import { digestOf } from '../../src/core/canonical-json.js';
import { checkValueDigest, isValueDigest, recordDigest } from '../../src/core/value-digest.js';
import type { LiveObject } from '../../src/kinds/types.js';
import { documentDigestInput } from '../../src/manifest/digest.js';
import { createdFields, diffFields, writeOnlyDigests } from '../../src/plan/diff.js';
import { liveDigest } from '../../src/plan/planner.js';
import type { DesiredNode, LastApplied, LastAppliedEntry } from '../../src/state/types.js';

const ADDRESS = 'group/demo/admin/ops@demo.example';
const admin = (mobile: string, sensitive = true): DesiredNode => ({
  kind: 'Administrator',
  address: ADDRESS,
  fields: { email: 'ops@demo.example', firstName: 'Grace', mobile },
  sensitiveFields: sensitive ? ['mobile'] : [],
});
const live: LiveObject = {
  kind: 'Administrator',
  address: ADDRESS,
  id: 'ops@demo.example',
  ids: {},
  fields: { email: 'ops@demo.example' },
  fromRecord: false,
};
const recordOf = (digests: Record<string, string>): LastApplied =>
  new Map<string, LastAppliedEntry>([[ADDRESS, { kind: 'Administrator', digests }]]);

describe('sensitive and write-only values in plans', () => {
  it('compares a declared value with the record in every form it may hold', () => {
    for (const form of [digestOf, (v: unknown) => recordDigest(v)]) {
      const record = recordOf({ firstName: form('Grace'), mobile: form('+32470111222') });
      expect(diffFields(admin('+32470111222'), live, record).changed).toEqual([]);
      expect(diffFields(admin('+32470999999'), live, record).changed).toEqual(['mobile']);
    }
    // Nothing recorded: every write-only value is sent.
    expect(diffFields(admin('+32470111222'), live, new Map()).changed).toEqual(['firstName', 'mobile']);
  });

  it('gives a changed sensitive value the same digest on every plan from the same record, another for another value', () => {
    const record = recordOf({ firstName: recordDigest('Grace'), mobile: recordDigest('+32470111222') });
    const first = diffFields(admin('+32470999999'), live, record).sensitiveDigests['mobile'];
    const again = diffFields(admin('+32470999999'), live, record).sensitiveDigests['mobile'];
    const other = diffFields(admin('+32470888888'), live, record).sensitiveDigests['mobile'];
    expect(isValueDigest(first)).toBe(true);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    // It is the new value's digest, not a copy of the record's.
    expect(checkValueDigest('+32470999999', first ?? '')).toBe('same');
    // After the next apply records the value again (a fresh salt), the next change gets another salt.
    const later = recordOf({ firstName: recordDigest('Grace'), mobile: recordDigest('+32470999999') });
    const next = diffFields(admin('+32470888888'), live, later).sensitiveDigests['mobile'];
    expect(next?.split(':').at(-2)).not.toBe(other?.split(':').at(-2));
  });

  it('digests a created sensitive value the same way every time, and shows it nowhere', () => {
    const a = createdFields(admin('+32470111222'));
    const b = createdFields(admin('+32470111222'));
    expect(a.after['mobile']).toBe('(sensitive)');
    expect(a.sensitiveDigests['mobile']).toBe(b.sensitiveDigests['mobile']);
    expect(isValueDigest(a.sensitiveDigests['mobile'])).toBe(true);
    expect(createdFields(admin('+32470111223')).sensitiveDigests['mobile']).not.toBe(a.sensitiveDigests['mobile']);
  });

  it('keeps a current record digest of an unchanged value, and makes the others anew', () => {
    const kept = recordDigest('Grace');
    const digests = writeOnlyDigests(admin('+32470111222'), { firstName: kept, mobile: digestOf('+32470111222') });
    expect(digests['firstName']).toBe(kept);
    expect(digests['mobile']).not.toBe(digestOf('+32470111222'));
    expect(checkValueDigest('+32470111222', digests['mobile'] ?? '')).toBe('same');
  });

  it('puts a sensitive live value into the live digest only through its value digest, and still follows it', () => {
    const tenant = (billingId: string): LiveObject => ({
      kind: 'Tenant',
      address: 'tenant/acme',
      id: 'uuid-1',
      ids: {},
      fields: { name: 'acme', billingId, markup: 4 },
    });
    const desired: DesiredNode = {
      kind: 'Tenant',
      address: 'tenant/acme',
      fields: { name: 'acme', billingId: 'T-SECRET-1', markup: 5 },
      sensitiveFields: ['billingId'],
    };
    const plain = liveDigest(tenant('T-SECRET-1'));
    const masked = liveDigest(tenant('T-SECRET-1'), desired);
    // Without a sensitive field the digest is what it always was (saved plans stay comparable).
    expect(plain).toBe(digestOf({ id: 'uuid-1', fields: { name: 'acme', billingId: 'T-SECRET-1', markup: 4 } }));
    expect(masked).not.toBe(plain);
    expect(liveDigest(tenant('T-SECRET-1'), desired)).toBe(masked);
    expect(liveDigest(tenant('T-SECRET-2'), desired)).not.toBe(masked);
  });

  it('hides a ${VAR} value of a manifest behind its value digest in the manifests digest input', () => {
    const document = { kind: 'Group', spec: { admins: [{ email: 'a@b.c', mobile: '+32470111222' }] } };
    const sensitive = new Set(['/spec/admins/0/mobile']);
    const input = documentDigestInput(document, sensitive, 'group/demo');
    expect(input).not.toContain('+32470111222');
    expect(input).not.toContain(digestOf('+32470111222').slice(7));
    expect(documentDigestInput(document, sensitive, 'group/demo')).toBe(input);
    const changed = { kind: 'Group', spec: { admins: [{ email: 'a@b.c', mobile: '+32470111223' }] } };
    expect(documentDigestInput(changed, sensitive, 'group/demo')).not.toBe(input);
  });
});
