import { addressPairs } from '../../kinds/address-path.js';
import type { DocumentRecord } from '../document-records.js';
import type { Json } from '../build-context.js';
import { selectorKeys, selects } from './selector.js';

/**
 * `plan --changed-since` and baselines: a changed Baseline document puts in scope every
 * document it selects now or selected at the commit (its selector then and now, checked
 * against the documents as they are now and as they were), and a changed document a selector
 * can name (a reseller moved to another group) puts in scope the documents under it when a
 * baseline selects by that kind. The documents' own changes are scoped as any document's.
 */
export function baselineScope(
  changed: readonly string[],
  before: readonly DocumentRecord[],
  now: readonly DocumentRecord[],
): string[] {
  const wanted = new Set(changed);
  const all = [...now, ...before];
  const selectors = all.filter((r) => r.selector && wanted.has(r.address)).map((r) => r.selector as Json);
  const everySelector = all.filter((r) => r.selector).map((r) => r.selector as Json);
  const movedOwners = ownersChanged(changed, all, everySelector);
  if (selectors.length === 0 && movedOwners.length === 0) return [];
  const found = new Set<string>();
  for (const record of all) {
    const facts = record.selection;
    if (!facts || found.has(record.address)) continue;
    const ancestors = new Map(Object.entries(facts.ancestors));
    const labels = facts.labels as Json | undefined;
    if (selectors.some((selector) => selects(selector, ancestors, labels))) found.add(record.address);
    else if (movedOwners.some(({ kind, name }) => ancestors.get(kind) === name)) found.add(record.address);
  }
  return [...found].sort();
}

/**
 * Changed documents of the kinds a selector can name, by kind and name, when some baseline
 * selects by an owner. Every such kind counts, not only the one a selector names: a reseller
 * moved to another group changes which tenants a selector by group takes, and a reseller
 * declared or removed changes the group a tenant is known to be under.
 */
function ownersChanged(
  changed: readonly string[],
  records: readonly DocumentRecord[],
  selectors: readonly Json[],
): { kind: string; name: string }[] {
  const byOwner = selectorKeys().some(({ key }) => selectors.some((s) => Array.isArray(s[key])));
  if (!byOwner) return [];
  const used = selectorKeys();
  const wanted = new Set(changed);
  const out: { kind: string; name: string }[] = [];
  for (const record of records) {
    const own = record.objects.find((o) => o.address === record.address);
    const key = own && used.find((k) => k.kind.kind === own.kind);
    if (!key || !wanted.has(record.address)) continue;
    const [pair] = addressPairs(record.address);
    if (pair) out.push({ kind: key.kind.kind, name: pair[1] });
  }
  return out;
}
