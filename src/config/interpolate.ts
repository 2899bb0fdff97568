/** An unset variable referenced as `${VAR}`, with where it was referenced. */
export interface MissingVariable {
  name: string;
  /** Dotted location in the document, e.g. `environments.prod.auth.password`. */
  at: string;
}

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${VAR}` in every string of a parsed YAML document by the environment variable
 * `VAR` (docs/manifests.md); `$$` is a literal `$`. Interpolating after parsing keeps secrets
 * with YAML-special characters intact. Unset variables are collected, not thrown.
 */
export function interpolate(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  at = '',
  missing: MissingVariable[] = [],
): { value: unknown; missing: MissingVariable[] } {
  if (typeof value === 'string') {
    const replaced = value.replace(REFERENCE, (match, name: string | undefined) => {
      if (name === undefined) return '$';
      const found = env[name];
      if (found === undefined) {
        missing.push({ name, at });
        return match;
      }
      return found;
    });
    return { value: replaced, missing };
  }
  if (Array.isArray(value)) {
    return { value: value.map((item, index) => interpolate(item, env, `${at}[${index}]`, missing).value), missing };
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      out[key] = interpolate(item, env, at ? `${at}.${key}` : key, missing).value;
    return { value: out, missing };
  }
  return { value, missing };
}

const MARK = '__sbvar_';
const DOLLAR_MARK = '__sbdollar__';

/**
 * `${VAR}` is not valid YAML inside a flow mapping (`auth: { username: ${SB_USER} }`, as
 * docs/connecting.md writes it), so references are swapped for plain-scalar placeholders before
 * parsing and swapped back by `restoreReferences` afterwards; values are substituted only
 * after parsing, so secrets with YAML-special characters stay intact.
 */
export function protectReferences(text: string): string {
  // The name in hex: a name may hold `__` or end in `_`, which would end a placeholder early.
  return text.replace(REFERENCE, (_match, name: string | undefined) =>
    name === undefined ? DOLLAR_MARK : `${MARK}${Buffer.from(name, 'utf8').toString('hex')}__`,
  );
}

/** Turns the placeholders of `protectReferences` back into `${VAR}` / `$$` in every string. */
export function restoreReferences(value: unknown): unknown {
  if (typeof value === 'string') {
    return value
      .replaceAll(DOLLAR_MARK, '$$$$')
      .replace(/__sbvar_([0-9a-f]+)__/g, (_m, hex: string) => `\${${Buffer.from(hex, 'hex').toString('utf8')}}`);
  }
  if (Array.isArray(value)) return value.map(restoreReferences);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, restoreReferences(v)]));
  return value;
}
