/**
 * The plan file's assurance members (docs/assurance.md): `coverage`, `routingTests` and
 * `changeWindows`. Their members in the file's order, as plan-keys.ts lists the others; the
 * shape plan-validate.ts checks; and the ordered copy render-json.ts writes.
 */
import type { AddressInUse, CoverageEffect, CoverageList, CoverageReport, CoverageScope } from './coverage/types.js';
import { complete, pick } from './plan-keys.js';
import type { Json, Problems } from './plan-problems.js';
import type { Plan, RoutingTestsSummary, VectorChange, VectorFailing } from './types.js';
import type { WindowNotice } from './windows.js';

const COVERAGE_KEYS = complete<CoverageReport>()(['scopes', 'listLimit']);
const SCOPE_KEYS = complete<CoverageScope>()([
  'address',
  'numbers',
  'withoutAddress',
  'unverified',
  'verificationUnknown',
  'unusedAddresses',
  'effect',
]);
const LIST_KEYS = complete<CoverageList>()(['count', 'items']);
const EFFECT_KEYS = complete<CoverageEffect>()(['linksAdded', 'linksMoved', 'addressesInUse', 'withoutAddressAfter']);
const IN_USE_KEYS = complete<AddressInUse>()(['address', 'action', 'numbers', 'relinked']);
const TESTS_KEYS = complete<RoutingTestsSummary>()(['vectors', 'changed', 'changedCount', 'failing', 'failingCount']);
const VECTOR_KEYS = complete<VectorChange>()(['test', 'table', 'vector', 'before', 'after', 'source']);
const FAILING_KEYS = complete<VectorFailing>()(['test', 'table', 'vector', 'message', 'source']);
const NOTICE_KEYS = complete<WindowNotice>()([
  'window',
  'schedule',
  'checkedAt',
  'open',
  'frozen',
  'nextOpens',
  'nextOpensLocal',
  'changes',
  'addresses',
  'source',
]);

const SCOPE_LISTS = ['withoutAddress', 'unverified', 'verificationUnknown', 'unusedAddresses'] as const;
const EFFECT_LISTS = ['linksAdded', 'linksMoved'] as const;

/** The checks plan-members.ts runs on every object of the file. */
export interface MemberChecks {
  check(object: unknown, keys: readonly string[], at: string): object is Json;
  each(list: unknown, keys: readonly string[], at: string, inner?: (item: Json, at: string) => void): void;
}

/** Unknown members of the assurance members, reported as plan-members.ts reports the others. */
export function unknownAssuranceMembers(value: Json, { check, each }: MemberChecks): void {
  if (check(value['coverage'], COVERAGE_KEYS, 'coverage'))
    each(value['coverage']['scopes'], SCOPE_KEYS, 'coverage.scopes', (scope, at) => {
      for (const list of SCOPE_LISTS) check(scope[list], LIST_KEYS, `${at}.${list}`);
      const effect = scope['effect'];
      if (!check(effect, EFFECT_KEYS, `${at}.effect`)) return;
      for (const list of EFFECT_LISTS) check(effect[list], LIST_KEYS, `${at}.effect.${list}`);
      each(effect['addressesInUse'], IN_USE_KEYS, `${at}.effect.addressesInUse`, (use, where) =>
        check(use['numbers'], LIST_KEYS, `${where}.numbers`),
      );
    });
  if (check(value['routingTests'], TESTS_KEYS, 'routingTests')) {
    each(value['routingTests']['changed'], VECTOR_KEYS, 'routingTests.changed');
    each(value['routingTests']['failing'], FAILING_KEYS, 'routingTests.failing');
  }
  each(value['changeWindows'], NOTICE_KEYS, 'changeWindows');
}

