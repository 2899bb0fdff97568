import { hasKind, kindOf } from '../kinds/index.js';
import type { Json } from './build-context.js';
import type { PolicyAction, PolicyCheck } from './policy-types.js';
import { didYouMean } from './suggest.js';

/**
 * A rule's `forbid` check: the actions, and `replacedBy`, the fields whose forced replaces
 * it forbids (the others pass). Each field must be one the kind table says forces a
 * replace (`change: 'replace'`, not the identity): a field updated in place never does, and
 * a rule naming one would check nothing.
 */
export function forbidCheck(
  rule: Json,
  kind: string,
  error: (message: string, path: (string | number)[]) => void,
): PolicyCheck {
  const actions = rule['forbid'] as PolicyAction[];
  const fields = rule['replacedBy'] as string[] | undefined;
  if (fields === undefined) return { type: 'forbid', actions };
  if (!actions.includes('replace'))
    error('replacedBy narrows the replaces a rule forbids: its forbid must list replace', ['forbid']);
  const definition = hasKind(kind) ? kindOf(kind) : undefined;
  const forcing = (definition?.fields ?? [])
    .filter((f) => f.change === 'replace' && !definition?.manifest.identity.includes(f.name))
    .map((f) => f.name);
  fields.forEach((field, i) => {
    if (forcing.includes(field)) return;
    const known = definition?.fields.some((f) => f.name === field);
    const which = forcing.length > 0 ? `; the fields that do are ${forcing.join(', ')}` : '; none of its fields does';
    const what = known ? `${kind}.${field} never forces a replace` : `${kind} has no field "${field}"`;
    error(`${what}${which}${didYouMean(field, forcing)}`, ['replacedBy', i]);
  });
  return { type: 'forbid', actions, replacedBy: fields };
}
