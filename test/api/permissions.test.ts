import { describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { Permissions, compileRuleUrl } from '../../src/api/index.js';

const rules = [
  { method: 'get', url: '/api/v01/draas/[^/]+/tenants', name: 'tenants.list' },
  { method: 'get', url: '^/api/v01/draas/[^/]+/groups', name: 'groups.any' },
  { method: 'post', url: '/api/v01/draas/[^/]+/tenants', name: 'tenants.create', allowed: false },
  { method: 'put', url: '/api/v01/draas/(?P<inst>[^/]+)/tenants/[^/]+', name: 'tenants.instance.update' },
  { method: 'delete', url: '/api/v01/draas/[/tenants', name: 'broken' },
];

describe('Doc1 §1.6, §2.2: permissions from api_rules', () => {
  const permissions = new Permissions(rules);

  it('an unanchored url must match the whole path (query string ignored)', () => {
    expect(permissions.check('GET', '/api/v01/draas/demo/tenants?page=2')).toEqual({
      allowed: true,
      rule: 'tenants.list',
    });
    expect(permissions.check('get', '/api/v01/draas/demo/tenants/abc')).toEqual({ allowed: false });
    expect(permissions.check('get', '/x/api/v01/draas/demo/tenants')).toEqual({ allowed: false });
  });

  it('an anchored url is applied as written (here: a prefix)', () => {
    expect(permissions.check('get', '/api/v01/draas/demo/groups/g/licenses')).toEqual({
      allowed: true,
      rule: 'groups.any',
    });
  });

  it('the method must match; allowed: false grants nothing; everything else is blocked', () => {
    expect(permissions.check('post', '/api/v01/draas/demo/tenants')).toEqual({ allowed: false });
    expect(permissions.check('put', '/api/v01/draas/demo/groups/g')).toEqual({ allowed: false });
    expect(permissions.hasRole('tenants.list')).toBe(true);
    expect(permissions.hasRole('tenants.create')).toBe(false);
  });

  it('Python-style named groups are understood', () => {
    expect(permissions.check('put', '/api/v01/draas/demo/tenants/4b7c')).toEqual({
      allowed: true,
      rule: 'tenants.instance.update',
    });
    expect(compileRuleUrl('\\A/api/(?P<a>x)/(?P=a)\\Z')!.test('/api/x/x')).toBe(true);
  });

  it('an invalid regular expression is ignored with a warning, not a crash', () => {
    const logger = pino({ level: 'warn' });
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const checked = new Permissions(rules, logger);
    expect(checked.check('delete', '/api/v01/draas/[/tenants')).toEqual({ allowed: false });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(checked.rules()).toHaveLength(4);
  });
});
