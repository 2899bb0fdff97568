/** Body field readers for route handlers: each throws a 400 naming the field. */
import { badRequest } from './errors.js';

export function requiredString(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (typeof v !== 'string' || v.trim() === '')
    throw badRequest('missing_field', `${key} is required (a non-empty string)`);
  return v;
}

export function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest('bad_field', `${key} must be a string`);
  return v;
}

/** Numbers, or strings holding one (the spec's markups are "sometimes a string"). */
export function optionalNumber(body: Record<string, unknown>, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw badRequest('bad_field', `${key} must be a number`);
  return n;
}

export function requiredBoolean(body: Record<string, unknown>, key: string): boolean {
  const v = body[key];
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw badRequest('missing_field', `${key} is required (a boolean)`);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requiredEmail(body: Record<string, unknown>, key: string): string {
  const v = requiredString(body, key);
  if (!EMAIL.test(v)) throw badRequest('bad_email', `${key} must be a valid e-mail address`);
  return v;
}

/** Boolean query flags: `true`/`1` are true. */
export function queryFlag(query: URLSearchParams, key: string): boolean {
  const v = query.get(key);
  return v === 'true' || v === '1';
}
