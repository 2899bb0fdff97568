import type { ErrorObject, AnySchemaObject } from 'ajv/dist/2020.js';
import { Codes } from './codes.js';
import { didYouMean } from './suggest.js';

/** A schema finding, before it gets a position. */
export interface SchemaIssue {
  code: string;
  message: string;
  path: (string | number)[];
  /** Point at the key rather than the value (unknown and ignored fields). */
  key?: boolean;
}

/**
 * Turns ajv's errors into one readable finding per mistake: branch errors of `oneOf` are
 * folded into one message, an `x-ignored` field says why it cannot be set, an unknown
 * field suggests the closest known one, and every finding keeps the path of its node.
 */
export function schemaIssues(errors: readonly ErrorObject[], data: unknown): SchemaIssue[] {
  const folded = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  const ignoredAt = new Set(errors.filter((e) => e.keyword === 'x-ignored').map((e) => e.instancePath));
  const issues: SchemaIssue[] = [];
  for (const error of errors) {
    if (
      folded.some(
        (f) =>
          f !== error &&
          error.schemaPath.startsWith(f.schemaPath + '/') &&
          error.instancePath.startsWith(f.instancePath),
      )
    )
      continue;
    if ((error.keyword === 'not' || error.keyword === 'false schema') && ignoredAt.has(error.instancePath)) continue;
    if (error.keyword === 'if' || error.keyword === 'propertyNames') continue;
    const issue = toIssue(error, data);
    if (issue) issues.push(issue);
  }
  return issues;
}

function toIssue(error: ErrorObject, data: unknown): SchemaIssue | undefined {
  const path = parsePointer(error.instancePath);
  const name = fieldName(path);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const extra = String(params['additionalProperty']);
      if (error.propertyName !== undefined) break;
      const known = knownProperties(error.parentSchema);
      return {
        code: Codes.unknownField,
        message: `unknown field "${extra}"${didYouMean(extra, known)}`,
        path: [...path, extra],
        key: true,
      };
    }
    case 'x-ignored':
      return {
        code: Codes.ignoredField,
        message: `"${name}" cannot be set here: ${error.message ?? ''}`,
        path,
        key: true,
      };
    case 'required':
      return {
        code: Codes.required,
        message: `missing required field "${String(params['missingProperty'])}"${where(name)}`,
        path,
      };
    case 'type': {
      const refused = (error.parentSchema as AnySchemaObject | undefined)?.['x-not-null'];
      if (valueAt(data, path) === null && typeof refused === 'string')
        return { code: Codes.type, message: `"${name}" cannot be null: ${refused}`, path };
      return {
        code: Codes.type,
        message: `"${name}" must be ${article(String(params['type']))}, not ${describe(valueAt(data, path))}`,
        path,
      };
    }
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[]).map(String);
      const actual = String(valueAt(data, path));
      return {
        code: Codes.value,
        message: `"${name}" must be one of ${allowed.join(', ')}, not "${actual}"${didYouMean(actual, allowed)}`,
        path,
      };
    }
    case 'const':
      return name === 'apiVersion'
        ? { code: Codes.apiVersion, message: `apiVersion must be "${String(params['allowedValue'])}"`, path }
        : { code: Codes.value, message: `"${name}" must be ${JSON.stringify(params['allowedValue'])}`, path };
    case 'oneOf':
    case 'anyOf':
      return { code: Codes.oneOf, message: oneOfMessage(error), path };
    case 'pattern':
      if (error.propertyName !== undefined) return propertyNameIssue(error, path);
      return {
        code: Codes.value,
        message: `"${name}" has an invalid value ${JSON.stringify(valueAt(data, path))}${patternHint(error)}`,
        path,
      };
    default:
      break;
  }
  if (error.propertyName !== undefined) return propertyNameIssue(error, path);
  return { code: Codes.value, message: `"${name}" ${error.message ?? 'is invalid'}`, path };
}

function propertyNameIssue(error: ErrorObject, path: (string | number)[]): SchemaIssue {
  const key = String(error.propertyName);
  const pattern = String((error.params as Record<string, unknown>)['pattern'] ?? '');
  if (pattern.startsWith('^\\+')) {
    const hint = /^[0-9]+$/.test(key)
      ? `: YAML read it as a number; write it quoted with its +, "+${key}"`
      : ': write an E.164 number, quoted, e.g. "+3221234567"';
    return { code: Codes.value, message: `"${key}" is not an E.164 number${hint}`, path: [...path, key], key: true };
  }
  return {
    code: Codes.value,
    message: `"${key}" is not a valid field name (letters, digits and _, not starting with a digit)`,
    path: [...path, key],
    key: true,
  };
}

function oneOfMessage(error: ErrorObject): string {
  const branches = Array.isArray(error.schema) ? (error.schema as AnySchemaObject[]) : [];
  const names = branches.map((b) =>
    Array.isArray(b['required']) ? (b['required'] as string[]).join(' and ') : undefined,
  );
  if (names.every((n) => n !== undefined) && names.length > 0) {
    const list = names.join(', ');
    const passing = (error.params as { passingSchemas?: number[] | null }).passingSchemas;
    return passing ? `give only one of ${list}` : `needs one of ${list}`;
  }
  return 'does not match any of the allowed forms';
}

function knownProperties(schema: unknown): string[] {
  const properties = (schema as AnySchemaObject | undefined)?.['properties'] as
    Record<string, AnySchemaObject> | undefined;
  if (!properties) return [];
  return Object.entries(properties)
    .filter(([, s]) => typeof s === 'object' && s['x-ignored'] === undefined)
    .map(([k]) => k);
}

function patternHint(error: ErrorObject): string {
  const pattern = String((error.params as Record<string, unknown>)['pattern']);
  if (pattern === '^[A-Z]{2}$') return ' (a two-letter ISO 3166 code in capitals, e.g. BE)';
  if (pattern === '^\\S(.*\\S)?$') return ' (no leading or trailing spaces)';
  return ` (must match ${pattern})`;
}

/** `/spec/admins/0/email` → ['spec', 'admins', 0, 'email'] (RFC 6901 unescaping). */
function parsePointer(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^(0|[1-9][0-9]*)$/.test(p) ? Number(p) : p));
}

export function fieldName(path: readonly (string | number)[]): string {
  for (let i = path.length - 1; i >= 0; i--) {
    const p = path[i];
    if (typeof p === 'string') return i === path.length - 1 ? p : `${p}[${String(path[i + 1])}]`;
  }
  return 'document';
}

function where(name: string): string {
  return name === 'document' ? '' : ` in "${name}"`;
}

function valueAt(data: unknown, path: (string | number)[]): unknown {
  let node = data;
  for (const p of path) node = (node as Record<string | number, unknown> | undefined)?.[p];
  return node;
}

function article(type: string): string {
  const types = type
    .split(',')
    .map((t) =>
      t === 'integer'
        ? 'an integer'
        : t === 'object'
          ? 'a mapping'
          : t === 'array'
            ? 'a list'
            : t === 'null'
              ? 'null'
              : `a ${t}`,
    );
  return types.join(' or ');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string')
    return `a string (${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)})`;
  return `${typeof value === 'number' ? (Number.isInteger(value) ? 'an integer' : 'a number') : `a ${typeof value}`} (${String(value)})`;
}