/** The shape of the assurance members (each optional). */
export function checkAssurance(plan: Json, p: Problems): void {
  const coverage = plan['coverage'];
  if (coverage !== undefined && p.object(coverage, 'coverage')) {
    if (coverage['listLimit'] !== null) p.count(coverage['listLimit'], 'coverage.listLimit');
    if (p.array(coverage['scopes'], 'coverage.scopes'))
      coverage['scopes'].forEach((scope, i) => checkScope(scope, `coverage.scopes[${i}]`, p));
  }
  const tests = plan['routingTests'];
  if (tests !== undefined && p.object(tests, 'routingTests')) {
    p.count(tests['vectors'], 'routingTests.vectors');
    p.count(tests['changedCount'], 'routingTests.changedCount');
    if (p.array(tests['changed'], 'routingTests.changed'))
      tests['changed'].forEach((c, i) => {
        const at = `routingTests.changed[${i}]`;
        if (p.object(c, at)) for (const key of VECTOR_KEYS) p.string(c[key], `${at}.${key}`);
      });
    // Both or neither: a plan whose vectors all pass has no `failing`.
    if (tests['failing'] !== undefined || tests['failingCount'] !== undefined) {
      p.count(tests['failingCount'], 'routingTests.failingCount');
      if (p.array(tests['failing'], 'routingTests.failing'))
        tests['failing'].forEach((c, i) => {
          const at = `routingTests.failing[${i}]`;
          if (p.object(c, at)) for (const key of FAILING_KEYS) p.string(c[key], `${at}.${key}`);
        });
    }
  }
  const windows = plan['changeWindows'];
  if (windows !== undefined && p.array(windows, 'changeWindows'))
    windows.forEach((n, i) => {
      const at = `changeWindows[${i}]`;
      if (!p.object(n, at)) return;
      for (const key of ['window', 'schedule', 'checkedAt', 'source'] as const) p.string(n[key], `${at}.${key}`);
      for (const key of ['frozen', 'nextOpens', 'nextOpensLocal'] as const) p.optionalString(n[key], `${at}.${key}`);
      if (typeof n['open'] !== 'boolean') p.add(`${at}.open must be true or false`);
      p.count(n['changes'], `${at}.changes`);
      p.strings(n['addresses'], `${at}.addresses`);
    });
}

function checkScope(scope: unknown, at: string, p: Problems): void {
  if (!p.object(scope, at)) return;
  p.string(scope['address'], `${at}.address`);
  p.count(scope['numbers'], `${at}.numbers`);
  for (const list of SCOPE_LISTS) checkList(scope[list], `${at}.${list}`, p);
  const effect = scope['effect'];
  if (!p.object(effect, `${at}.effect`)) return;
  for (const list of EFFECT_LISTS) checkList(effect[list], `${at}.effect.${list}`, p);
  if (typeof effect['withoutAddressAfter'] !== 'number' || !Number.isInteger(effect['withoutAddressAfter']))
    p.add(`${at}.effect.withoutAddressAfter must be an integer`);
  if (p.array(effect['addressesInUse'], `${at}.effect.addressesInUse`))
    effect['addressesInUse'].forEach((use, i) => {
      const where = `${at}.effect.addressesInUse[${i}]`;
      if (!p.object(use, where)) return;
      p.string(use['address'], `${where}.address`);
      p.oneOf(use['action'], ['update', 'delete', 'replace'], `${where}.action`);
      checkList(use['numbers'], `${where}.numbers`, p);
      if (typeof use['relinked'] !== 'boolean') p.add(`${where}.relinked must be true or false`);
    });
}

function checkList(list: unknown, at: string, p: Problems): void {
  if (!p.object(list, at)) return;
  p.count(list['count'], `${at}.count`);
  p.strings(list['items'], `${at}.items`);
}

/** The assurance members of a plan in the file's key order (those it has). */
export function orderAssurance(plan: Plan): Pick<Plan, 'coverage' | 'routingTests' | 'changeWindows'> {
  const list = (l: CoverageList): CoverageList => ({ count: l.count, items: [...l.items] });
  return {
    ...(plan.coverage
      ? {
          coverage: {
            scopes: plan.coverage.scopes.map((s) => ({
              address: s.address,
              numbers: s.numbers,
              withoutAddress: list(s.withoutAddress),
              unverified: list(s.unverified),
              verificationUnknown: list(s.verificationUnknown),
              unusedAddresses: list(s.unusedAddresses),
              effect: {
                linksAdded: list(s.effect.linksAdded),
                linksMoved: list(s.effect.linksMoved),
                addressesInUse: s.effect.addressesInUse.map((u) => ({
                  address: u.address,
                  action: u.action,
                  numbers: list(u.numbers),
                  relinked: u.relinked,
                })),
                withoutAddressAfter: s.effect.withoutAddressAfter,
              },
            })),
            listLimit: plan.coverage.listLimit,
          },
        }
      : {}),
    ...(plan.routingTests
      ? {
          routingTests: {
            vectors: plan.routingTests.vectors,
            changed: plan.routingTests.changed.map((c) => pick(c, VECTOR_KEYS)),
            changedCount: plan.routingTests.changedCount,
            ...(plan.routingTests.failing
              ? {
                  failing: plan.routingTests.failing.map((c) => pick(c, FAILING_KEYS)),
                  failingCount: plan.routingTests.failingCount ?? plan.routingTests.failing.length,
                }
              : {}),
          },
        }
      : {}),
    ...(plan.changeWindows
      ? { changeWindows: plan.changeWindows.map((n) => ({ ...pick(n, NOTICE_KEYS), addresses: [...n.addresses] })) }
      : {}),
  };
}
