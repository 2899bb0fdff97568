import { credentialOfVariable } from '../core/credential-variables.js';
import { registerSecret } from '../core/secrets.js';
import { MAX_ALIAS_COUNT } from './parse.js';
import { countText } from '../core/count-text.js';

/** A problem found while normalising, at a path of the document. */
export interface NormalizeIssue {
  code: 'SB_ENV_UNSET' | 'SB_ENV_SYNTAX' | 'SB_ENV_CREDENTIAL' | 'SB_YAML_ALIAS';
  message: string;
  path: (string | number)[];
  offsetInString?: number;
}

export interface Normalised {
  value: unknown;
  /** JSON pointers (`/spec/admins/0/mobile`) of strings that took a value from the environment. */
  sensitive: Set<string>;
  issues: NormalizeIssue[];
}

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Walks a freshly parsed document (changing it in place: the parser's output is ours),
 * replacing `${VAR}` in strings with the environment's value (`$${` writes a literal
 * `${`), and guarding against alias bombs: the fast parser shares the anchored object
 * between its aliases, so each second visit of an object counts as one alias expansion,
 * as the yaml package's maxAliasCount does. A shared node is interpolated once; the
 * second visit sees the result, which contains no `${` unless a variable's value does,
 * so shared nodes are skipped rather than walked again.
 */
export function normalizeDocument(
  value: unknown,
  env: Record<string, string | undefined>,
  options: { mayHaveAliases?: boolean } = {},
): Normalised {
  const sizes = options.mayHaveAliases === false ? undefined : new Map<object, number>();
  const state: State = { env, sensitive: new Set<string>(), issues: [], sizes, aliases: 0, expanded: 0 };
  try {
    const root = typeof value === 'string' ? interpolate(value, [], state) : value;
    if (root !== null && typeof root === 'object') walk(root, [], state);
    return { value: root, sensitive: state.sensitive, issues: state.issues };
  } catch (error) {
    if (!(error instanceof AliasLimit)) throw error;
    state.issues.push({ code: 'SB_YAML_ALIAS', message: error.message, path: error.path });
    return { value: undefined, sensitive: state.sensitive, issues: state.issues };
  }
}

/** Most nodes a document may expand to through aliases (a billion-laughs guard). */
const MAX_EXPANDED_NODES = 2_000_000;

class AliasLimit extends Error {
  constructor(
    message: string,
    readonly path: (string | number)[],
  ) {
    super(message);
  }
}

interface State {
  env: Record<string, string | undefined>;
  sensitive: Set<string>;
  issues: NormalizeIssue[];
  /**
   * Expanded node count of every container seen (a second sighting is an alias).
   * Undefined when the file has no `*` at all, hence no alias: tracking every node in a
   * map costs more than the parse.
   */
  sizes: Map<object, number> | undefined;
  aliases: number;
  /** Nodes added by alias expansions so far. */
  expanded: number;
}

/**
 * Interpolates the strings of a container in place and returns its expanded size.
 * `path` is one shared stack (pushed and popped): copying it per node would dominate.
 */
function walk(container: object, path: (string | number)[], state: State): number {
  const known = state.sizes?.get(container);
  if (known !== undefined) {
    state.aliases += 1;
    state.expanded += known;
    if (state.aliases > MAX_ALIAS_COUNT)
      throw new AliasLimit(`more than ${MAX_ALIAS_COUNT} aliases in one document`, [...path]);
    if (state.expanded > MAX_EXPANDED_NODES)
      throw new AliasLimit(`aliases expand this document to more than ${countText(MAX_EXPANDED_NODES)} nodes`, [
        ...path,
      ]);
    return known;
  }
  state.sizes?.set(container, 0);
  let size = 1;
  const record = container as Record<string | number, unknown>;
  const visit = (key: string | number): void => {
    const item = record[key];
    if (typeof item === 'string') {
      size += 1;
      if (!item.includes('$')) return;
      path.push(key);
      record[key] = interpolate(item, path, state);
      path.pop();
    } else if (item !== null && typeof item === 'object') {
      path.push(key);
      size += walk(item, path, state);
      path.pop();
    } else {
      size += 1;
    }
  };
  if (Array.isArray(container)) for (let i = 0; i < container.length; i++) visit(i);
  else for (const key of Object.keys(container)) visit(key);
  state.sizes?.set(container, size);
  return size;
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
      const message =
        end < 0
          ? 'unterminated "${": write ${NAME}, or $${ for a literal "${"'
          : `"\${${name}}" is not a variable name (letters, digits, _)`;
      state.issues.push({ code: 'SB_ENV_SYNTAX', message, path: [...path], offsetInString: at });
      return text;
    }
    const credential = credentialOfVariable(name);
    const replacement = credential === undefined ? state.env[name] : undefined;
    if (credential !== undefined) {
      state.issues.push({
        code: 'SB_ENV_CREDENTIAL',
        message:
          `"\${${name}}" is switchboard's own credential (${credential}): a manifest may not send it to the platform ` +
          'as a field value; give the value the platform needs a variable of its own',
        path: [...path],
        offsetInString: at,
      });
    } else if (replacement === undefined) {
      state.issues.push({
        code: 'SB_ENV_UNSET',
        message: `environment variable ${name} is not set`,
        path: [...path],
        offsetInString: at,
      });
    } else {
      // A value from the environment is sensitive: the plan shows "(sensitive)", and every
      // output masks it where a platform message quotes it (src/core/secrets.ts), except
      // switchboard's own records of a run (maskCredentials), which a manifest cannot blank.
      out += registerSecret(replacement, 'manifest');
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
