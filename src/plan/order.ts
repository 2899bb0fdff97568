import { parentAddressOf } from '../kinds/address-path.js';
import { kinds } from '../kinds/index.js';
import type { Change } from './types.js';
import { compareKeys } from '../core/canonical-json.js';

const kindRank = new Map(kinds.map((k, i) => [k.kind, i]));
const rank = (kind: string): number => kindRank.get(kind) ?? kinds.length;

/**
 * Dependency order: parents before children for creates, updates and replaces; children
 * before parents for deletes (a parent's delete waits for its children's). The list order
 * is a valid sequential order; `dependsOn` lets the executor run independent branches at
 * once.
 */
export function orderChanges(changes: Change[]): Change[] {
  const deletes = changes.filter((c) => c.action === 'delete');
  const deleted = new Set(deletes.map((c) => c.address));
  for (const change of deletes) {
    const parent = parentOf(change.address, deleted);
    if (parent === undefined) continue;
    const parentChange = deletes.find((c) => c.address === parent);
    if (parentChange && !parentChange.dependsOn.includes(change.address)) parentChange.dependsOn.push(change.address);
  }
  const forward = changes
    .filter((c) => c.action !== 'delete')
    .sort((a, b) => rank(a.kind) - rank(b.kind) || compareKeys(a.address, b.address));
  const backward = deletes.sort((a, b) => rank(b.kind) - rank(a.kind) || compareKeys(a.address, b.address));
  return [...forward, ...backward];
}

/** The nearest deleted ancestor of an address (addresses nest by path). */
function parentOf(address: string, deleted: ReadonlySet<string>): string | undefined {
  for (let candidate = parentAddressOf(address); candidate !== undefined; candidate = parentAddressOf(candidate)) {
    if (deleted.has(candidate)) return candidate;
  }
  return undefined;
}
