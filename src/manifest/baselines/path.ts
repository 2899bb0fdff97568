/**
 * The one path syntax of baselines (docs/baselines.md): where a value or an item of a
 * document is, as overrides, error messages, `explain` and plans write it:
 *
 *     spec.markup
 *     spec.subscriptions[main].entitlements[BE geo].entitlement
 *     spec.subscriptions[main].templates[TPL-STD]
 *     spec.subscriptions[main].numbers[+3221234562].address
 *
 * `spec`, then for each collection its key and the item's identity in brackets (the identity
 * its address holds: a template's sku, an address's full address), then a field. An
 * identity holding `]` or `\` writes it as `\]` or `\\`.
 */

/** One step of a path: a key (`spec`, a collection, a field) or an item's identity. */
export type PathStep = { key: string } | { item: string };

/** `[identity]`, escaped. */
export function itemStep(identity: string): string {
  return `[${identity.replace(/[\\\]]/g, (c) => `\\${c}`)}]`;
}

export function itemPath(collection: string, identity: string): string {
  return `${collection}${itemStep(identity)}`;
}

const KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*/;

/**
 * The steps of a path as written in an override, or why it is not one. Parsing checks the
 * syntax only; whether the path names a value is the merge's business (a path no baseline
 * sets is a stale override). The result is the path written canonically, so `spec.a[x]`
 * and `spec . a [x]` are not both accepted: whitespace is part of identities only.
 */
export function parsePath(text: string): { steps: PathStep[] } | { problem: string } {
  const steps: PathStep[] = [];
  let i = 0;
  let expectKey = true;
  while (i < text.length) {
    const c = text[i];
    if (c === '[') {
      if (steps.length === 0) return { problem: 'a path starts with spec' };
      let identity = '';
      i++;
      let closed = false;
      while (i < text.length) {
        const d = text[i] as string;
        if (d === '\\' && i + 1 < text.length) {
          identity += text[i + 1];
          i += 2;
          continue;
        }
        if (d === ']') {
          closed = true;
          i++;
          break;
        }
        identity += d;
        i++;
      }
      if (!closed) return { problem: 'a "[" is never closed with "]"' };
      if (identity === '') return { problem: 'an item needs its identity between [ and ]' };
      steps.push({ item: identity });
      expectKey = false;
      continue;
    }
    if (c === '.') {
      if (expectKey) return { problem: `unexpected "." at character ${i + 1}` };
      i++;
      expectKey = true;
      continue;
    }
    if (!expectKey) return { problem: `expected "." or "[" at character ${i + 1}` };
    const match = KEY.exec(text.slice(i));
    if (!match) return { problem: `expected a field or collection name at character ${i + 1}` };
    steps.push({ key: match[0] });
    i += match[0].length;
    expectKey = false;
  }
  if (expectKey) return { problem: 'a path ends with a field, a collection or an item' };
  const first = steps[0];
  if (!first || !('key' in first) || first.key !== 'spec')
    return { problem: 'a path starts with spec (spec.markup, spec.subscriptions[main]…)' };
  return { steps };
}

/** The path of steps, written canonically (what merges compare). */
export function formatPath(steps: readonly PathStep[]): string {
  let out = '';
  for (const step of steps) {
    if ('item' in step) out += itemStep(step.item);
    else out += out === '' ? step.key : `.${step.key}`;
  }
  return out;
}
