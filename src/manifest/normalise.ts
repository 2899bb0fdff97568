import { MAX_ALIAS_COUNT } from './parse.js';

/** A problem found while normalising, at a path of the document. */
export interface NormaliseIssue {
  code: 'SB_ENV_UNSET' | 'SB_ENV_SYNTAX' | 'SB_YAML_ALIAS';
  message: string;
  path: (string | number)[];
  offsetInString?: number;
}

export interface Normalised {
  value: unknown;
  /** JSON pointers (`/spec/admins/0/mobile`) of strings that took a value from the environment. */
  sensitive: Set<string>;
  issues: NormaliseIssue[];
}

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Copies a parsed document into a plain tree, replacing `${VAR}` in strings with the
 * environment's value (`$${` writes a literal `${`), and guarding against alias bombs:
 * the fast parser shares the anchored object between its aliases, so each second visit
 * of an object counts as one alias expansion, as the yaml package's maxAliasCount does.
 */
export function normaliseDocument(value: unknown, env: Record<string, string | undefined>): Normalised {
  const state = { env, sensitive: new Set<string>(), issues: [] as NormaliseIssue[], seen: new Set<object>(), aliases: 0 };
  try {
    return { value: copy(value, [], state), sensitive: state.sensitive, issues: state.issues };
  } catch (error) {
    if (!(error instanceof AliasLimit)) throw error;
    state.issues.push({ code: 'SB_YAML_ALIAS', message: `aliases expand too much (more than ${MAX_ALIAS_COUNT} alias expansions)`, path: error.path });
    return { value: undefined, sensitive: state.sensitive, issues: state.issues };
  }
}

class AliasLimit extends Error {
  constructor(readonly path: (string | number)[]) {
    super('alias limit');
  }
}

interface State {
  env: Record<string, string | undefined>;
  sensitive: Set<string>;
  issues: NormaliseIssue[];
  seen: Set<object>;
  aliases: number;
}

function copy(value: unknown, path: (string | number)[], state: State): unknown {
  if (typeof value === 'string') return value.includes('$') ? interpolate(value, path, state) : value;
  if (value === null || typeof value !== 'object') return value;
  if (state.seen.has(value)) {
    state.aliases += 1;
    if (state.aliases > MAX_ALIAS_COUNT) throw new AliasLimit([...path]);
  } else {
    state.seen.add(value);
  }
  if (Array.isArray(value)) return value.map((item, i) => copy(item, [...path, i], state));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = copy(item, [...path, key], state);
  return out;
}

function interpolate(text: string, path: (string | number)[], state: State): string {
  let out = '';
  let used = false;
  let i = 0;
  while (i < text.length) {
    const at = text.indexOf('$', i);
    if (at < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, at);
    if (text.startsWith('$${', at)) {
      out += '${';
      i = at + 3;
      continue;
    }
    if (!text.startsWith('${', at)) {
      out += '$';
      i = at + 1;
      continue;
    }
    const end = text.indexOf('}', at + 2);
    const name = end < 0 ? '' : text.slice(at + 2, end);
    if (end < 0 || !VARIABLE.test(name)) {
      const message = end < 0 ? 'unterminated "${": write ${NAME}, or $${ for a literal "${"' : `"\${${name}}" is not a variable name (letters, digits, _)`;
      state.issues.push({ code: 'SB_ENV_SYNTAX', message, path: [...path], offsetInString: at });
      return text;
    }
    const replacement = state.env[name];
    if (replacement === undefined) {
      state.issues.push({ code: 'SB_ENV_UNSET', message: `environment variable ${name} is not set`, path: [...path], offsetInString: at });
    } else {
      out += replacement;
      used = true;
    }
    i = end + 1;
  }
  if (used) state.sensitive.add(pointer(path));
  return out;
}

/** JSON pointer of a path (keys escaped per RFC 6901). */
export function pointer(path: readonly (string | number)[]): string {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
