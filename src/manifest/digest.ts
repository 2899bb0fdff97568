import { createHash } from 'node:crypto';
import type { DesiredObject, DesiredRoutingTable, JsonValue } from './types.js';

/**
 * `sha256:` over the normalised desired set (the plan file's `manifests.digest`): objects
 * sorted by address with sorted keys, routing rows in declaration order. Formatting,
 * comments, file layout and positions do not count; values from `${VAR}` count through
 * their own sha256, so a rotated secret changes the digest without the digest input ever
 * holding the secret.
 */
export function digestSet(objects: readonly DesiredObject[], tables: readonly DesiredRoutingTable[]): string {
  const hash = createHash('sha256');
  const sorted = [...objects].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  for (const o of sorted) {
    const fields: Record<string, JsonValue> = { ...o.fields };
    for (const name of o.sensitiveFields) fields[name] = `sha256:${createHash('sha256').update(canonical(fields[name] ?? null)).digest('hex')}`;
    const entry = {
      kind: o.kind,
      address: o.address,
      parent: o.parentAddress ?? o.parentRef ?? null,
      fields,
      prune: o.prune,
      protect: o.protect,
      collections: [...o.declaredCollections].sort(),
    };
    hash.update(canonical(entry as unknown as JsonValue)).update('\n');
  }
  for (const t of [...tables].sort((a, b) => (a.table.address < b.table.address ? -1 : 1))) {
    hash.update(`${t.table.address}\n${JSON.stringify(t.columns)}\n`);
    for (const row of t.rows) hash.update(JSON.stringify(row)).update('\n');
  }
  return `sha256:${hash.digest('hex')}`;
}

/** JSON with object keys sorted at every level. */
export function canonical(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k] as JsonValue)}`).join(',')}}`;
}
