import { nearestAncestor } from '../core/address-prefix.js';
import { FOLDED_AWAY, foldIdentity } from '../core/values.js';
import type { PlanPart } from './part.js';
import type { Change, PlanMessage } from './types.js';

/** Lookalikes listed by name up to this many per provider; the rest are counted. */
const MAX_LISTED = 20;

/**
 * A warning for each object a part creates next to a live object whose address differs
 * only by what `foldIdentity` disregards: case, spaces around a segment, characters that
 * display as nothing, compatibility forms (`tenant/Acme` or `tenant/ac\u00adme` live,
 * `tenant/acme` declared),
 * and for each group of created objects whose addresses differ from each other only so
 * (`tenant/xyz`, `tenant/XYZ`, `tenant/xyz ` all declared): most likely one object spelt two
 * ways, which the plan would otherwise duplicate without a word. When the same plan deletes
 * the live one (prune), the object changes spelling instead, and the warning says so. The
 * objects below a warned create are not warned about again. Row tables, whose live rows a
 * part does not list, check their keys in their own diff.
 */
export function lookalikeWarnings(part: PlanPart): PlanMessage[] {
  const creates = part.changes.filter((c) => c.action === 'create');
  if (creates.length === 0) return [];
  const live = new Map<string, string>();
  for (const address of part.liveAddresses()) live.set(foldAddress(address), address);
  const deleted = new Set(part.changes.filter((c) => c.action === 'delete').map((c) => c.address));
  const warned = new Set<string>();
  const messages: PlanMessage[] = [];
  const spelled = new Map<string, Change[]>();
  const below = (address: string) => nearestAncestor(address, (a) => warned.has(a)) !== undefined;
  for (const change of creates) {
    const folded = foldAddress(change.address);
    const twin = live.get(folded);
    if (twin === change.address) continue;
    if (twin === undefined) {
      const group = spelled.get(folded);
      if (group) group.push(change);
      else spelled.set(folded, [change]);
      continue;
    }
    if (below(change.address)) continue;
    warned.add(change.address);
    const ending = deleted.has(twin)
      ? ', and this plan deletes the live one (prune): the object changes spelling, losing what only the live ' +
        'one holds. If that is not meant, declare the live spelling'
      : '. If they are one object, declare the live spelling; otherwise the platform will hold both';
    messages.push({
      code: 'SB_KEY_LOOKALIKE',
      address: change.address,
      message: `created${at(change)} next to the live ${twin}: the addresses differ only by ${FOLDED_AWAY}${ending}`,
    });
  }
  for (const group of spelled.values()) {
    const [first, ...others] = group as [Change, ...Change[]];
    if (others.length === 0 || below(first.address)) continue;
    for (const c of group) warned.add(c.address);
    messages.push({
      code: 'SB_KEY_LOOKALIKE',
      address: first.address,
      message:
        `created${at(first)}, and so ${others.map((o) => `${JSON.stringify(o.address)}${at(o)}`).join(', ')}: the ` +
        `addresses differ only by ${FOLDED_AWAY}. If they are one object, declare it once; otherwise ` +
        `the platform will hold ${group.length}`,
    });
  }
  if (messages.length <= MAX_LISTED) return messages;
  return [
    ...messages.slice(0, MAX_LISTED),
    {
      code: 'SB_KEY_LOOKALIKE',
      message: `… and ${messages.length - MAX_LISTED} more created objects whose addresses differ from another's only by ${FOLDED_AWAY}`,
    },
  ];
}

function at(change: Change): string {
  return change.source ? ` (${change.source})` : '';
}

function foldAddress(address: string): string {
  return address.split('/').map(foldIdentity).join('/');
}
