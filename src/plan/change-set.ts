/**
 * The change set: what a plan would do, and nothing about when, by whom or against which
 * copies of the objects (docs/plans.md "The change set"). For each change, in plan order:
 * its address, kind, provider, action, former address, before/after/patch as the plan file
 * holds them (sensitive values masked), the digests of its sensitive values, its requests
 * (method, and the path with live ids replaced by the addresses they stand for) and what it
 * depends on. Live ids, live digests, reasons, manifest positions, times and every plan-level
 * member (warnings, counts, provenance) are left out: two plans of the same manifests against
 * the same live state (one on a pull request, one after the merge) have the same change-set
 * digest, and any difference in what would be done changes it.
 */
import { canonicalJson, digestOf } from '../core/canonical-json.js';
import type { Change, ChangeSetSeal, PlannedRequest } from './types.js';

/** What the change-set digest covers of one change. */
export interface ChangeSetEntry {
  address: string;
  kind: string;
  provider: Change['provider'];
  action: Change['action'];
  previousAddress?: string;
  before: Change['before'];
  after: Change['after'];
  patch: Change['patch'];
  sensitiveDigests?: Record<string, string>;
  requests: { method: PlannedRequest['method']; path: string }[];
  dependsOn: string[];
}

/** The fields of an entry, in the order a difference lists them. */
const CHANGE_SET_FIELDS = [
  'kind',
  'provider',
  'action',
  'previousAddress',
  'before',
  'after',
  'patch',
  'sensitiveDigests',
  'requests',
  'dependsOn',
] as const satisfies readonly (keyof ChangeSetEntry)[];

/** One change as the change set sees it (from a change as the plan file holds it: masked). */
function changeSetEntry(change: Change): ChangeSetEntry {
  const entry: ChangeSetEntry = {
    address: change.address,
    kind: change.kind,
    provider: change.provider,
    action: change.action,
    before: change.before,
    after: change.after,
    patch: change.patch,
    requests: change.requests.map((r) => ({ method: r.method, path: r.pathTemplate ?? r.path })),
    dependsOn: change.dependsOn,
  };
  if (change.previousAddress !== undefined) entry.previousAddress = change.previousAddress;
  if (change.sensitiveDigests !== undefined) entry.sensitiveDigests = change.sensitiveDigests;
  return entry;
}

/** `sha256:` of the RFC 8785 canonical JSON of the entries, in plan order. */
export function changeSetDigest(changes: readonly Change[]): string {
  return digestOf(changes.map(changeSetEntry));
}

/** The seal a plan records (`changeSet`). */
export function changeSetSeal(changes: readonly Change[]): ChangeSetSeal {
  return { digest: changeSetDigest(changes), changes: changes.length };
}

/** How one address differs between two change sets. */
export interface ChangeDifference {
  address: string;
  /** `first`/`second`: the change is in that set only; `both`: `fields` differ. */
  in: 'first' | 'second' | 'both';
  /** The action of the change in each set that has it. */
  actions: { first?: Change['action']; second?: Change['action'] };
  fields: { field: (typeof CHANGE_SET_FIELDS)[number]; first: unknown; second: unknown }[];
}

/** What tells two change sets apart: changed addresses in the first set's order, then those of the second only. */
export interface ChangeSetComparison {
  same: boolean;
  differences: ChangeDifference[];
  /** The same changes, in another order (the order is the order of applying). */
  reordered: boolean;
}

/** Compares two lists of changes (each as its plan file holds it) by what the change set covers. */
export function compareChangeSets(first: readonly Change[], second: readonly Change[]): ChangeSetComparison {
  const a = first.map(changeSetEntry);
  const b = second.map(changeSetEntry);
  const byAddress = new Map(b.map((e) => [e.address, e]));
  const differences: ChangeDifference[] = [];
  const seen = new Set<string>();
  for (const entry of a) {
    seen.add(entry.address);
    const other = byAddress.get(entry.address);
    if (!other) {
      differences.push({ address: entry.address, in: 'first', actions: { first: entry.action }, fields: [] });
      continue;
    }
    const fields = CHANGE_SET_FIELDS.filter((f) => canonicalJson(entry[f] ?? null) !== canonicalJson(other[f] ?? null));
    if (fields.length > 0) {
      differences.push({
        address: entry.address,
        in: 'both',
        actions: { first: entry.action, second: other.action },
        fields: fields.map((field) => ({ field, first: entry[field] ?? null, second: other[field] ?? null })),
      });
    }
  }
  for (const entry of b) {
    if (!seen.has(entry.address))
      differences.push({ address: entry.address, in: 'second', actions: { second: entry.action }, fields: [] });
  }
  const same = canonicalJson(a) === canonicalJson(b);
  return { same, differences, reordered: !same && differences.length === 0 };
}

/**
 * `path` with the live ids of `chain` (the objects the request's object lies under, root
 * first, itself last) replaced by `{id:ADDRESS}`. A path names its objects from the root
 * down, so each id is looked for after the one before it: ids that are equal (a subscription
 * and an entitlement both numbered 1) stay apart, and an object whose id the path does not
 * hold (the object itself in the POST that creates it again) is skipped. Ids are matched as
 * the path holds them (URL-encoded) or as given.
 */
export function templatePath(path: string, chain: readonly { address: string; id: string }[]): string {
  if (chain.length === 0) return path;
  const segments = path.split('/');
  let next = 0;
  for (const { address, id } of chain) {
    const forms = new Set([encodeURIComponent(id), id]);
    for (let s = next; s < segments.length; s++) {
      if (!forms.has(segments[s] as string)) continue;
      segments[s] = `{id:${address}}`;
      next = s + 1;
      break;
    }
  }
  return segments.join('/');
}
