import type { Logger } from '../core/logger.js';
import type { ApiRule } from './profile.js';

/** Result of a permission check: the granting rule's name (the role) when allowed. */
export interface PermissionCheck {
  allowed: boolean;
  rule?: string;
}

interface CompiledRule {
  rule: ApiRule;
  pattern: RegExp;
}

/**
 * The caller's api_rules as a decision procedure (Doc1 §1.6, §2.2): a request is allowed
 * when some rule has its method (lower case) and a `url` regular expression matching the
 * path (query string removed) and does not say `allowed: false`. Everything else is
 * blocked. An unanchored expression must match the whole path; an expression with `^` or
 * `$` is applied as written. Invalid expressions are skipped with a warning.
 */
export class Permissions {
  private readonly compiled: CompiledRule[];

  constructor(rules: readonly ApiRule[], logger?: Logger) {
    this.compiled = rules.flatMap((rule) => {
      const pattern = compileRuleUrl(rule.url);
      if (!pattern) {
        logger?.warn({ rule: rule.name, id: rule.id }, 'api_rule with an invalid url regular expression ignored');
        return [];
      }
      return [{ rule, pattern }];
    });
  }

  /** Whether the caller may send `method` to `path` (`/api/v01/…`, query allowed). */
  check(method: string, path: string): PermissionCheck {
    const wanted = method.toLowerCase();
    const bare = stripQuery(path);
    for (const { rule, pattern } of this.compiled) {
      if (rule.method !== wanted || rule.allowed === false) continue;
      if (pattern.test(bare)) return rule.name === undefined ? { allowed: true } : { allowed: true, rule: rule.name };
    }
    return { allowed: false };
  }

  /** Whether a granting rule carries this role name. */
  hasRole(name: string): boolean {
    return this.compiled.some(({ rule }) => rule.name === name && rule.allowed !== false);
  }

  /** The usable rules, in profile order. */
  rules(): ApiRule[] {
    return this.compiled.map(({ rule }) => rule);
  }
}

/**
 * Compiles a rule's `url`. The platform's expressions may be written for Python's `re`,
 * so `(?P<n>…)`, `(?P=n)`, `\A` and `\Z` are translated. Unanchored → full match.
 */
export function compileRuleUrl(source: string): RegExp | undefined {
  const js = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\(\?P=(\w+)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$');
  const anchored = js.startsWith('^') || /(^|[^\\])\$$/.test(js);
  try {
    return new RegExp(anchored ? js : `^(?:${js})$`);
  } catch {
    return undefined;
  }
}

function stripQuery(path: string): string {
  let bare = path;
  if (/^https?:\/\//i.test(bare)) bare = new URL(bare).pathname;
  const cut = bare.search(/[?#]/);
  return cut < 0 ? bare : bare.slice(0, cut);
}
