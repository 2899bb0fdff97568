import { hasKind, kindOf, kinds } from '../kinds/index.js';
import { policyKind } from '../kinds/policy.js';
import { routingTableKind } from '../kinds/routing-table.js';
import type { BuiltRule, DocContext, DocumentBuilder, Json } from './build-context.js';
import { Codes } from './codes.js';
import {
  CAPACITY_FIELDS,
  COVERAGE_FIGURES,
  type CoverageBound,
  type PolicyCheck,
  type PolicyCondition,
  type PolicyMatch,
  type PolicyRule,
} from './policy-types.js';
import { forbidCheck } from './policy-forbid.js';
import type { Reporter } from './reporter.js';
import { didYouMean } from './suggest.js';
import type { JsonScalar, SourcePosition } from './types.js';
import { compileLinearPattern, type LinearPattern } from './linear-pattern.js';

/** A rule's `threshold.min` when it gives none: as the built-in thresholds. */
const DEFAULT_THRESHOLD_MIN = 10;

type Path = (string | number)[];

/**
 * Policy documents (docs/policies.md): every rule of a schema-valid document is checked
 * against the kind table (kinds, fields, collections) and added to the build's policies;
 * a rule with a mistake is reported at its position and left out, as an invalid document is.
 * Unique ids across the set are checked once every document is read (load.ts).
 */
export const policyDocument: DocumentBuilder = {
  address: (metadata) => policyKind.address(String(metadata['name'])),
  build: (ctx, metadata, spec) => {
    const rules = (spec['rules'] as Json[] | undefined) ?? [];
    rules.forEach((rule, i) => {
      const at = ['spec', 'rules', i];
      const built = new RuleReader(ctx, String(metadata['name']), at).read(rule);
      const place = (path: (string | number)[]) =>
        ctx.out.reporter.resolve({ file: ctx.file, doc: ctx.doc, path: [...at, ...path] });
      if (!built) return;
      const tableAt = built.match.table === undefined ? {} : { tableAt: place(['match', 'table']) };
      ctx.out.policies.push({ rule: built, idAt: place(['id']), ...tableAt });
    });
  },
};

/** Reads one rule, reporting what the kind table says is wrong with it. */
class RuleReader {
  private ok = true;

  constructor(
    private readonly ctx: DocContext,
    private readonly policy: string,
    private readonly at: Path,
  ) {}

  read(rule: Json): PolicyRule | undefined {
    const match = this.match(rule['match'] as Json);
    const check = match && this.check(rule, match);
    if (!match || !check || !this.ok) return undefined;
    const where = this.ctx.out.reporter.resolve({ file: this.ctx.file, doc: this.ctx.doc, path: this.at });
    const out: PolicyRule = {
      id: String(rule['id']),
      policy: this.policy,
      severity: rule['severity'] === 'warning' ? 'warning' : 'error',
      match,
      check,
      source: `${where.file}:${where.line}:${where.column}`,
    };
    if (typeof rule['description'] === 'string') out.description = rule['description'];
    return out;
  }

  private error(message: string, path: Path): void {
    this.ok = false;
    this.ctx.out.reporter.error(Codes.policy, message, {
      file: this.ctx.file,
      doc: this.ctx.doc,
      path: [...this.at, ...path],
    });
  }

  private match(raw: Json): PolicyMatch | undefined {
    const kind = String(raw['kind']);
    const known = [...kinds.map((k) => k.kind), routingTableKind.rowKind];
    if (!known.includes(kind)) {
      this.error(`unknown kind "${kind}" in a rule; expected one of ${known.join(', ')}${didYouMean(kind, known)}`, [
        'match',
        'kind',
      ]);
      return undefined;
    }
    const match: PolicyMatch = { kind, where: [] };
    if (typeof raw['table'] === 'string') {
      if (kind !== routingTableKind.rowKind)
        this.error(`"table" names rows of a routing table: it needs kind ${routingTableKind.rowKind}`, [
          'match',
          'table',
        ]);
      match.table = tableAddress(raw['table']);
    }
    if (typeof raw['address'] === 'string') match.address = raw['address'];
    const where = (raw['where'] as Json | undefined) ?? {};
    match.where = Object.entries(where).map(([field, value]) => {
      this.field(kind, field, ['match', 'where', field]);
      return { field, test: this.condition(value, ['match', 'where', field]) };
    });
    return match;
  }

  private condition(value: unknown, path: Path): PolicyCondition {
    if (value === null || typeof value !== 'object') return { type: 'equals', value: value as JsonScalar };
    const test = value as Json;
    if (Array.isArray(test['in'])) return { type: 'in', values: test['in'] as JsonScalar[] };
    if (typeof test['pattern'] === 'string')
      return { type: 'pattern', pattern: this.regex(test['pattern'], [...path, 'pattern']) };
    return { type: 'not', value: test['not'] as JsonScalar };
  }

