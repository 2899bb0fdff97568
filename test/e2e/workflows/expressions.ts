/**
 * GitHub Actions expressions (`${{ … }}` and `if:`), as far as the workflow templates use
 * them: literals, property paths, `!`, `==`, `!=`, `&&`, `||`, parentheses, and the
 * functions format, contains, startsWith, endsWith, hashFiles, always, success, failure, cancelled.
 * Semantics as GitHub documents them: a missing property is null, `==` on two strings
 * ignores case, other mixed comparisons compare numbers, `&&` and `||` return an operand.
 * Anything else throws, so a test notices an expression it does not understand.
 */

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type Value = string | number | boolean | null | Record<string, unknown> | unknown[];

/** What `success()` and friends answer: the state of the job (or, for a job's `if:`, of its needs). */
export interface Status {
  failed: boolean;
  cancelled: boolean;
}

type Token = { type: 'op' | 'ident' | 'string' | 'number'; text: string };

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:(==|!=|&&|\|\||[!().,])|([A-Za-z_][\w-]*)|'((?:[^']|'')*)'|(\d+(?:\.\d+)?))/y;
  let at = 0;
  while (at < expr.length) {
    if (/^\s*$/.test(expr.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(expr);
    if (!m) throw new Error(`expression not supported by the test harness: ${expr} (at ${expr.slice(at)})`);
    at = re.lastIndex;
    if (m[1] !== undefined) tokens.push({ type: 'op', text: m[1] });
    else if (m[2] !== undefined) tokens.push({ type: 'ident', text: m[2] });
    else if (m[3] !== undefined) tokens.push({ type: 'string', text: m[3].replace(/''/g, "'") });
    else tokens.push({ type: 'number', text: m[4] ?? '' });
  }
  return tokens;
}

function truthy(v: Value | undefined): boolean {
  return !(v === false || v === 0 || v === '' || v === null || v === undefined || Number.isNaN(v));
}

function toNumber(v: Value): number {
  if (v === null) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return v.trim() === '' ? 0 : Number(v);
  return Number.NaN;
}

function equal(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === 'object' || typeof b === 'object') return a === b;
  return toNumber(a) === toNumber(b);
}

function toText(v: Value): string {
  if (v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Evaluates one expression (without `${{ }}`) against `contexts`. */
export function evaluateExpression(expr: string, contexts: Record<string, unknown>, status?: Status): Value {
  const tokens = tokenize(expr);
  let i = 0;
  const peek = () => tokens[i];
  const take = (text?: string): Token => {
    const t = tokens[i++];
    if (!t || (text !== undefined && t.text !== text)) throw new Error(`expected ${text ?? 'a token'} in: ${expr}`);
    return t;
  };
  const functions: Record<string, (args: Value[]) => Value> = {
    format: ([f, ...args]) => toText(f ?? '').replace(/\{(\d+)\}/g, (_, n: string) => toText(args[Number(n)] ?? '')),
    contains: ([hay, needle]) =>
      Array.isArray(hay)
        ? hay.some((x) => equal(x as Value, needle ?? null))
        : toText(hay ?? '')
            .toLowerCase()
            .includes(toText(needle ?? '').toLowerCase()),
    startsWith: ([s, p]) =>
      toText(s ?? '')
        .toLowerCase()
        .startsWith(toText(p ?? '').toLowerCase()),
    endsWith: ([s, p]) =>
      toText(s ?? '')
        .toLowerCase()
        .endsWith(toText(p ?? '').toLowerCase()),
    always: () => true,
    success: () => needStatus().failed === false && !needStatus().cancelled,
    failure: () => needStatus().failed,
    cancelled: () => needStatus().cancelled,
    hashFiles: (patterns) =>
      hashFiles(
        patterns.map((p) => toText(p ?? '')),
        contexts,
      ),
  };
  const needStatus = (): Status => {
    if (!status) throw new Error(`a status function outside an if: ${expr}`);
    return status;
  };
  const primary = (): Value => {
    const t = take();
    if (t.type === 'string') return t.text;
    if (t.type === 'number') return Number(t.text);
    if (t.type === 'op' && t.text === '(') {
      const v = or();
      take(')');
      return v;
    }
    if (t.type === 'op' && t.text === '!') return !truthy(primary());
    if (t.type !== 'ident') throw new Error(`unexpected ${t.text} in: ${expr}`);
    if (t.text === 'true' || t.text === 'false') return t.text === 'true';
    if (t.text === 'null') return null;
    if (peek()?.text === '(') {
      take('(');
      const args: Value[] = [];
      while (peek()?.text !== ')') {
        args.push(or());
        if (peek()?.text === ',') take(',');
      }
      take(')');
      const fn = functions[t.text];
      if (!fn) throw new Error(`function not supported by the test harness: ${t.text}`);
      return fn(args);
    }
    if (!(t.text in contexts)) throw new Error(`unknown expression context: ${expr}`);
    let value: unknown = contexts[t.text];
    while (peek()?.text === '.') {
      take('.');
      const key = take().text;
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    }
    return value === undefined ? null : (value as Value);
  };
  const comparison = (): Value => {
    let left = primary();
    while (peek()?.text === '==' || peek()?.text === '!=') {
      const op = take().text;
      const right = primary();
      left = op === '==' ? equal(left, right) : !equal(left, right);
    }
    return left;
  };
  const and = (): Value => {
    let left = comparison();
    while (peek()?.text === '&&') {
      take('&&');
      const right = comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const or = (): Value => {
    let left = and();
    while (peek()?.text === '||') {
      take('||');
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const value = or();
  if (i !== tokens.length) throw new Error(`unexpected ${tokens[i]?.text} in: ${expr}`);
  return value;
}

/** `text` with each `${{ … }}` replaced by its value as text. */
export function interpolate(text: string, contexts: Record<string, unknown>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_all, expr: string) => toText(evaluateExpression(expr, contexts)));
}

/**
 * An `if:` as GitHub reads it: `${{ }}` optional, and without a status function it means
 * `success() && (…)`; no `if:` at all means `success()`.
 */
export function condition(text: string | undefined, contexts: Record<string, unknown>, status: Status): boolean {
  const expr = (text ?? 'success()').trim().replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1');
  const full = /\b(always|success|failure|cancelled)\(/.test(expr) ? expr : `success() && (${expr})`;
  return truthy(evaluateExpression(full, contexts, status));
}

/**
 * `hashFiles(…)` over `github.workspace`: one digest of the files the patterns match, empty
 * when none does (as GitHub answers). Patterns: a path, or a folder followed by `/**`.
 */
function hashFiles(patterns: string[], contexts: Record<string, unknown>): string {
  const workspace = (contexts['github'] as { workspace?: unknown } | undefined)?.workspace;
  if (typeof workspace !== 'string') throw new Error('hashFiles needs github.workspace');
  const files: string[] = [];
  const walk = (path: string): void => {
    const info = statSync(path, { throwIfNoEntry: false });
    if (info?.isFile()) files.push(path);
    else if (info?.isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(path, entry));
  };
  for (const pattern of patterns) {
    if (/[*?[]/.test(pattern.replace(/\/\*\*$/, ''))) throw new Error(`hashFiles pattern not emulated: ${pattern}`);
    walk(join(workspace, pattern.replace(/\/\*\*$/, '')));
  }
  if (files.length === 0) return '';
  const all = createHash('sha256');
  for (const file of files) all.update(createHash('sha256').update(readFileSync(file)).digest());
  return all.digest('hex');
}
