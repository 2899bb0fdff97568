/** Collecting what is wrong with a plan file, each problem with its JSON path (plan-validate.ts). */
import { isPlainObject } from '../core/values.js';
import { isDigest } from '../core/canonical-json.js';

export type Json = Record<string, unknown>;

/** Problems reported at once, at most this many. */
export const MAX_PROBLEMS = 10;

/** Collects problems; each check returns whether the value had the expected type. */
export class Problems {
  readonly list: string[] = [];
  add(problem: string): void {
    if (this.list.length < MAX_PROBLEMS) this.list.push(problem);
  }
  object(v: unknown, at: string): v is Json {
    if (isPlainObject(v)) return true;
    this.add(v === undefined ? `${at} is missing` : `${at} must be an object`);
    return false;
  }
  array(v: unknown, at: string): v is unknown[] {
    if (Array.isArray(v)) return true;
    this.add(v === undefined ? `${at} is missing` : `${at} must be an array`);
    return false;
  }
  string(v: unknown, at: string): void {
    if (typeof v !== 'string') this.add(v === undefined ? `${at} is missing` : `${at} must be a string`);
  }
  optionalString(v: unknown, at: string): void {
    if (v !== undefined) this.string(v, at);
  }
  strings(v: unknown, at: string): void {
    if (this.array(v, at) && v.some((s) => typeof s !== 'string')) this.add(`${at} must hold strings only`);
  }
  count(v: unknown, at: string): void {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      this.add(v === undefined ? `${at} is missing` : `${at} must be a non-negative integer`);
    }
  }
  digest(v: unknown, at: string): void {
    if (!isDigest(v)) this.add(v === undefined ? `${at} is missing` : `${at} must be a sha256:<64 hex> digest`);
  }
  oneOf(v: unknown, allowed: readonly unknown[], at: string): void {
    if (!allowed.includes(v))
      this.add(`${at} must be one of ${allowed.join(', ')} (got ${v === undefined ? 'nothing' : JSON.stringify(v)})`);
  }
  exactly(v: unknown, expected: boolean, at: string): void {
    if (v !== expected) this.add(`${at} must be ${String(expected)}`);
  }
}