  private regex(source: string, path: Path): LinearPattern {
    const compiled = compileLinearPattern(source);
    if ('test' in compiled) return compiled;
    this.error(
      `"${source}" is not a regular expression RE2 accepts (no backreferences, no lookaround): ${compiled.error}`,
      path,
    );
    return { source, test: () => false };
  }

  /** A field of the matched kind (any column name for routing rows). */
  private field(kind: string, field: string, path: Path, extra: readonly string[] = []): void {
    if (kind === routingTableKind.rowKind || !hasKind(kind)) return;
    const definition = kindOf(kind);
    const extraFields = (definition.manifest.extraFields ?? []).map((f) => f.name);
    const known = [...definition.fields.map((f) => f.name), ...extraFields, ...extra];
    if (!known.includes(field))
      this.error(
        `${kind} has no field "${field}"; its fields are ${known.join(', ')}${didYouMean(field, known)}`,
        path,
      );
  }

  private check(rule: Json, match: PolicyMatch): PolicyCheck | undefined {
    if (rule['limit']) return this.limit(rule['limit'] as Json, match);
    if (rule['require']) return this.require(rule['require'] as Json, match);
    if (rule['reference']) return this.reference(rule['reference'] as Json, match);
    if (rule['forbid']) return forbidCheck(rule, match.kind, (message, path) => this.error(message, path));
    if (rule['coverage']) return this.coverage(rule['coverage'] as Json, match);
    return this.threshold(rule['threshold'] as Json, match);
  }

  private limit(raw: Json, match: PolicyMatch): PolicyCheck {
    const check: PolicyCheck = { type: 'limit' };
    if (typeof raw['min'] === 'number') check.min = raw['min'];
    if (typeof raw['max'] === 'number') check.max = raw['max'];
    if (check.min !== undefined && check.max !== undefined && check.min > check.max)
      this.error(`min ${check.min} is above max ${check.max}: nothing could pass`, ['limit']);
    if (typeof raw['count'] === 'string') {
      check.count = raw['count'];
      this.collection(match.kind, raw['count']);
      return check;
    }
    const field = String(raw['field']);
    check.field = field;
    if (match.kind === routingTableKind.rowKind || !hasKind(match.kind)) return check;
    const definition = kindOf(match.kind);
    const capacity = definition.capacity !== undefined || definition.capacityReport !== undefined;
    if (capacity && CAPACITY_FIELDS.includes(field)) return check;
    this.field(match.kind, field, ['limit', 'field'], capacity ? CAPACITY_FIELDS : []);
    const type = definition.fields.find((f) => f.name === field)?.type;
    if (type !== undefined && type !== 'number' && type !== 'integer')
      this.error(`${match.kind}.${field} is a ${type}, not a number: limit compares numbers`, ['limit', 'field']);
    return check;
  }

  /** `count:` names a child collection of the matched kind. */
  private collection(kind: string, collection: string): void {
    const children = kinds.filter((k) => k.parentKinds.includes(kind) && k.collection !== undefined);
    const names = children.map((k) => k.collection as string);
    if (names.includes(collection)) return;
    const known = names.length > 0 ? `its collections are ${names.join(', ')}` : 'it has no child collection';
    this.error(`${kind} has no collection "${collection}"; ${known}${didYouMean(collection, names)}`, [
      'limit',
      'count',
    ]);
  }

  private require(raw: Json, match: PolicyMatch): PolicyCheck {
    const field = String(raw['field']);
    this.field(match.kind, field, ['require', 'field']);
    const check: PolicyCheck = { type: 'require', field, present: raw['present'] !== false };
    if (typeof raw['pattern'] === 'string') check.pattern = this.regex(raw['pattern'], ['require', 'pattern']);
    if (Array.isArray(raw['oneOf'])) check.oneOf = raw['oneOf'] as JsonScalar[];
    if (!check.present && (check.pattern || check.oneOf))
      this.error('present: false says the field must not be declared: a pattern or oneOf could never apply', [
        'require',
        'present',
      ]);
    return check;
  }

  private reference(raw: Json, match: PolicyMatch): PolicyCheck {
    const field = String(raw['field']);
    const key = String(raw['key']);
    this.field(match.kind, field, ['reference', 'field']);
    if (typeof raw['table'] === 'string') return { type: 'reference', field, table: tableAddress(raw['table']), key };
    const kind = String(raw['kind']);
    const known = kinds.map((k) => k.kind);
    if (!hasKind(kind)) {
      const rows = kind === routingTableKind.rowKind ? `: a routing table's rows are named with "table"` : '';
      this.error(`unknown kind "${kind}" to refer to${rows}${didYouMean(kind, known)}`, ['reference', 'kind']);
      return { type: 'reference', field, kind, key };
    }
    this.field(kind, key, ['reference', 'key']);
    return { type: 'reference', field, kind, key };
  }

