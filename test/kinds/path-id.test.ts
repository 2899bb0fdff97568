/**
 * An id in a request path (src/kinds/fields.ts `pathId`): left as it is only when
 * `encodeURIComponent` would leave it so; a pending-id placeholder is never encoded.
 */
import { describe, expect, it } from 'vitest';
import { needsEncoding, pathId } from '../../src/kinds/fields.js';

describe('an id in a request path', () => {
  it('is encoded exactly when encodeURIComponent changes it: every character up to U+02FF, and surrogates', () => {
    for (let c = 0; c <= 0x2ff; c++) {
      const one = String.fromCharCode(c);
      expect(needsEncoding(one), `U+${c.toString(16)}`).toBe(encodeURIComponent(one) !== one);
      expect(pathId({ Tenant: `a${one}b` }, 'Tenant')).toBe(encodeURIComponent(`a${one}b`));
    }
    for (const text of ['😀', '\uD800', 'Zürich', '東京']) expect(needsEncoding(text)).toBe(true);
  });

  it('keeps uuids, numbers and pending-id placeholders as they are', () => {
    const uuid = '4b7c9a52-7e1f-4c3d-9a8b-0f1e2d3c4b5a';
    expect(pathId({ Tenant: uuid }, 'Tenant')).toBe(uuid);
    expect(pathId({ Subscription: '42' }, 'Subscription')).toBe('42');
    expect(pathId({ Tenant: '{id:tenant/acme}' }, 'Tenant')).toBe('{id:tenant/acme}');
    expect(pathId({ Tenant: 'a/b c' }, 'Tenant')).toBe('a%2Fb%20c');
    expect(() => pathId({}, 'Tenant')).toThrow('no Tenant id in the id chain');
  });
});
