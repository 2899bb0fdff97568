import { foldIdentity } from '../core/values.js';
import type { PlanPart } from './part.js';
import type { PlanMessage } from './types.js';

/** Lookalikes listed by name up to this many per provider; the rest are counted. */
const MAX_LISTED = 20;

/**
 * A warning for each object a part creates next to a live object whose address differs
 * only by case or by spaces around a segment (`tenant/Acme` live, `tenant/acme` declared):
 * most likely one object spelt two ways, which the plan would otherwise duplicate without a
 * word. The objects below a warned create are not warned about again. Row tables, whose
 * live rows a part does not list, check their keys in their own diff.
 */
export function lookalikeWarnings(part: PlanPart): PlanMessage[] {
  const creates = part.changes.filter((c) => c.action === 'create');
  if (creates.length === 0) return [];
  const live = new Map<string, string>();
  for (const address of part.liveAddresses()) live.set(foldAddress(address), address);
  if (live.size === 0) return [];
  const warned: string[] = [];
  const messages: PlanMessage[] = [];
  for (const change of creates) {
    const twin = live.get(foldAddress(change.address));
    if (twin === undefined || twin === change.address) continue;
    if (warned.some((w) => change.address.startsWith(`${w}/`))) continue;
    warned.push(change.address);
    if (warned.length > MAX_LISTED) continue;
    messages.push({
      code: 'SB_KEY_LOOKALIKE',
      address: change.address,
      message:
        `created${change.source ? ` (${change.source})` : ''} next to the live ${twin}: ` +
        'the addresses differ only by case or surrounding spaces. If they are one object, declare the live ' +
        'spelling; otherwise the platform will hold both',
    });
  }
  if (warned.length > MAX_LISTED) {
    messages.push({
      code: 'SB_KEY_LOOKALIKE',
      message: `… and ${warned.length - MAX_LISTED} more created objects whose addresses differ from a live one only by case or spaces`,
    });
  }
  return messages;
}

function foldAddress(address: string): string {
  return address.split('/').map(foldIdentity).join('/');
}