  /** `coverage:` bounds figures of the Emergency coverage section of the parents of numbers (subscriptions). */
  private coverage(raw: Json, match: PolicyMatch): PolicyCheck {
    const parents = kinds.filter((k) => k.coverage !== undefined).flatMap((k) => k.parentKinds);
    if (!parents.includes(match.kind))
      this.error(
        `coverage is a figure of the objects numbers live under (${parents.join(', ')}), not of ${match.kind}`,
        ['match', 'kind'],
      );
    const bounds: Partial<Record<(typeof COVERAGE_FIGURES)[number], CoverageBound>> = {};
    for (const figure of COVERAGE_FIGURES) {
      const value = raw[figure];
      if (typeof value === 'number' || value === 'warn') bounds[figure] = value;
    }
    return { type: 'coverage', bounds };
  }

  private threshold(raw: Json, match: PolicyMatch): PolicyCheck {
    if (match.where.length > 0 || match.address !== undefined)
      this.error(
        'a threshold takes a share of all the live objects of its kind (or table) in scope: where and address cannot narrow it',
        ['match'],
      );
    const check: PolicyCheck = {
      type: 'threshold',
      min: typeof raw['min'] === 'number' ? raw['min'] : DEFAULT_THRESHOLD_MIN,
    };
    if (raw['update'] !== undefined) check.update = percentOf(raw['update']);
    if (raw['delete'] !== undefined) check.delete = percentOf(raw['delete']);
    return check;
  }
}

/** `draas/active/routes` → the table's address. */
function tableAddress(text: string): string {
  const [service = '', version = '', name = ''] = text.split('/');
  return routingTableKind.address(service, version, name);
}

/** `20%` or 20 (the schema allows nothing else). */
function percentOf(value: unknown): number {
  return typeof value === 'number' ? value : Number(String(value).replace('%', ''));
}

/**
 * Rule ids must be unique across the set: `--allow-policy ID` and every violation name one
 * rule. A rule over the rows of a table no manifest declares checks nothing: said, as a warning.
 */
export function uniqueRules(
  built: readonly BuiltRule[],
  /** The declared routing tables: their columns, by address. */
  tables: ReadonlyMap<string, readonly string[]>,
  reporter: Reporter,
): PolicyRule[] {
  const seen = new Map<string, PolicyRule>();
  for (const { rule, idAt, tableAt } of built) {
    if (tableAt && rule.match.table !== undefined && !tables.has(rule.match.table))
      reporter.warning(
        Codes.policy,
        `no manifest declares the routing table ${rule.match.table}: rule ${rule.id} checks nothing`,
        tableAt,
      );
    unknownColumns(rule, tables, idAt, reporter);
    const first = seen.get(rule.id);
    if (first)
      reporter.error(
        Codes.duplicate,
        `rule id "${rule.id}" is also used at ${first.source}; rule ids are unique in the set`,
        idAt,
      );
    else seen.set(rule.id, rule);
  }
  return [...seen.values()];
}

/**
 * A routing-row rule names the columns of its tables (those of `match.table`, else of every
 * declared table): a field no table has would check nothing (a `where` on it never matches,
 * a limit or a reference never applies), so it is an error, as an unknown field of an object
 * kind is.
 */
function unknownColumns(
  rule: PolicyRule,
  tables: ReadonlyMap<string, readonly string[]>,
  at: SourcePosition,
  reporter: Reporter,
): void {
  if (rule.match.kind !== routingTableKind.rowKind || tables.size === 0) return;
  const scope = rule.match.table === undefined ? [...tables.values()] : [tables.get(rule.match.table) ?? []];
  const known = [...new Set(scope.flat())].sort();
  if (known.length === 0) return;
  const check = rule.check;
  // Not a `require`'s field: a column no row has is what it finds missing, in every row.
  const valued =
    (check.type === 'limit' || check.type === 'reference') && check.field !== undefined ? [check.field] : [];
  const named = [...rule.match.where.map((w) => w.field), ...valued];
  for (const field of new Set(named)) {
    if (known.includes(field)) continue;
    reporter.error(
      Codes.policy,
      `rule ${rule.id}: no declared routing table it matches has a column "${field}"; its columns are ` +
        `${known.join(', ')}${didYouMean(field, known)}`,
      at,
    );
  }
}
